package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"
)

// Every command that prints something a program could read takes --json;
// serve (a server), help and completion print for people only, and man
// writes files.
func TestEveryCommandTakesJSON(t *testing.T) {
	a := &app{env: Env{Getenv: func(string) string { return "" }}}
	exempt := map[string]bool{"serve": true, "help": true, "completion": true, "man": true}
	for _, cmd := range a.root().Commands() {
		if exempt[cmd.Name()] {
			continue
		}
		if cmd.Flags().Lookup("json") == nil {
			t.Errorf("greenlight %s has no --json", cmd.Name())
		}
	}
}

func TestVersionJSON(t *testing.T) {
	var out, errb bytes.Buffer
	code := Main(context.Background(), []string{"version", "--json"}, Env{Stdout: &out, Stderr: &errb, Version: "1.2.3"})
	var v map[string]any
	if code != 0 || json.Unmarshal(out.Bytes(), &v) != nil || v["version"] != "1.2.3" || v["schema_version"] != "greenlight.contract/v1" {
		t.Errorf("version --json: exit %d %q %q", code, out.String(), errb.String())
	}
}
