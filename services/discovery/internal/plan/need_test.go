package plan

import (
	"slices"
	"strings"
	"testing"

	"github.com/greenlight-dev/greenlight/pkg/image"
)

// TestStepsRunWhereTheToolsTheyCallExist plans steps whose commands, or the
// scripts they run, call tools their runtime's image lacks.
func TestStepsRunWhereTheToolsTheyCallExist(t *testing.T) {
	unittest := "#!/bin/sh\nset -e\nfor t in *.c; do\n  gcc -o \"${t%.c}\" \"$t\" ../src/lib.c\n  ./\"${t%.c}\"\ndone\n"
	cases := []struct {
		name, agent string
		files       map[string]string
		want        map[string]string // step → image
		note        string
	}{
		{"a shell step whose script calls gcc runs in the C/C++ image",
			"steps:\n  - name: unit\n    command: cd tests && ./unittest.sh && git diff --exit-code\n    phase: test\n",
			map[string]string{"tests/unittest.sh": unittest, "tests/a.c": "int main(void){return 0;}\n", "src/lib.c": ""},
			map[string]string{"unit": image.OfflineCpp}, `step "unit" calls gcc, which the generic image lacks: it runs in the cpp image`},
		{"bash SCRIPT is followed too",
			"steps:\n  - name: build\n    command: bash scripts/build.sh\n    phase: build\n",
			map[string]string{"scripts/build.sh": "cmake -S . -B out\ncmake --build out\n"},
			map[string]string{"build": image.OfflineCpp}, "calls cmake"},
		{"a plain shell step stays in the generic image",
			"steps:\n  - name: check\n    command: ./check.sh\n    phase: test\n",
			map[string]string{"check.sh": "grep -q ok README\njq . data.json\n", "README": "ok\n"},
			map[string]string{"check": image.OfflineGeneric}, ""},
		{"tools no single image has: the step keeps its image (tool-absent decides at run time)",
			"steps:\n  - name: mixed\n    command: gcc -o x x.c && npm test\n    phase: test\n",
			map[string]string{"x.c": ""},
			map[string]string{"mixed": image.OfflineGeneric}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			files := map[string]string{"greenlight.yaml": tc.agent}
			for k, v := range tc.files {
				files[k] = v
			}
			_, p := planTree(t, files)
			for _, s := range p.Steps {
				if want, ok := tc.want[s.Name]; ok && s.Image != want {
					t.Errorf("step %s image %s, want %s (notes %q)", s.Name, s.Image, want, p.Notes)
				}
			}
			has := slices.ContainsFunc(p.Notes, func(n string) bool { return tc.note != "" && strings.Contains(n, tc.note) })
			if tc.note != "" && !has {
				t.Errorf("no note %q in %q", tc.note, p.Notes)
			}
		})
	}
}
