package calc

import (
	"os"
	"testing"
)

// TestFlaky fails the first time it runs in a workspace and passes after.
func TestFlaky(t *testing.T) {
	const mark = "/tmp/greenlight-flaky-mark"
	if _, err := os.Stat(mark); err != nil {
		_ = os.WriteFile(mark, nil, 0o600)
		t.Fatalf("first run fails")
	}
}
