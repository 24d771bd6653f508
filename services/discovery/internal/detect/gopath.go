package detect

import (
	"bufio"
	"bytes"
	"path"
	"regexp"
	"strings"
)

var (
	// .travis.yml: `go_import_path: github.com/pkg/errors`.
	reTravisImport = regexp.MustCompile(`^go_import_path:\s*["']?([\w.~/-]+?)["']?\s*$`)
	// A canonical import comment: `package errors // import "github.com/pkg/errors"`.
	reImportComment = regexp.MustCompile(`^package\s+\w+\s*//\s*import\s+"([\w.~/-]+)"`)
	// appveyor.yml: `clone_folder: C:\gopath\src\github.com\pkg\errors`.
	reCloneFolder = regexp.MustCompile(`(?i)^clone_folder:\s*["']?.*?[\\/]src[\\/]([\w.~\\/-]+?)["']?\s*$`)
)

// gopathHint reports whether a file may name the import path of GOPATH-era
// code: the retired CI files that set it, and the Go files of the root and
// of its direct subdirectories, whose package clause may carry an import
// comment and whose imports of the project's own packages show its path.
func gopathHint(name string) bool {
	switch name {
	case ".travis.yml", "appveyor.yml", ".appveyor.yml":
		return true
	}
	return strings.Count(name, "/") <= 1 && strings.HasSuffix(name, ".go")
}

// gopathImportPath finds the import path GOPATH-era Go code at the root
// must be built under, from what its maintainers' CI used: Travis's
// go_import_path, a canonical import comment in a root .go file, or an
// AppVeyor clone folder under a GOPATH. It returns the path and where it
// was found, or "" when none says.
func gopathImportPath(v *view) (importPath, source string) {
	for _, f := range []string{".travis.yml", "appveyor.yml", ".appveyor.yml"} {
		data, err := v.read(f)
		if err != nil {
			continue
		}
		re := reCloneFolder
		if f == ".travis.yml" {
			re = reTravisImport
		}
		if p := firstMatch(data, re); p != "" {
			key := "clone_folder"
			if f == ".travis.yml" {
				key = "go_import_path"
			}
			return strings.ReplaceAll(p, `\`, "/"), f + "'s " + key
		}
	}
	for _, f := range v.files {
		if path.Dir(f) != "." || !strings.HasSuffix(f, ".go") || strings.HasSuffix(f, "_test.go") {
			continue
		}
		data, err := v.read(f)
		if err != nil {
			continue
		}
		if p := firstMatch(data, reImportComment); p != "" {
			return p, "the import comment in " + f
		}
	}
	if p, f := ownImportPath(v); p != "" {
		return p, "the imports of its own packages (" + f + ")"
	}
	return "", ""
}

// firstMatch returns the first submatch of re on a line of data.
func firstMatch(data []byte, re *regexp.Regexp) string {
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		if m := re.FindStringSubmatch(strings.TrimSpace(sc.Text())); m != nil && validImportPath(m[1]) {
			return m[1]
		}
	}
	return ""
}

// validImportPath accepts a host-qualified path without "." or ".."
// elements (it becomes a directory the sandbox creates).
func validImportPath(p string) bool {
	p = strings.ReplaceAll(p, `\`, "/")
	if !strings.Contains(p, "/") || strings.HasPrefix(p, "/") {
		return false
	}
	for _, e := range strings.Split(p, "/") {
		if e == "" || e == "." || e == ".." {
			return false
		}
	}
	return strings.Contains(strings.Split(p, "/")[0], ".")
}
