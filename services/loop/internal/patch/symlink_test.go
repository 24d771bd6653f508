package patch

import (
	"archive/tar"
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// rawTar writes a tar by hand, so that it can hold what workspace.Pack
// would never produce (links leaving the root).
func rawTar(t *testing.T, entries []tar.Header, contents map[string]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, h := range entries {
		h := h
		if h.Typeflag == tar.TypeReg {
			h.Size = int64(len(contents[h.Name]))
		}
		must(t, tw.WriteHeader(&h))
		if h.Typeflag == tar.TypeReg {
			_, err := tw.Write([]byte(contents[h.Name]))
			must(t, err)
		}
	}
	must(t, tw.Close())
	return buf.Bytes()
}

// TestSymlinkAttacks is ADVERSARIAL row 18: a patch that adds a symlink to
// a host file and writes through it, or writes through a symlink already
// in the snapshot, is refused and the host file is never written.
func TestSymlinkAttacks(t *testing.T) {
	hostDir := t.TempDir()
	host := filepath.Join(hostDir, "passwd")
	const hostContent = "root:x:0:0:root:/root:/bin/bash\n"
	must(t, os.WriteFile(host, []byte(hostContent), 0o644))

	inRoot := snapshot(t, tree{"real.txt": "real\n", "x": "-> real.txt", "sub/f.txt": "f\n", "d": "-> sub"})
	if got := readTar(t, bytes.NewReader(inRoot)); got["x"] != "-> real.txt" || got["d"] != "-> sub" {
		t.Fatalf("setup: symlinks not packed: %v", got)
	}
	outward := rawTar(t, []tar.Header{
		{Name: "a.txt", Typeflag: tar.TypeReg, Mode: 0o644},
		{Name: "x", Typeflag: tar.TypeSymlink, Linkname: host, Mode: 0o777},
	}, map[string]string{"a.txt": "a\n"})
	climbing := rawTar(t, []tar.Header{
		{Name: "x", Typeflag: tar.TypeSymlink, Linkname: "../../../../../../../../.." + host, Mode: 0o777},
	}, nil)

	cases := []struct {
		name  string
		snap  []byte
		reply string
		rule  Rule  // for refusals
		want  error // for other errors
	}{
		{"patch adds x -> host file and writes through it", inRoot,
			"diff --git a/y b/y\nnew file mode 120000\n--- /dev/null\n+++ b/y\n@@ -0,0 +1 @@\n+" + host + "\n\\ No newline at end of file\n" +
				"diff --git a/y/passwd b/y/passwd\n--- a/y/passwd\n+++ b/y/passwd\n@@ -1 +1 @@\n-root:x:0:0:root:/root:/bin/bash\n+pwned::0:0::/:/bin/sh\n",
			RuleSymlink, nil},
		{"patch turns a file into a symlink", inRoot,
			"diff --git a/real.txt b/real.txt\nold mode 100644\nnew mode 120000\n", RuleSymlink, nil},
		{"write through in-root file symlink", inRoot,
			"--- a/x\n+++ b/x\n@@ -1 +1 @@\n-real\n+changed\n", RuleSymlink, nil},
		{"envelope update of a symlink", inRoot,
			"*** Begin Patch\n*** Update File: x\n@@\n-real\n+changed\n*** End Patch\n", RuleSymlink, nil},
		{"add through a symlinked directory", inRoot,
			"*** Begin Patch\n*** Add File: d/new.txt\n+new\n*** End Patch\n", RuleSymlink, nil},
		{"delete a symlink", inRoot,
			"*** Begin Patch\n*** Delete File: x\n*** End Patch\n", RuleSymlink, nil},
		{"rename onto a symlink's directory", inRoot,
			"*** Begin Patch\n*** Update File: real.txt\n*** Move to: d/real.txt\n*** End Patch\n", RuleSymlink, nil},
		{"snapshot holds x -> host file", outward,
			"--- a/x\n+++ b/x\n@@ -1 +1 @@\n-root:x:0:0:root:/root:/bin/bash\n+pwned::0:0::/:/bin/sh\n", "", ErrSnapshot},
		{"snapshot holds a climbing link", climbing,
			"*** Begin Patch\n*** Add File: x/passwd\n+pwned\n*** End Patch\n", "", ErrSnapshot},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := Parse(c.reply)
			must(t, err)
			err = applyParsedErr(t, c.snap, p, Guardrails{})
			if c.want != nil {
				if !errors.Is(err, c.want) {
					t.Fatalf("error %v, want %v", err, c.want)
				}
			} else {
				refusal(t, err, c.rule)
			}
			if b, err := os.ReadFile(host); err != nil || string(b) != hostContent {
				t.Fatalf("host file changed: %q, %v", b, err)
			}
		})
	}
}

// TestWriteFileNeverFollowsSymlinks checks the last line of defence: even
// if a symlink appeared after the checks, writeFile re-checks each parent
// with Lstat and opens with O_NOFOLLOW, so nothing is written through it.
func TestWriteFileNeverFollowsSymlinks(t *testing.T) {
	hostDir := t.TempDir()
	host := filepath.Join(hostDir, "passwd")
	must(t, os.WriteFile(host, []byte("host\n"), 0o644))
	dir := t.TempDir()
	must(t, os.Mkdir(filepath.Join(dir, "sub"), 0o755))
	must(t, os.Symlink("sub", filepath.Join(dir, "d")))
	must(t, os.Symlink("sub/f", filepath.Join(dir, "f")))
	must(t, os.Symlink(host, filepath.Join(dir, "h")))
	root, err := os.OpenRoot(dir)
	must(t, err)
	defer root.Close()
	for _, name := range []string{"d/new.txt", "f", "h", "d/x/y.txt"} {
		err := writeFile(root, name, []byte("pwned\n"), ModeFile)
		refusal(t, err, RuleSymlink)
	}
	if entries, _ := os.ReadDir(filepath.Join(dir, "sub")); len(entries) != 0 {
		t.Errorf("written through a symlink: %v", entries)
	}
	if b, _ := os.ReadFile(host); string(b) != "host\n" {
		t.Errorf("host file changed: %q", b)
	}
}
