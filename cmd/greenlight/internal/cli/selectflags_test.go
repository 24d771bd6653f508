package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// An empty --step or --test is a usage error (exit 2) before anything is
// packed or run.
func TestEmptySelectionIsAUsageError(t *testing.T) {
	for _, args := range [][]string{
		{"verify", "--test", "", "."},
		{"verify", "--test", "  ", "."},
		{"verify", "--step", "", "."},
	} {
		var out, errb bytes.Buffer
		code := Main(context.Background(), args, Env{Stdout: &out, Stderr: &errb})
		if code != 2 || !strings.Contains(errb.String(), "empty") {
			t.Errorf("%q: exit %d, stderr %q; want 2 naming the empty value", args, code, errb.String())
		}
	}
}
