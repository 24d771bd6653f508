package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// On a home that already holds a run database, verify packs the workspace
// while the embedded stack starts (issue 25: the two overlap). A
// workspace refused by the pack still stores nothing, and the stack that
// started meanwhile is closed again: no owner record is left and the home
// is free for the next command at once.
func TestRefusedWorkspaceOnAUsedHomeClosesTheStack(t *testing.T) {
	tmp := t.TempDir()
	small := filepath.Join(tmp, "small")
	copyDir(t, examples("pass"), small)
	if err := os.WriteFile(filepath.Join(small, "blob.bin"), make([]byte, 2<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{name: "nonexistent dir", args: []string{"verify", filepath.Join(tmp, "nope")}, want: "nope: no such directory"},
		{name: "over a small cap", args: []string{"verify", "--max-workspace-bytes", "1MiB", small}, want: "blob.bin"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			u := newUser(t)
			u.run(nil, "runs").wantExit(t, 0, "runs on a fresh home") // the home now has its run database
			if _, err := os.Stat(filepath.Join(u.home, "runs.db")); err != nil {
				t.Fatalf("runs left no run database, so this test would not take the overlapped path: %v", err)
			}
			r := u.run(nil, tc.args...)
			r.wantExit(t, 2, strings.Join(tc.args, " "))
			r.wantOneLineError(t, tc.want)
			if n := blobCount(t, u.home); n != 0 {
				t.Errorf("%d blob(s) stored for a refused workspace", n)
			}
			if _, err := os.Stat(filepath.Join(u.home, "owner.json")); err == nil {
				t.Error("the stack started alongside the pack was left open: owner.json remains")
			}
			next := u.run(nil, "runs")
			next.wantExit(t, 0, "runs after the refused verify")
			if next.stderr != "" {
				t.Errorf("the next command did not find the home free: %q", next.stderr)
			}
		})
	}
}
