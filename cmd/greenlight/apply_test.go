package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/greenlight-dev/greenlight/cmd/greenlight/internal/dirtest"
)

// TestFixApplyIsAllOrNothing: the winning change modifies
// temperature/__init__.py and adds zdocs/NOTES.md, but zdocs cannot be
// written (immutable as root, mode 0555 otherwise). `fix --apply` must
// exit 2 with a clear message and leave every file of the directory as it
// was — in particular not the module, which sorts before zdocs.
func TestFixApplyIsAllOrNothing(t *testing.T) {
	requireDocker(t)
	fix, err := os.ReadFile(filepath.Join(examples(""), "fail.patch"))
	if err != nil {
		t.Fatal(err)
	}
	patch := string(fix) + "--- /dev/null\n+++ b/zdocs/NOTES.md\n@@ -0,0 +1 @@\n+hot from 30 on\n"
	dir := filepath.Join(t.TempDir(), "ws")
	copyDir(t, examples("fail"), dir)
	if err := os.MkdirAll(filepath.Join(dir, "zdocs"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "zdocs", "README.md"), []byte("docs\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	dirtest.Lock(t, filepath.Join(dir, "zdocs"))
	before := dirtest.Digest(t, dir)

	r := newUser(t).run(strings.NewReader(patch), "fix", "-q", "--provider", "client", "--apply", dir)
	r.wantExit(t, 2, "fix --apply into an unwritable directory")
	r.wantOneLineError(t, "the directory is unchanged")
	if !strings.Contains(r.stdout, "zdocs/NOTES.md") {
		t.Errorf("the winning change should include zdocs/NOTES.md:\n%s", r.stdout)
	}
	if dirtest.Digest(t, dir) != before {
		t.Fatal("a failed fix --apply changed the directory")
	}
}
