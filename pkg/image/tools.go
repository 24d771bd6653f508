package image

import (
	"slices"
	"sync"

	"github.com/greenlight-dev/greenlight/pkg/toolchain/packs"
)

// baseTools are in every offline image (images/common: Debian minbase,
// make, git, less, ps, file, the archivers, patch, xxd, hexdump, bc, jq,
// time, CA certificates).
var baseTools = []string{"sh", "bash", "make", "env", "cat", "grep", "sed", "awk", "find", "tar", "gzip", "diff", "cmp",
	"git", "less", "ps", "file", "unzip", "zip", "xz", "patch", "xxd", "hexdump", "column", "bc", "jq", "time"}

// offlineTools are the programs each offline image provides beyond
// baseTools, from its recipe (images/<runtime>/packages). Only programs
// that some image lacks matter: they decide where a step must run.
var offlineTools = map[string][]string{
	Generic: {"git", "curl", "jq", "python3"},
	Cpp: {"gcc", "g++", "cc", "c++", "cpp", "clang", "clang++", "ld", "as", "ar", "cmake", "ctest", "cpack",
		"ninja", "pkg-config", "git"},
	Go:     {"go", "gofmt", "gcc", "cc", "ld", "as", "ar", "git"},
	Python: {"python", "python3", "pip", "pip3", "pytest", "tox", "nox", "flake8", "mypy", "pylint", "black", "isort"},
	Node:   {"node", "nodejs", "npm", "npx", "yarn", "yarnpkg", "corepack"},
	Java:   {"java", "javac", "jar", "mvn", "gradle", "git"},
}

// Tools returns the programs the offline image of a runtime provides
// beyond every image's base, and whether the runtime has an offline image
// whose tools are known. A toolchain pack declares its own.
func Tools(runtime string) ([]string, bool) {
	r := Canonical(runtime)
	if t, ok := offlineTools[r]; ok {
		return t, true
	}
	if p, ok := packs.Registry.Lookup(r); ok {
		return append(slices.Clip(p.Spec().Image.Tools), "git"), true
	}
	return nil, false
}

// KnownTool reports whether some offline image provides a program that
// another lacks: a step calling it needs a particular image.
func KnownTool(prog string) bool { return knownTools()[prog] }

// knownTools is every offline image's tools, built once: discovery asks
// for each program of each command.
var knownTools = sync.OnceValue(func() map[string]bool {
	out := map[string]bool{}
	for _, rt := range Defaults().Runtimes() {
		t, _ := Tools(rt)
		for _, p := range t {
			out[p] = true
		}
	}
	return out
})

// Provides reports whether the offline image of runtime has prog.
func Provides(runtime, prog string) bool {
	if slices.Contains(baseTools, prog) {
		return true
	}
	t, _ := Tools(runtime)
	return slices.Contains(t, prog)
}

// RuntimeFor returns the runtime whose offline image provides every one of
// progs, preferring prefer (the step's own), then the order of Defaults'
// runtimes; false when no single image has them all.
func RuntimeFor(progs []string, prefer string) (string, bool) {
	has := func(rt string) bool {
		for _, p := range progs {
			if !Provides(rt, p) {
				return false
			}
		}
		return true
	}
	if has(Canonical(prefer)) {
		return Canonical(prefer), true
	}
	for _, rt := range Defaults().Runtimes() {
		if has(rt) {
			return rt, true
		}
	}
	return "", false
}
