package capability_test

import (
	"strings"
	"testing"

	"github.com/greenlight-dev/greenlight/services/discovery/internal/capability"
)

// TestNodeStepsRunOnTheNodeTheCIMatrixTests: a package whose engines still
// allow Node 18 runs on the image's Node 22 when no CI job tests 18, and
// stays on 18 when one does.
func TestNodeStepsRunOnTheNodeTheCIMatrixTests(t *testing.T) {
	pkg := `{"name":"x","version":"1.0.0","engines":{"node":"18 || 20 || >=22"},"scripts":{"test":"tap"}}`
	job := func(name, versions string) string {
		return "  " + name + ":\n    runs-on: ubuntu-latest\n    strategy:\n      matrix:\n        node-version: [" + versions + "]\n" +
			"    steps:\n      - uses: actions/setup-node@v4\n      - run: npm test\n"
	}
	for _, tc := range []struct {
		name, jobs string
		modern     bool
	}{
		{"CI tests 20, 22, 24", job("test", "20, 22, 24"), true},
		{"one job tests 18", job("test", "20, 22") + job("legacy", "18"), false},
		{"no CI", "", false},
		{"lts aliases only", job("test", "lts/*, latest"), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := map[string]string{"package.json": pkg, "package-lock.json": "{}", "test/a.js": ""}
			if tc.jobs != "" {
				files[".github/workflows/ci.yml"] = "on: [push]\njobs:\n" + tc.jobs
			}
			c, err := build(t, files, capability.Options{})
			if err != nil {
				t.Fatal(err)
			}
			for _, cmd := range c.Commands {
				if cmd.Name != "npm-test" {
					continue
				}
				if got := strings.HasPrefix(cmd.Env["PATH"], "/opt/node-22/bin"); got != tc.modern {
					t.Fatalf("npm-test PATH %q: Node 22 %t, want %t (notes %q)", cmd.Env["PATH"], got, tc.modern, c.Notes)
				}
				return
			}
			t.Fatalf("no npm-test: %+v", c.Commands)
		})
	}
}
