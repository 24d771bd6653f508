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
	}
	for _, tt := range tests {
		if got := toxEnvList(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("toxEnvList(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
