package detect

import (
	"slices"
	"testing"
)

// TestToxEnvList: generative envlists expand to the names tox runs (never
// "tox -e 311" for "py{310..314}").
func TestToxEnvList(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"py311, lint", []string{"py311", "lint"}},
		{"py{310..314}", []string{"py310", "py311", "py312", "py313", "py314"}},
		{"py3{10..12}-lint", []string{"py310-lint", "py311-lint", "py312-lint"}},
		{"py{38,39}-django{40,41}, docs", []string{"py38-django40", "py38-django41", "py39-django40", "py39-django41", "docs"}},
		{"\n  py{311,312}\n  type\n", []string{"py311", "py312", "type"}},
		{"py{38,39", nil},
		{"pypy3, py{,-cov}", []string{"pypy3", "py", "py-cov"}},
		// tox 4's own range syntax, and a comment line inside the list.
		{"py3{8-10, 11, 13-14}", []string{"py38", "py39", "py310", "py311", "py313", "py314"}},
		{"lint-{ruff,pre-commit},\n 3.1{0-2}-tests,\n # comment\n typing", []string{"lint-ruff", "lint-pre-commit", "3.10-tests", "3.11-tests", "3.12-tests", "typing"}},
	}
	for _, tt := range tests {
		if got := toxEnvList(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("toxEnvList(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestToxDeps: [testenv] deps keep plain requirements only.
func TestToxDeps(t *testing.T) {
	in := "\n pytest\n pytest-cov>=4 # coverage\n py38: mock\n -rrequirements.txt\n {[base]deps}\n # note\n attrs[tests]; python_version >= '3.8'\n"
	want := []string{"pytest", "pytest-cov>=4", "attrs[tests]; python_version >= '3.8'"}
	if got := toxDeps(in); !slices.Equal(got, want) {
		t.Errorf("toxDeps = %q, want %q", got, want)
	}
}
