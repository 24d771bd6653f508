package writeback

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/greenlight-dev/greenlight/cmd/greenlight/internal/dirtest"
)

// applyCase is an original tree, a final one and the user's directory
// (the original plus extras), ready for Apply.
func applyCase(t *testing.T) (user string, orig, final []byte) {
	orig0 := map[string]string{"a.py": "a = 1\n", "gone.py": "bye\n", "m/z.py": "z = 1\n", "run.sh": "echo\n"}
	final0 := map[string]string{"a.py": "a = 2\n", "new/deep/n.py": "n = 1\n", "m/z.py": "z = 2\n", "run.sh": "+x:echo 2\n"}
	return tree(t, orig0), pack(t, tree(t, orig0)), pack(t, tree(t, final0))
}

// TestApplyIsAllOrNothingWhenARenameFails: the commit fails at each of
// its renames in turn; every time the tree is exactly as before (originals
// back, created files and directories gone, no temporary files left).
func TestApplyIsAllOrNothingWhenARenameFails(t *testing.T) {
	for failAt := 1; ; failAt++ {
		user, orig, final := applyCase(t)
		before := dirtest.Digest(t, user)
		n := 0
		beforeRename = func(from, to string) error {
			if n++; n == failAt {
				return fmt.Errorf("injected failure renaming %s", from)
			}
			return nil
		}
		_, err := Apply(context.Background(), user, bytes.NewReader(orig), bytes.NewReader(final))
		beforeRename = func(string, string) error { return nil }
		if n < failAt { // every rename passed: the apply is complete
			if err != nil {
				t.Fatal(err)
			}
			if failAt < 4 {
				t.Fatalf("only %d renames", n)
			}
			return
		}
		if err == nil || !strings.Contains(err.Error(), "injected failure") || !strings.Contains(err.Error(), "unchanged") {
			t.Fatalf("rename %d failing: Apply = %v", failAt, err)
		}
		if after := dirtest.Digest(t, user); after != before {
			t.Fatalf("rename %d failing changed the tree", failAt)
		}
	}
}

// TestApplyChangesNothingWhenATargetIsADirectory: a later target that is
// a directory in the user's tree fails the apply before any file moves.
func TestApplyChangesNothingWhenATargetIsADirectory(t *testing.T) {
	user, orig, final := applyCase(t)
	if err := os.Remove(filepath.Join(user, "run.sh")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(user, "run.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	before := dirtest.Digest(t, user)
	_, err := Apply(context.Background(), user, bytes.NewReader(orig), bytes.NewReader(final))
	if !errors.Is(err, ErrUnsupported) {
		t.Fatalf("Apply = %v, want ErrUnsupported", err)
	}
	if dirtest.Digest(t, user) != before {
		t.Fatal("a failed apply changed the tree")
	}
}

// TestApplyChangesNothingWhenADirectoryIsReadOnly: one target directory
// cannot be written (immutable as root, mode 0555 otherwise); no file
// changes.
func TestApplyChangesNothingWhenADirectoryIsReadOnly(t *testing.T) {
	user, orig, final := applyCase(t)
	dirtest.Lock(t, filepath.Join(user, "m"))
	before := dirtest.Digest(t, user)
	_, err := Apply(context.Background(), user, bytes.NewReader(orig), bytes.NewReader(final))
	if err == nil || !strings.Contains(err.Error(), "m/z.py") {
		t.Fatalf("Apply = %v, want an error naming m/z.py", err)
	}
	if dirtest.Digest(t, user) != before {
		t.Fatal("a failed apply changed the tree")
	}
}

// TestApplyLeavesNoTemporaryFiles: a complete apply leaves exactly the
// final files.
func TestApplyLeavesNoTemporaryFiles(t *testing.T) {
	user, orig, final := applyCase(t)
	if _, err := Apply(context.Background(), user, bytes.NewReader(orig), bytes.NewReader(final)); err != nil {
		t.Fatal(err)
	}
	want := dirtest.Digest(t, tree(t, map[string]string{"a.py": "a = 2\n", "new/deep/n.py": "n = 1\n", "m/z.py": "z = 2\n", "run.sh": "+x:echo 2\n"}))
	if got := dirtest.Digest(t, user); got != want {
		out, _ := exec.Command("find", user, "-printf", "%P %m\n").Output()
		t.Fatalf("tree after apply differs from the final tree:\n%s", out)
	}
}
