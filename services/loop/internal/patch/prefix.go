package patch

import (
	"fmt"
	"os"
	"strings"
)

// maxStrip is the most leading path components stripPrefix removes.
const maxStrip = 3

// stripPrefix finds the `patch -pN` a diff needs when its paths carry
// directories the workspace does not have — `diff -ru proj.orig proj`
// names "proj/src/x.py" for the workspace's "src/x.py" — and strips them
// from every file of p. It changes nothing when every file the patch
// reads exists as named, or when no single strip count makes them all
// exist (the apply step then reports the missing file as it is named).
func stripPrefix(root *os.Root, p *Patch) {
	if allExist(root, p, 0) {
		return
	}
	for n := 1; n <= maxStrip; n++ {
		if allExist(root, p, n) {
			for _, f := range p.Files {
				f.OldPath, f.NewPath = strip(f.OldPath, n), strip(f.NewPath, n)
			}
			return
		}
	}
}

// allExist reports whether every file p reads (modified, deleted or
// renamed) exists after stripping n components, and every path keeps at
// least one component.
func allExist(root *os.Root, p *Patch, n int) bool {
	read := 0
	for _, f := range p.Files {
		if (f.OldPath != "" && strip(f.OldPath, n) == "") || (f.NewPath != "" && strip(f.NewPath, n) == "") {
			return false
		}
		if f.Op == OpAdd {
			continue
		}
		read++
		if _, err := root.Lstat(strip(f.OldPath, n)); err != nil {
			return false
		}
	}
	return read > 0
}

// strip removes n leading components of a slash-separated path ("" when
// it has no more than n).
func strip(p string, n int) string {
	for i := 0; i < n && p != ""; i++ {
		_, rest, ok := strings.Cut(p, "/")
		if !ok {
			return ""
		}
		p = rest
	}
	return p
}

// stripTreePrefix is stripPrefix on an unpacked tree.
func stripTreePrefix(tree string, p *Patch) error {
	root, err := os.OpenRoot(tree)
	if err != nil {
		return fmt.Errorf("apply patch: %w", err)
	}
	defer root.Close()
	stripPrefix(root, p)
	return nil
}
