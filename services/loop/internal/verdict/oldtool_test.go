package verdict

import (
	"strings"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// TestTooOldToolIsAnErrorNamingBothVersions checks the other half of rule
// old-toolchain on output captured from the sandbox images (pytest from a
// pluggy checkout; the others from a one-file project declaring version 99
// or 3.99): each refusal is an ERROR naming the tool, the version needed
// and the image's, and a code failure mentioning versions stays a FAIL.
func TestTooOldToolIsAnErrorNamingBothVersions(t *testing.T) {
	cases := []struct {
		name, tail string
		want       []string // in the reason; none: unchanged
	}{
		{"pytest minversion", "ERROR: /workspace/tox.ini: 'minversion' requires pytest-8.0, actual pytest-7.2.1'\n",
			[]string{"requires pytest 8.0", "has 7.2.1"}},
		{"go directive", "go: go.mod requires go >= 1.99 (running go 1.26.8; GOTOOLCHAIN=local)\n",
			[]string{"requires Go 1.99", "has 1.26.8"}},
		{"cmake_minimum_required", "CMake Error at CMakeLists.txt:1 (cmake_minimum_required):\n  CMake 3.99 or higher is required.  You are running version 3.25.1\n\n\n-- Configuring incomplete, errors occurred!\n",
			[]string{"requires CMake 3.99", "has 3.25.1"}},
		{"requires-python", "  Preparing editable metadata (pyproject.toml): finished with status 'done'\nERROR: Package 'x' requires a different Python: 3.11.2 not in '>=3.99'\n",
			[]string{"requires Python >=3.99", "has 3.11.2"}},
		{"npm 10 engine-strict", "npm error code EBADENGINE\nnpm error engine Unsupported engine\nnpm error engine Not compatible with your version of node/npm: x@1.0.0\n" +
			"npm error notsup Not compatible with your version of node/npm: x@1.0.0\nnpm error notsup Required: {\"node\":\">=99\"}\nnpm error notsup Actual:   {\"npm\":\"10.9.9\",\"node\":\"v22.23.3\"}\n",
			[]string{"requires Node.js >=99", "has 22.23.3"}},
		{"npm 9 engine-strict", "npm ERR! notsup Not compatible with your version of node/npm: x@1.0.0\nnpm ERR! notsup Required: {\"node\":\">=99\"}\nnpm ERR! notsup Actual:   {\"npm\":\"9.2.0\"}\n",
			[]string{"requires Node.js >=99", "has an older one"}},
		{"javac --release", "error: release version 99 not supported\nUsage: javac <options> <source files>\nuse --help for a list of possible options\n",
			[]string{"requires the JDK 99"}},
		{"javac -target", "error: invalid target release: 99\nUsage: javac <options> <source files>\n", []string{"requires the JDK 99"}},
		{"a failing test about versions", "FAILED tests/test_version.py::test_parse - AssertionError: 8.0 != 7.2.1\n", nil},
		{"npm engine warning only", "npm warn EBADENGINE Unsupported engine {\nnpm ERR! code ELIFECYCLE\n", nil},
	}
	step := &glv1.Step{Name: "check", Command: "run", Image: "greenlight/sandbox-x:latest"}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := &glv1.StepResult{Status: glv1.StepStatus_STEP_STATUS_FAILED, ExitCode: 1, Tail: c.tail}
			got := oldToolchain(StepInput{Step: step, Result: in})
			if len(c.want) == 0 {
				if got != in {
					t.Fatalf("reclassified: %v", got.GetReason())
				}
				return
			}
			if got.GetStatus() != glv1.StepStatus_STEP_STATUS_ERROR {
				t.Fatalf("status %s, want ERROR", got.GetStatus())
			}
			for _, w := range append(c.want, "greenlight/sandbox-x:latest", "never tested") {
				if !strings.Contains(got.GetReason(), w) {
					t.Errorf("reason %q lacks %q", got.GetReason(), w)
				}
			}
		})
	}
}
