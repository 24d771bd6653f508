package writeback

import (
	"archive/tar"
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/greenlight-dev/greenlight/pkg/workspace"
)

// tree writes files (path → content; "+x:" prefix makes it executable).
func tree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		mode := os.FileMode(0o644)
		if len(content) > 3 && content[:3] == "+x:" {
			content, mode = content[3:], 0o755
		}
		if err := os.WriteFile(p, []byte(content), mode); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// pack returns the snapshot tar of dir.
func pack(t *testing.T, dir string) []byte {
	t.Helper()
	var b bytes.Buffer
	if _, err := workspace.Pack(context.Background(), dir, &b, workspace.PackOptions{NoGit: true}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestApplyWritesOnlyTheDifference(t *testing.T) {
	orig := map[string]string{"calc.py": "a - b\n", "keep.py": "same\n", "old.py": "gone soon\n", "run.sh": "echo\n"}
	final := map[string]string{"calc.py": "a + b\n", "keep.py": "same\n", "pkg/new.py": "new\n", "run.sh": "+x:echo\n"}
	user := tree(t, orig)
	// A file the snapshots never saw (ignored or untracked) must survive.
	if err := os.WriteFile(filepath.Join(user, "local.env"), []byte("SECRET=1"), 0o600); err != nil {
		t.Fatal(err)
	}
	changes, err := Apply(context.Background(), user, bytes.NewReader(pack(t, tree(t, orig))), bytes.NewReader(pack(t, tree(t, final))))
	if err != nil {
		t.Fatal(err)
	}
	want := []Change{{"calc.py", "modify"}, {"old.py", "delete"}, {"pkg/new.py", "add"}, {"run.sh", "modify"}}
	if len(changes) != len(want) {
		t.Fatalf("changes = %v, want %v", changes, want)
	}
	for i := range want {
		if changes[i] != want[i] {
			t.Errorf("change %d = %v, want %v", i, changes[i], want[i])
		}
	}
	for name, content := range map[string]string{"calc.py": "a + b\n", "keep.py": "same\n", "pkg/new.py": "new\n", "local.env": "SECRET=1"} {
		b, err := os.ReadFile(filepath.Join(user, name))
		if err != nil || string(b) != content {
			t.Errorf("%s = %q, %v; want %q", name, b, err, content)
		}
	}
	if _, err := os.Stat(filepath.Join(user, "old.py")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("old.py still exists: %v", err)
	}
	if fi, err := os.Stat(filepath.Join(user, "run.sh")); err != nil || fi.Mode().Perm()&0o111 == 0 {
		t.Errorf("run.sh should have become executable: %v %v", fi.Mode(), err)
	}
	if m, _ := filepath.Glob(filepath.Join(user, "*.greenlight-tmp")); len(m) > 0 {
		t.Errorf("temporary files left: %v", m)
	}
}

func TestApplyRefusesHostileSnapshots(t *testing.T) {
	orig := pack(t, tree(t, map[string]string{"a.py": "x\n"}))
	hostile := func(name string, typ byte, link string) []byte {
		var b bytes.Buffer
		tw := tar.NewWriter(&b)
		h := &tar.Header{Name: name, Typeflag: typ, Mode: 0o644, Linkname: link}
		if typ == tar.TypeReg {
			h.Size = 4
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if typ == tar.TypeReg {
			_, _ = tw.Write([]byte("evil"))
		}
		_ = tw.Close()
		return b.Bytes()
	}
	tests := []struct {
		name  string
		final []byte
		want  error
	}{
		{name: "parent escape", final: hostile("../escaped.py", tar.TypeReg, ""), want: workspace.ErrUnsafeEntry},
		{name: "absolute path", final: hostile("/etc/evil", tar.TypeReg, ""), want: workspace.ErrUnsafeEntry},
		{name: "file becomes a symlink", final: hostile("a.py", tar.TypeSymlink, "b.py"), want: ErrUnsupported},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			parent := t.TempDir()
			user := filepath.Join(parent, "ws")
			if err := os.MkdirAll(user, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(user, "a.py"), []byte("x\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := Apply(context.Background(), user, bytes.NewReader(orig), bytes.NewReader(tc.final))
			if !errors.Is(err, tc.want) {
				t.Fatalf("Apply error = %v, want %v", err, tc.want)
			}
			if _, err := os.Stat(filepath.Join(parent, "escaped.py")); err == nil {
				t.Error("a file was written outside the directory")
			}
			if b, _ := os.ReadFile(filepath.Join(user, "a.py")); string(b) != "x\n" {
				t.Errorf("a.py changed to %q", b)
			}
		})
	}
}
