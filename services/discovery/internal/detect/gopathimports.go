package detect

import (
	"bufio"
	"bytes"
	"path"
	"regexp"
	"strings"
)

var (
	// `package foo_test`: an external test, which imports the package
	// under test by its import path.
	reExternalTest = regexp.MustCompile(`^package\s+(\w+)_test\b`)
	// Decorations of a repository name around its package name: go-foo,
	// foo-go, foo.go, foo.v2.
	reRepoDecor = regexp.MustCompile(`^go-|[-.]go$|\.v\d+$`)
	// An import spec: `"github.com/o/r/sub"` or `x "github.com/o/r"`.
	reImportSpec = regexp.MustCompile(`^(?:import\s+)?(?:[\w.]+\s+)?"([\w.~/-]+)"`)
)

// ownImportPath infers the import path of GOPATH-era code from the code
// itself: a file importing "host/owner/repo/sub" where sub is a directory
// of the tree holding Go files says the root is "host/owner/repo", and an
// external test at the root (package x_test) imports the root's own path.
// The path most files agree on wins; "" when none is evident. It also
// returns one file that showed it.
func ownImportPath(v *view) (string, string) {
	goDirs := map[string]bool{}
	for _, f := range v.files {
		if strings.HasSuffix(f, ".go") {
			goDirs[path.Dir(f)] = true
		}
	}
	votes, first := map[string]int{}, map[string]string{}
	for _, f := range v.files {
		if !strings.HasSuffix(f, ".go") || strings.Count(f, "/") > 1 {
			continue
		}
		data, err := v.read(f)
		if err != nil {
			continue
		}
		for _, p := range ownPrefixes(data, path.Dir(f), goDirs) {
			votes[p]++
			if first[p] == "" {
				first[p] = f
			}
		}
	}
	best := ""
	for p, n := range votes {
		if n > votes[best] || n == votes[best] && p < best {
			best = p
		}
	}
	return best, first[best]
}

// ownPrefixes returns the root import paths a file's imports imply.
func ownPrefixes(data []byte, dir string, goDirs map[string]bool) []string {
	var out []string
	pkg, inImports := "", false
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		t := strings.TrimSpace(sc.Text())
		switch {
		case reExternalTest.MatchString(t) && dir == ".":
			pkg = reExternalTest.FindStringSubmatch(t)[1]
		case strings.HasPrefix(t, "import ("):
			inImports = true
		case inImports && t == ")":
			inImports = false
		case inImports || strings.HasPrefix(t, "import "):
			m := reImportSpec.FindStringSubmatch(t)
			if m == nil || !validImportPath(m[1]) || strings.Count(m[1], "/") < 2 {
				continue
			}
			if p := rootOf(m[1], goDirs); p != "" {
				out = append(out, p)
			} else if pkg != "" && reRepoDecor.ReplaceAllString(path.Base(m[1]), "") == pkg {
				out = append(out, m[1]) // the root package, imported by its external test
			}
		case strings.HasPrefix(t, "func ") || strings.HasPrefix(t, "type ") || strings.HasPrefix(t, "var "):
			return out // imports are over
		}
	}
	return out
}

// rootOf returns the root import path when imp ends with a directory of
// the tree that holds Go files ("github.com/o/r/sub/x" with sub/x), else "".
func rootOf(imp string, goDirs map[string]bool) string {
	parts := strings.Split(imp, "/")
	for i := 3; i < len(parts); i++ { // host/owner/repo at least
		if goDirs[strings.Join(parts[i:], "/")] {
			return strings.Join(parts[:i], "/")
		}
	}
	return ""
}
