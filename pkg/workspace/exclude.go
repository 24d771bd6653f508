package workspace

import (
	"bufio"
	"bytes"
	"os"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"

	"github.com/greenlight-dev/greenlight/pkg/toolchain/packs"
)

// alwaysExcluded are directory names never packed outside git: VCS
// metadata, dependency trees, caches and virtualenvs that are large,
// machine-specific and recreated by the install step.
var alwaysExcluded = map[string]string{
	".git":          "git metadata",
	"node_modules":  "npm dependencies",
	".venv":         "Python virtualenv",
	"venv":          "Python virtualenv",
	"__pycache__":   "Python bytecode cache",
	".pytest_cache": "pytest cache",
	".mypy_cache":   "mypy cache",
	".tox":          "tox environments",
	".next":         "Next.js build output",
	".gradle":       "Gradle cache",
}

// buildOutputs are directory names excluded only when their parent holds a
// manifest of a tool that writes them there: "build" and "dist" are also
// common names for source directories (a Go package named build, a Python
// package's src/build), which must not vanish silently.
var buildOutputs = map[string][]string{
	"target": {"pom.xml", "build.sbt"},
	"dist":   {"package.json", "pyproject.toml", "setup.py", "setup.cfg"},
	"build": {"package.json", "pyproject.toml", "setup.py", "setup.cfg", "build.gradle",
		"build.gradle.kts", "settings.gradle", "settings.gradle.kts", "CMakeLists.txt"},
}

// markerFiles mark a directory as generated whatever its name.
var markerFiles = map[string]string{
	"pyvenv.cfg":     "Python virtualenv",
	"CACHEDIR.TAG":   "cache directory (CACHEDIR.TAG)",
	"CMakeCache.txt": "CMake build directory",
}

// defaultExcludeReason says why the directory abs (named name, inside
// parent) is left out of a non-git pack, or "" to keep it.
func defaultExcludeReason(parent, name, abs string) string {
	if reason, ok := alwaysExcluded[name]; ok {
		return reason
	}
	for marker, reason := range markerFiles {
		if exists(abs + string(os.PathSeparator) + marker) {
			return reason
		}
	}
	for _, manifest := range outputManifests(name) {
		if exists(parent + string(os.PathSeparator) + manifest) {
			return "build output (next to " + manifest + ")"
		}
	}
	return ""
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

// ignoreSet matches slash-separated relative paths against gitignore
// patterns, using go-git's implementation of gitignore semantics (anchoring,
// "**", directory-only patterns, negation, per-directory scope). A pattern
// read from dir/.gitignore only applies below dir, and later patterns take
// precedence, as in git.
type ignoreSet struct {
	patterns []gitignore.Pattern
	matcher  gitignore.Matcher
}

// add parses gitignore-syntax lines scoped to the directory domain (its
// path components; nil for the root).
func (s *ignoreSet) add(data []byte, domain []string) {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := strings.TrimSuffix(sc.Text(), "\r")
		if line == "" || strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
			continue
		}
		s.patterns = append(s.patterns, gitignore.ParsePattern(line, domain))
	}
	s.matcher = gitignore.NewMatcher(s.patterns)
}

// addPatterns adds root-scoped patterns given as strings.
func (s *ignoreSet) addPatterns(patterns []string) {
	s.add([]byte(strings.Join(patterns, "\n")), nil)
}

// match reports whether the path (components) is ignored.
func (s *ignoreSet) match(parts []string, isDir bool) bool {
	return s.matcher != nil && s.matcher.Match(parts, isDir)
}

// matchAny reports whether the path or one of its parent directories is
// ignored, for listings (git's) that name files without their directories.
func (s *ignoreSet) matchAny(rel string, isDir bool) bool {
	if s.matcher == nil {
		return false
	}
	parts := strings.Split(rel, "/")
	for i := 1; i < len(parts); i++ {
		if s.matcher.Match(parts[:i], true) {
			return true
		}
	}
	return s.matcher.Match(parts, isDir)
}

// outputManifests lists the manifests that make a directory named name a
// build output: buildOutputs' and the toolchain packs' (a pack's OutputDirs
// next to its Manifests).
func outputManifests(name string) []string {
	out := buildOutputs[name]
	for _, p := range packs.Registry.All() {
		if s := p.Spec(); slices.Contains(s.OutputDirs, name) {
			out = append(slices.Clip(out), s.Manifests...)
		}
	}
	return out
}
