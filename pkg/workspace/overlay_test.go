package workspace_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/greenlight-dev/greenlight/pkg/workspace"
)

// writeTree writes files (slash paths) under a new directory.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// packTree packs a tree as a workspace snapshot.
func packTree(t *testing.T, dir string) *bytes.Buffer {
	t.Helper()
	var buf bytes.Buffer
	if _, err := workspace.Pack(context.Background(), dir, &buf, workspace.PackOptions{NoGit: true}); err != nil {
		t.Fatal(err)
	}
	return &buf
}

func TestOverlayDiff(t *testing.T) {
	ws := map[string]string{
		"sq.py":            "def f(x):\n    return x + 1\n",
		"tests/test_sq.py": "def test_two():\n    pass\n",
		"notes.txt":        "a\nb",
	}
	for _, c := range []struct {
		name    string
		overlay map[string]string
		want    string
	}{
		{"a new file", map[string]string{"tests/test_h.py": "def test_three():\n    pass\n"},
			"diff --git a/tests/test_h.py b/tests/test_h.py\nnew file mode 100644\n--- /dev/null\n+++ b/tests/test_h.py\n@@ -0,0 +1,2 @@\n" +
				"+def test_three():\n+    pass\n"},
		{"a replaced file", map[string]string{"tests/test_sq.py": "def test_two():\n    assert True\n"},
			"diff --git a/tests/test_sq.py b/tests/test_sq.py\n--- a/tests/test_sq.py\n+++ b/tests/test_sq.py\n@@ -1,2 +1,2 @@\n" +
				"-def test_two():\n-    pass\n+def test_two():\n+    assert True\n"},
		{"no final newline on either side", map[string]string{"notes.txt": "a\nc"},
			"diff --git a/notes.txt b/notes.txt\n--- a/notes.txt\n+++ b/notes.txt\n@@ -1,2 +1,2 @@\n-a\n-b\n\\ No newline at end of file\n+a\n+c\n\\ No newline at end of file\n"},
		{"an empty new file", map[string]string{"tests/__init__.py": ""},
			"diff --git a/tests/__init__.py b/tests/__init__.py\nnew file mode 100644\n"},
		{"an equal file is left out", map[string]string{"sq.py": ws["sq.py"]}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := workspace.OverlayDiff(packTree(t, writeTree(t, ws)), writeTree(t, c.overlay))
			if err != nil {
				t.Fatal(err)
			}
			if got != c.want {
				t.Errorf("diff:\n%s\nwant:\n%s", got, c.want)
			}
		})
	}
}

func TestOverlayDiffRefuses(t *testing.T) {
	ws := writeTree(t, map[string]string{"sq.py": "x\n", "data": "file\n"})
	for _, c := range []struct {
		name  string
		setup func(dir string) error
		want  string
	}{
		{"binary", func(dir string) error { return os.WriteFile(filepath.Join(dir, "blob.bin"), []byte{0, 1, 2}, 0o644) }, "not a text file"},
		{"symlink", func(dir string) error { return os.Symlink("sq.py", filepath.Join(dir, "link.py")) }, "not a regular file"},
		{"a workspace file in the way", func(dir string) error {
			if err := os.MkdirAll(filepath.Join(dir, "data"), 0o755); err != nil {
				return err
			}
			return os.WriteFile(filepath.Join(dir, "data", "x.py"), []byte("x\n"), 0o644)
		}, "has files under it"},
		{"a name a diff must quote", func(dir string) error { return os.WriteFile(filepath.Join(dir, "a\"b.py"), []byte("x\n"), 0o644) }, "quote"},
		{"empty", func(string) error { return nil }, "holds no file"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := c.setup(dir); err != nil {
				t.Fatal(err)
			}
			_, err := workspace.OverlayDiff(packTree(t, ws), dir)
			if !errors.Is(err, workspace.ErrOverlay) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err %v; want ErrOverlay saying %q", err, c.want)
			}
		})
	}
}
