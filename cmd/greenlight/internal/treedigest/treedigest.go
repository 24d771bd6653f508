// Package treedigest digests a directory tree: every path, type, mode and
// regular file's content. Tests use it to show that an operation changed
// nothing at all (a file written, created or removed, a mode, a temporary
// file left behind all change the digest).
package treedigest

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// Of returns the hex sha256 over the tree under dir, in lexical walk order.
func Of(dir string) (string, error) {
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
