package snapshot_test

import (
	"archive/tar"
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/greenlight-dev/greenlight/services/discovery/internal/snapshot"
)

type entry struct {
	name string
	typ  byte
	body string
	link string
}

func tarOf(t *testing.T, entries ...entry) *bytes.Buffer {
	t.Helper()
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, e := range entries {
		hdr := &tar.Header{Name: e.name, Typeflag: e.typ, Mode: 0o644, Size: int64(len(e.body)), Linkname: e.link}
		if e.typ != tar.TypeReg {
			hdr.Size = 0
		}
		if err := tw.WriteHeader(hdr); err != nil {
			t.Fatal(err)
		}
		if e.typ == tar.TypeReg {
			if _, err := tw.Write([]byte(e.body)); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	return &buf
}

func keepJSON(name string) bool { return strings.HasSuffix(name, ".json") }

func TestFromTar(t *testing.T) {
	big := strings.Repeat("x", 100)
	buf := tarOf(t,
		entry{name: "./", typ: tar.TypeDir},
		entry{name: "./web/", typ: tar.TypeDir},
		entry{name: "./web/package.json", typ: tar.TypeReg, body: `{"name":"w"}`},
		entry{name: "web/index.js", typ: tar.TypeReg, body: "code"},
		entry{name: "big.json", typ: tar.TypeReg, body: big},
		entry{name: "link.json", typ: tar.TypeSymlink, link: "web/package.json"},
		entry{name: ".git/config", typ: tar.TypeReg, body: "[core]"},
		entry{name: "web/package.json", typ: tar.TypeReg, body: `{"name":"again"}`}, // later entry wins
	)
	ix, err := snapshot.FromTar(buf, keepJSON, snapshot.Limits{MaxContentBytes: 50})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := ix.Files(), []string{"big.json", "web/index.js", "web/package.json"}; !slices.Equal(got, want) {
		t.Fatalf("files = %q, want %q", got, want)
	}
	if b, err := ix.ReadFile("web/package.json"); err != nil || string(b) != `{"name":"again"}` {
		t.Fatalf("package.json = %q, %v", b, err)
	}
	for name, want := range map[string]error{
		"web/index.js": snapshot.ErrNotIndexed, "big.json": snapshot.ErrContentTooLarge,
		"missing.json": fs.ErrNotExist, "link.json": fs.ErrNotExist, ".git/config": fs.ErrNotExist,
	} {
		if _, err := ix.ReadFile(name); !errors.Is(err, want) {
			t.Errorf("ReadFile(%q) = %v, want %v", name, err, want)
		}
	}
}

func TestFromTarRefuses(t *testing.T) {
	tests := []struct {
		name string
		in   *bytes.Buffer
		lim  snapshot.Limits
		want error
	}{
		{"absolute path", tarOf(t, entry{name: "/etc/passwd", typ: tar.TypeReg, body: "x"}), snapshot.Limits{}, snapshot.ErrMalformed},
		{"dot-dot", tarOf(t, entry{name: "a/../../x.json", typ: tar.TypeReg, body: "x"}), snapshot.Limits{}, snapshot.ErrMalformed},
		{"not a tar", bytes.NewBufferString(strings.Repeat("garbage!", 200)), snapshot.Limits{}, snapshot.ErrMalformed},
		{"too many files", tarOf(t, entry{name: "a", typ: tar.TypeReg}, entry{name: "b", typ: tar.TypeReg}, entry{name: "c", typ: tar.TypeReg}),
			snapshot.Limits{MaxFiles: 2}, snapshot.ErrTooLarge},
		{"too much marker content", tarOf(t, entry{name: "a.json", typ: tar.TypeReg, body: "0123456789"}, entry{name: "b.json", typ: tar.TypeReg, body: "0123456789"}),
			snapshot.Limits{MaxTotalContentBytes: 15}, snapshot.ErrTooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := snapshot.FromTar(tt.in, keepJSON, tt.lim); !errors.Is(err, tt.want) {
				t.Fatalf("err = %v, want %v", err, tt.want)
			}
		})
	}
}

// TestTarAndDirAgree indexes the same tree both ways.
func TestTarAndDirAgree(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{"go.mod": "module x\n", "a/b/c.json": "{}", "a/b/d.txt": "text", ".git/HEAD": "ref"}
	var entries []entry
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		entries = append(entries, entry{name: name, typ: tar.TypeReg, body: body})
	}
	fromDir, err := snapshot.FromFS(os.DirFS(dir), keepJSON, snapshot.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	fromTar, err := snapshot.FromTar(tarOf(t, entries...), keepJSON, snapshot.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(fromDir.Files(), fromTar.Files()) || len(fromDir.Files()) != 3 {
		t.Fatalf("dir %q vs tar %q", fromDir.Files(), fromTar.Files())
	}
	a, _ := fromDir.ReadFile("a/b/c.json")
	b, _ := fromTar.ReadFile("a/b/c.json")
	if string(a) != "{}" || string(b) != "{}" {
		t.Fatalf("contents %q %q", a, b)
	}
}
