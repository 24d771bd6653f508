package snapshot

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/greenlight-dev/greenlight/pkg/blob"
	"github.com/greenlight-dev/greenlight/pkg/workspace"
)

// writeFiles creates files (path → content) under dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestPackRefusesBadWorkspaces(t *testing.T) {
	tmp := t.TempDir()
	file := filepath.Join(tmp, "file.txt")
	writeFiles(t, tmp, map[string]string{"file.txt": "x"})
	big := filepath.Join(tmp, "big")
	writeFiles(t, big, map[string]string{"small.txt": "hello"})
	f, err := os.Create(filepath.Join(big, "sparse.bin"))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(2 << 30); err != nil { // 2 GiB, sparse: costs no disk
		t.Fatal(err)
	}
	f.Close()

	tests := []struct {
		name     string
		dir      string
		maxBytes int64
		want     error
		wantText string
	}{
		{name: "missing", dir: filepath.Join(tmp, "nope"), want: ErrNoDir, wantText: "no such directory"},
		{name: "a file", dir: file, want: ErrNotDir, wantText: "not a directory"},
		{name: "2 GiB over the default cap", dir: big, want: workspace.ErrTooLarge, wantText: "sparse.bin"},
		{name: "over a small cap", dir: big, maxBytes: 1 << 20, want: workspace.ErrTooLarge, wantText: "sparse.bin"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			before := tempSnapshots(t)
			p, err := Pack(context.Background(), tc.dir, tc.maxBytes, "")
			if !errors.Is(err, tc.want) {
				t.Fatalf("Pack error = %v, want %v", err, tc.want)
			}
			if p != nil {
				t.Error("Pack returned a snapshot with an error")
			}
			if msg := err.Error(); !strings.Contains(msg, tc.wantText) || strings.Contains(msg, "\n") {
				t.Errorf("error %q: want one line naming %q", msg, tc.wantText)
			}
			if after := tempSnapshots(t); after != before {
				t.Errorf("a temporary snapshot was left behind (%d before, %d after)", before, after)
			}
		})
	}
}

// tempSnapshots counts this package's temp files in the temp dir.
func tempSnapshots(t *testing.T) int {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(os.TempDir(), "greenlight-snapshot-*.tar"))
	if err != nil {
		t.Fatal(err)
	}
	return len(m)
}

func TestPackAndUploadIsDeterministic(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"a.py": "print(1)\n", "pkg/b.py": "x = 2\n", "node_modules/dep/index.js": "junk"})
	store, err := blob.NewStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	p1, err := Pack(ctx, dir, 0, "")
	if err != nil {
		t.Fatal(err)
	}
	defer p1.Remove()
	p2, err := Pack(ctx, dir, 0, "")
	if err != nil {
		t.Fatal(err)
	}
	p2.Remove()
	if p1.Digest != p2.Digest {
		t.Errorf("same tree, different digests: %s vs %s", p1.Digest, p2.Digest)
	}
	if p1.Stats.Files != 2 {
		t.Errorf("packed %d files, want 2 (node_modules is left out)", p1.Stats.Files)
	}
	if err := p1.Upload(ctx, store); err != nil {
		t.Fatal(err)
	}
	if _, found, err := store.Stat(ctx, p1.Digest); err != nil || !found {
		t.Errorf("uploaded snapshot not in the store: found=%v err=%v", found, err)
	}
	if _, err := os.Stat(p2.Path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Remove left %s behind", p2.Path)
	}
}
