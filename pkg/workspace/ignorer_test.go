package workspace

import "testing"

func TestIgnorerFollowsThePackRules(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		".gitignore":               "*.log\nout/\n!keep.log\n",
		"src/.gitignore":           "gen/\n",
		"src/a.go":                 "package a\n",
		"src/gen/x.go":             "package gen\n",
		"other/gen/y.go":           "package gen\n",
		"node_modules/dep/i.js":    "x",
		"web/package.json":         "{}",
		"web/dist/app.js":          "x",
		"tools/dist/notes.txt":     "dist is a source directory here: no manifest next to it",
		".venv/pyvenv.cfg":         "home = /usr\n",
		"keep.log":                 "kept by a negation",
		"run.log":                  "ignored",
		"out/bin":                  "ignored directory",
		".git/HEAD":                "ref: refs/heads/main\n",
		"pkg/.git":                 "gitdir: elsewhere\n",
		"pkg/mod.go":               "package pkg\n",
		"src/deep/gen/not-ignored": "gen/ is ignored below src/ only; this is src/deep/gen, matched too",
	})
	ig := NewIgnorer(dir)
	tests := []struct {
		rel   string
		isDir bool
		want  bool
	}{
		{"src/a.go", false, false},
		{"src/gen/x.go", false, true},
		{"other/gen/y.go", false, false},
		{"src/deep/gen/not-ignored", false, true},
		{"node_modules/dep/i.js", false, true},
		{"web/dist/app.js", false, true},
		{"tools/dist/notes.txt", false, false},
		{".venv/pyvenv.cfg", false, true},
		{"keep.log", false, false},
		{"run.log", false, true},
		{"out", true, true},
		{"out/bin", false, true},
		{".git/HEAD", false, true},
		{"pkg/.git", false, true},
		{"pkg/mod.go", false, false},
		{".", true, false},
		{"../outside", false, true},
	}
	for _, tc := range tests {
		if got := ig.Ignored(tc.rel, tc.isDir); got != tc.want {
			t.Errorf("Ignored(%q, %v) = %v, want %v", tc.rel, tc.isDir, got, tc.want)
		}
	}
}
