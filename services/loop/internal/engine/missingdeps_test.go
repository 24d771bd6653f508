package engine

import (
	"strings"
	"testing"
	"testing/fstest"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// Tails as the real steps print them (attrs and python-semver offline).
const (
	fallbackTail = "greenlight: the package index is unreachable: pip-install could not install -e '.[tests]'\n" +
		"No matching distribution found for hypothesis\n" +
		"greenlight: project not installed (build backend hatchling.build unavailable offline, or the image's version rejects the project's metadata): tests run from the checkout with PYTHONPATH=src\n"
	conftestTail = "ImportError while loading conftest '/workspace/tests/conftest.py'.\n" +
		"tests/conftest.py:5: in <module>\n    from hypothesis import HealthCheck, settings\n" +
		"E   ModuleNotFoundError: No module named 'hypothesis'\n"
	pluginTail = "ERROR: usage: python3 -m pytest [options] [file_or_dir] [file_or_dir] [...]\n" +
		"python3 -m pytest: error: unrecognized arguments: --cov=semver --cov-report=xml\n  inifile: /workspace/setup.cfg\n"
	ownImportTail = "E   ModuleNotFoundError: No module named 'attr._make2'\n"
)

func TestMissingDepsAreTheEnvironments(t *testing.T) {
	install := &glv1.Step{Name: "pip-fallback", Phase: glv1.Phase_PHASE_INSTALL, Network: false}
	test := &glv1.Step{Name: "pytest", Phase: glv1.Phase_PHASE_TEST}
	failed := func(tail string) *glv1.StepResult {
		return &glv1.StepResult{Name: "pytest", Status: glv1.StepStatus_STEP_STATUS_FAILED, ExitCode: 4, Tail: tail}
	}
	tree := fstest.MapFS{"src/attr/__init__.py": {}, "tests/conftest.py": {}}
	offline := indexUnreachable([]*glv1.Step{install, test}, []*glv1.StepResult{{Tail: fallbackTail}, nil})
	if !offline {
		t.Fatal("pip-fallback's marker not seen")
	}
	cases := []struct {
		name        string
		unreachable bool
		step        *glv1.Step
		tail        string
		wantErr     string
	}{
		{"conftest imports an uninstalled package", true, test, conftestTail, "could not import hypothesis"},
		{"option of an uninstalled plugin", true, test, pluginTail, "does not know the option --cov=semver"},
		{"the project's own module stays FAIL", true, test, ownImportTail, ""},
		{"index reachable: stays FAIL", false, test, conftestTail, ""},
		{"advisory step untouched", true, &glv1.Step{Name: "pytest", Phase: glv1.Phase_PHASE_TEST, Optional: true}, conftestTail, ""},
		{"an assertion failure stays FAIL", true, test, "E   assert 1 == 2\n", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := classifyMissingDeps(tc.unreachable, tc.step, failed(tc.tail), tree)
			if tc.wantErr == "" {
				if got.GetStatus() != glv1.StepStatus_STEP_STATUS_FAILED {
					t.Fatalf("status %s (%s), want FAILED", got.GetStatus(), got.GetReason())
				}
				return
			}
			if got.GetStatus() != glv1.StepStatus_STEP_STATUS_ERROR || !strings.HasPrefix(got.GetReason(), "environment: ") || !strings.Contains(got.GetReason(), tc.wantErr) {
				t.Fatalf("status %s reason %q, want ERROR naming %q", got.GetStatus(), got.GetReason(), tc.wantErr)
			}
		})
	}
	if indexUnreachable([]*glv1.Step{install}, []*glv1.StepResult{{Tail: "greenlight: pip-install installed everything\n"}}) {
		t.Error("a complete install reads as an unreachable index")
	}
}
