package sandbox

import (
	"slices"
	"strings"
)

// An install step runs the package manager in the workspace: `python -m
// pip` with the working directory first on sys.path runs a pip/__main__.py
// the repository ships instead of pip, and a setuptools/, a
// sitecustomize.py or a .pth file next to it is imported by the
// interpreters the install starts. What such an install leaves in the
// cache paths (a .venv with a planted pytest plugin) was made by the
// repository's code, not by the package manager, so it must never become
// another run's dependencies. greenlight's own steps run pip with -P
// (pylaunch), so the shadow cannot run; the dependency cache does not rely
// on that: a workspace holding such a module at the top of an install
// step's workdir (or of its src/) neither restores nor saves.

// shadowModules are the top-level module names that replace a tool an
// install runs (pip, the build backend and what it imports, venv) or that
// Python imports at start-up, and the test runner's own, which a planted
// tree would reach through the same door.
var shadowModules = map[string]bool{
	"pip": true, "setuptools": true, "pkg_resources": true, "_distutils_hack": true, "distutils": true,
	"wheel": true, "venv": true, "ensurepip": true,
	"pytest": true, "_pytest": true, "pluggy": true,
	"sitecustomize": true, "usercustomize": true,
}

// moduleExts are the endings of a module file Python imports by its name.
var moduleExts = []string{".py", ".pyc", ".so", ".pyd"}

// shadowOf returns what a snapshot entry (workspace-relative, clean) puts
// at the top of workdir wd, or of wd/src, that can replace a tool or hook
// into every interpreter start ("pip/", "sitecustomize.py", "x.pth"); ""
// when nothing.
func shadowOf(name, wd string) string {
	rel := name
	if wd != "." {
		var ok bool
		if rel, ok = strings.CutPrefix(name, wd+"/"); !ok {
			return ""
		}
	}
	if r, ok := strings.CutPrefix(rel, "src/"); ok {
		rel = r
	}
	first, below, isDir := strings.Cut(rel, "/")
	if isDir && below != "" {
		if shadowModules[first] {
			return first + "/"
		}
		return ""
	}
	if strings.HasSuffix(first, ".pth") {
		return first
	}
	for _, ext := range moduleExts {
		if !strings.HasSuffix(first, ext) {
			continue
		}
		// An extension module's name ends at its first dot
		// (pip.cpython-311-x86_64-linux-gnu.so).
		mod, _, _ := strings.Cut(first, ".")
		if shadowModules[mod] {
			return first
		}
	}
	return ""
}

// observeShadow notes an entry that shadows a tool in a cached step's
// workdir.
func (sc *cacheScan) observeShadow(name string) {
	for _, wd := range sc.workdirs {
		if s := shadowOf(name, wd); s != "" {
			if sc.shadows == nil {
				sc.shadows = map[string][]string{}
			}
			if !slices.Contains(sc.shadows[wd], s) {
				sc.shadows[wd] = append(sc.shadows[wd], s)
			}
		}
	}
}

// shadowNote says why the cache is not used for an install in workdir wd
// whose workspace shadows a tool, or "" when it does not.
func (sc *cacheScan) shadowNote(wd string) string {
	found := sc.shadows[wd]
	if len(found) == 0 {
		return ""
	}
	const most = 5
	list := slices.Clone(found)
	slices.Sort(list)
	more := ""
	if len(list) > most {
		more = ", …"
		list = list[:most]
	}
	where := "the workspace"
	if wd != "." {
		where = wd + "/"
	}
	return "dependency cache not used: " + where + " holds " + strings.Join(list, ", ") + more +
		" (named like a tool the install runs or a Python start-up hook, so the install may have run the repository's code instead)"
}
