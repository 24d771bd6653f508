package workspace

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestUnpackRoundTrip(t *testing.T) {
	src := t.TempDir()
	makeSample(t, src, 0o644, 0o022)
	data, d1, _ := pack(t, src, PackOptions{})

	dst := filepath.Join(t.TempDir(), "copy")
	st, err := Unpack(context.Background(), bytes.NewReader(data), dst, Limits{})
	mustDo(t, err)
	if st.Files != 6 || st.Symlinks != 1 || st.TarBytes != int64(len(data)) {
		t.Fatalf("stats = %+v", st)
	}
	if _, d2, _ := pack(t, dst, PackOptions{}); d2 != d1 {
		t.Fatalf("repacked copy digest %v, want %v", d2, d1)
	}
	info, err := os.Stat(filepath.Join(dst, "scripts/run.sh"))
	mustDo(t, err)
	if info.Mode().Perm() != 0o755 {
		t.Fatalf("executable mode lost: %v", info.Mode())
	}
	target, err := os.Readlink(filepath.Join(dst, "src/link.go"))
	mustDo(t, err)
	if target != "lib/util.go" {
		t.Fatalf("symlink target = %q", target)
	}
}

func TestUnpackHardLinkAndOverwrite(t *testing.T) {
	data, _ := buildTar(t, file("a", "first"), file("a", "second"), hardlink("h", "a"),
		symlink("s", "a"), symlink("s", "h"))
	dst := t.TempDir()
	_, err := Unpack(context.Background(), bytes.NewReader(data), dst, Limits{})
	mustDo(t, err)
	a, err := os.Stat(filepath.Join(dst, "a"))
	mustDo(t, err)
	h, err := os.Stat(filepath.Join(dst, "h"))
	mustDo(t, err)
	if !os.SameFile(a, h) {
		t.Fatal("hard link is not the same file")
	}
	if got, _ := os.ReadFile(filepath.Join(dst, "a")); string(got) != "second" {
		t.Fatalf("a = %q, want the later entry", got)
	}
	if target, _ := os.Readlink(filepath.Join(dst, "s")); target != "h" {
		t.Fatalf("s -> %q, want the later entry", target)
	}
}

func TestUnpackNeverWritesThroughSymlinks(t *testing.T) {
	cases := []struct {
		name    string
		prepare func(t *testing.T, dst, outside string)
		entries []tentry
		entry   string
	}{
		{
			name:    "symlink in the archive, then a file through it",
			entries: []tentry{dirEntry("sub/"), symlink("a", "sub"), file("a/passwd", "evil")},
			entry:   "a/passwd",
		},
		{
			name:    "symlink out of the archive's root, then a file through it",
			entries: []tentry{symlink("a", "../outside"), file("a/passwd", "evil")},
			entry:   "a",
		},
		{
			name: "pre-existing symlink as a parent",
			prepare: func(t *testing.T, dst, outside string) {
				mustDo(t, os.Symlink(outside, filepath.Join(dst, "a")))
			},
			entries: []tentry{file("a/passwd", "evil")},
			entry:   "a/passwd",
		},
		{
			name: "pre-existing symlink as the file itself",
			prepare: func(t *testing.T, dst, outside string) {
				mustDo(t, os.Symlink(filepath.Join(outside, "passwd"), filepath.Join(dst, "passwd")))
			},
			entries: []tentry{file("ok", "fine"), file("passwd", "evil")},
			entry:   "passwd",
		},
		{
			name: "pre-existing symlink as a directory entry",
			prepare: func(t *testing.T, dst, outside string) {
				mustDo(t, os.Symlink(outside, filepath.Join(dst, "d")))
			},
			entries: []tentry{dirEntry("d/"), file("d/passwd", "evil")},
			entry:   "d/",
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			base := t.TempDir()
			dst, outside := filepath.Join(base, "dst"), filepath.Join(base, "outside")
			mustDo(t, os.MkdirAll(dst, 0o755))
			mustDo(t, os.MkdirAll(outside, 0o755))
			mustDo(t, os.WriteFile(filepath.Join(outside, "passwd"), []byte("original"), 0o644))
			if tc.prepare != nil {
				tc.prepare(t, dst, outside)
			}
			data, _ := buildTar(t, tc.entries...)
			_, err := Unpack(context.Background(), bytes.NewReader(data), dst, Limits{})
			var ee *EntryError
			if !errors.Is(err, ErrUnsafeEntry) || !errors.As(err, &ee) || ee.Name != tc.entry {
				t.Fatalf("error = %v, want ErrUnsafeEntry naming %q", err, tc.entry)
			}
			if got, _ := os.ReadFile(filepath.Join(outside, "passwd")); string(got) != "original" {
				t.Fatalf("file outside the destination changed: %q", got)
			}
			if _, err := os.Lstat(filepath.Join(dst, "sub", "passwd")); err == nil {
				t.Fatal("a file was written through the symlink")
			}
		})
	}
}

func TestUnpackStopsAtBadEntry(t *testing.T) {
	data, _ := buildTar(t, file("good", "1"), special("dev", 'c'), file("after", "2"))
	dst := t.TempDir()
	_, err := Unpack(context.Background(), bytes.NewReader(data), dst, Limits{})
	if !errors.Is(err, ErrUnsafeEntry) || !strings.Contains(err.Error(), `"dev"`) {
		t.Fatalf("error = %v", err)
	}
	if _, err := os.Stat(filepath.Join(dst, "good")); err != nil {
		t.Fatalf("entry before the bad one missing: %v", err)
	}
	for _, name := range []string{"dev", "after"} {
		if _, err := os.Lstat(filepath.Join(dst, name)); err == nil {
			t.Fatalf("%s was extracted", name)
		}
	}
}
