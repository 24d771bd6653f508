package workspace

import (
	"slices"
	"testing"
)

// TestPackVerbatimKeepsEverything checks that Verbatim packs the files a walk
// would leave out (ignored, build outputs, dependency dirs), so a re-packed
// unpacked snapshot loses nothing, while Exclude patterns still apply.
func TestPackVerbatimKeepsEverything(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		".gitignore":          "secret.txt\n",
		"secret.txt":          "tracked but ignored",
		"package.json":        "{}",
		"build/out.js":        "committed build output",
		"node_modules/x/a.js": "vendored",
		"__pycache__/m.pyc":   "cache",
		"src/main.go":         "package main",
		"skip/me.txt":         "excluded by pattern",
	})
	walked := tarNames(t, mustPack(t, dir, PackOptions{NoGit: true}))
	verbatim := tarNames(t, mustPack(t, dir, PackOptions{Verbatim: true, Exclude: []string{"skip/"}}))
	for _, name := range []string{"secret.txt", "build/out.js", "node_modules/x/a.js", "__pycache__/m.pyc"} {
		if slices.Contains(walked, name) {
			t.Fatalf("walk mode should leave out %s (test premise)", name)
		}
		if !slices.Contains(verbatim, name) {
			t.Errorf("verbatim pack lacks %s; got %v", name, verbatim)
		}
	}
	if slices.Contains(verbatim, "skip/me.txt") {
		t.Errorf("verbatim pack kept a file matching an Exclude pattern")
	}
}

func mustPack(t *testing.T, dir string, opts PackOptions) []byte {
	t.Helper()
	data, _, _ := pack(t, dir, opts)
	return data
}
