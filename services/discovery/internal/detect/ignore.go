package detect

import "strings"

// ignoredDirs never hold subprojects of their own: installed dependencies,
// virtualenvs, build output, caches, and Go-style testdata (fixtures of the
// project's own tests, which would otherwise look like nested projects).
var ignoredDirs = map[string]bool{
	"node_modules": true, "bower_components": true, "vendor": true, "venv": true,
	"__pycache__": true, "site-packages": true, "target": true, "dist": true,
	"testdata": true, "coverage": true, "__snapshots__": true,
}

// Ignored reports whether a workspace path lies in a directory detection
// skips: one of ignoredDirs or any dot-directory (.git, .venv, .tox, .next,
// .github, ...). Files at any level whose own name starts with a dot
// (.nvmrc) are not ignored.
func Ignored(name string) bool {
	dirs := strings.Split(name, "/")
	for _, d := range dirs[:len(dirs)-1] {
		if ignoredDirs[d] || strings.HasPrefix(d, ".") {
			return true
		}
	}
	return false
}

// splitPath returns the directory ("." for the root) and base name.
func splitPath(name string) (dir, base string) {
	i := strings.LastIndexByte(name, '/')
	if i < 0 {
		return ".", name
	}
	return name[:i], name[i+1:]
}

// join joins a subproject root and a relative name.
func join(root, name string) string {
	if root == "." || root == "" {
		return name
	}
	return root + "/" + name
}

// within reports whether name lies inside dir ("." contains everything).
func within(dir, name string) bool {
	return dir == "." || name == dir || strings.HasPrefix(name, dir+"/")
}
