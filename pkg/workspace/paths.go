package workspace

import (
	"fmt"
	"path"
	"strings"
)

// cleanName checks a tar entry name (or hard-link target) and returns its
// canonical form, the one extractors such as Docker's compute with
// path.Clean. reason is empty when the name is acceptable. The root itself
// is returned as ".".
func cleanName(name string) (clean, reason string) {
	switch {
	case name == "":
		return "", "empty name"
	case strings.IndexByte(name, 0) >= 0:
		return "", "name contains a NUL byte"
	case strings.HasPrefix(name, "/"):
		return "", "absolute path"
	}
	for _, part := range strings.Split(name, "/") {
		if part == ".." {
			return "", "path contains a '..' component"
		}
	}
	return path.Clean(name), ""
}

// depth returns the number of components of a clean, relative path.
func depth(clean string) int {
	if clean == "." {
		return 0
	}
	return strings.Count(clean, "/") + 1
}

// symlinkReason checks that a symlink named link (clean) with the given
// target cannot resolve outside the root, and returns why not, or "".
//
// The rule is deliberately stricter than a lexical path.Clean check: ".."
// components are allowed only as a prefix of the target ("../../lib/x"),
// never after a name. Lexical cleaning is unsound because of links to
// directories: with "p -> ." in the root, "q -> p/.." cleans to "." but the
// kernel resolves it to the root's parent. With ".." only as a prefix, the
// climb happens from the link's own directory, whose ancestors are real
// directories (entries under a symlink are refused), and everything after it
// only descends; any link met while descending obeys the same rule, so by
// induction resolution never leaves the root.
func symlinkReason(link, target string) string {
	switch {
	case target == "":
		return "empty symlink target"
	case strings.IndexByte(target, 0) >= 0:
		return "symlink target contains a NUL byte"
	case strings.HasPrefix(target, "/"):
		return fmt.Sprintf("absolute symlink target %q", target)
	}
	ups, named := 0, false
	for _, part := range strings.Split(target, "/") {
		switch part {
		case "", ".":
		case "..":
			if named {
				return fmt.Sprintf("symlink target %q has '..' after a name and could leave the root through another link", target)
			}
			ups++
		default:
			named = true
		}
	}
	if ups > depth(link)-1 {
		return fmt.Sprintf("symlink target %q resolves outside the root", target)
	}
	return ""
}
