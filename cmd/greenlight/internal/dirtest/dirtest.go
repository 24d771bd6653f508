// Package dirtest holds directory helpers for tests that must show an
// operation changed nothing at all: a digest of a whole tree (a file
// written, created or removed, a mode, a temporary file left behind all
// change it) and a way to make a directory unwritable.
package dirtest

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Digest returns the hex sha256 over every path, mode and regular file's
// content under dir, in lexical walk order; a walk error fails the test.
func Digest(t testing.TB, dir string) string {
	t.Helper()
	d, err := digest(dir)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func digest(dir string) (string, error) {
	h := sha256.New()
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		fmt.Fprintf(h, "%s %v\n", rel, fi.Mode())
		if !fi.Mode().IsRegular() {
			return nil
		}
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		_, err = io.Copy(h, f)
		return err
	})
	if err != nil {
		return "", fmt.Errorf("digest %s: %w", dir, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// Lock makes dir unwritable for this process and its children, undone at
// cleanup: mode 0555 for a normal user, `chattr +i` for root (which ignores
// modes); the test is skipped when root cannot set the flag.
func Lock(t testing.TB, dir string) {
	t.Helper()
	if os.Geteuid() != 0 {
		if err := os.Chmod(dir, 0o555); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = os.Chmod(dir, 0o755) })
		return
	}
	if out, err := exec.Command("chattr", "+i", dir).CombinedOutput(); err != nil {
		t.Skipf("root, and chattr +i does not work here: %v %s", err, out)
	}
	t.Cleanup(func() { _ = exec.Command("chattr", "-i", dir).Run() })
}
