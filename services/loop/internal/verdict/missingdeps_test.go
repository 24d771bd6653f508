package verdict

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
	// The project itself not installed (no build backend offline): its
	// __init__ asks importlib.metadata for its own version.
	metadataTail = "FAILED tests/test_version.py::test_v - importlib.metadata.PackageNotFoundError: No package metadata was found for attrs\n"
	pkgResTail   = "E   pkg_resources.DistributionNotFound: The 'semver' distribution was not found and is required by the application\n"
)

// TestMissingThirdPartyDepsAreAnEnvironmentError checks rule missing-deps:
// with the index unreachable, a required test step stopped at a
// third-party import or an uninstalled plugin's option is an ERROR of the
// environment; the project's own import stays a FAIL.
func TestMissingThirdPartyDepsAreAnEnvironmentError(t *testing.T) {
	install := &glv1.Step{Name: "pip-fallback", Phase: glv1.Phase_PHASE_INSTALL, Network: false}
	test := &glv1.Step{Name: "pytest", Phase: glv1.Phase_PHASE_TEST}
	failed := func(tail string) *glv1.StepResult {
		return &glv1.StepResult{Name: "pytest", Status: glv1.StepStatus_STEP_STATUS_FAILED, ExitCode: 4, Tail: tail}
	}
	tree := fstest.MapFS{"src/attr/__init__.py": {}, "tests/conftest.py": {},
		"pyproject.toml": {Data: []byte("[tool.hatch.build.hooks.vcs]\nversion-file = \"src/attr/_build_meta.py\"\n")}}
	offline := IndexUnreachable([]*glv1.Step{install, test}, []*glv1.StepResult{{Tail: fallbackTail}, nil})
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
		{"a generated version module of the project (urllib3._version)", true, test,
			"E   ModuleNotFoundError: No module named 'attr._version'\n", "which is not in the tree: the project's build backend writes it"},
		{"a generated module, index reachable: stays FAIL", false, test, "E   ModuleNotFoundError: No module named 'attr._version'\n", ""},
		{"a module the build config says it writes", true, test,
			"E   ModuleNotFoundError: No module named 'attr._build_meta'\n", "which is not in the tree"},
		{"the project's metadata, never installed", true, test, metadataTail, "metadata of attrs, which could not be installed"},
		{"pkg_resources asks for an uninstalled distribution", true, test, pkgResTail, "metadata of semver"},
		{"metadata missing but the index was reachable: stays FAIL", false, test, metadataTail, ""},
		{"index reachable: stays FAIL", false, test, conftestTail, ""},
		{"advisory step untouched", true, &glv1.Step{Name: "pytest", Phase: glv1.Phase_PHASE_TEST, Optional: true}, conftestTail, ""},
		{"an assertion failure stays FAIL", true, test, "E   assert 1 == 2\n", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := missingDeps(StepInput{Step: tc.step, Result: failed(tc.tail), IndexUnreachable: tc.unreachable, Tree: tree})
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
	if IndexUnreachable([]*glv1.Step{install}, []*glv1.StepResult{{Tail: "greenlight: pip-install installed everything\n"}}) {
		t.Error("a complete install reads as an unreachable index")
	}
}

// A check the maintainers' CI requires cannot decide the verdict when the
// version the project pins could not be installed (markupsafe: the image's
// mypy 1.0 against uv.lock's 1.15); one greenlight.yaml requires can.
func TestUnpinnedCICheckIsAnEnvironmentError(t *testing.T) {
	ci := &glv1.CommandSource{File: ".github/workflows/tests.yaml", Line: 51, Origin: "ci"}
	mypy := func(mut func(*glv1.Step)) *glv1.Step {
		s := &glv1.Step{Name: "mypy", Phase: glv1.Phase_PHASE_TYPECHECK, RequiredBy: ci,
			Source: &glv1.CommandSource{File: "pyproject.toml", Origin: "discovered"}}
		if mut != nil {
			mut(s)
		}
		return s
	}
	failed := &glv1.StepResult{Name: "mypy", Status: glv1.StepStatus_STEP_STATUS_FAILED, ExitCode: 1,
		Tail: "src/markupsafe/__init__.py:278: error: Argument 1 of \"translate\" is incompatible [override]\n"}
	cases := []struct {
		name        string
		unreachable bool
		step        *glv1.Step
		result      *glv1.StepResult
		want        glv1.StepStatus
	}{
		{"CI promoted, index unreachable", true, mypy(nil), failed, glv1.StepStatus_STEP_STATUS_ERROR},
		{"learned from CI itself", true, mypy(func(s *glv1.Step) { s.RequiredBy, s.Source = nil, ci }), failed, glv1.StepStatus_STEP_STATUS_ERROR},
		{"index reachable: the pinned version ran", false, mypy(nil), failed, glv1.StepStatus_STEP_STATUS_FAILED},
		{"greenlight.yaml requires it", true, mypy(func(s *glv1.Step) {
			s.RequiredBy = &glv1.CommandSource{File: "greenlight.yaml", Line: 3, Origin: "greenlight.yaml"}
		}), failed, glv1.StepStatus_STEP_STATUS_FAILED},
		{"a test step stays FAIL", true, mypy(func(s *glv1.Step) { s.Phase = glv1.Phase_PHASE_TEST }), failed, glv1.StepStatus_STEP_STATUS_FAILED},
		{"advisory: untouched", true, mypy(func(s *glv1.Step) { s.Optional = true }), failed, glv1.StepStatus_STEP_STATUS_FAILED},
		{"passed: untouched", true, mypy(nil), &glv1.StepResult{Status: glv1.StepStatus_STEP_STATUS_OK}, glv1.StepStatus_STEP_STATUS_OK},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := unpinnedCheck(StepInput{Step: tc.step, Result: tc.result, IndexUnreachable: tc.unreachable})
			if got.GetStatus() != tc.want {
				t.Fatalf("status %s (%s), want %s", got.GetStatus(), got.GetReason(), tc.want)
			}
			if tc.want == glv1.StepStatus_STEP_STATUS_ERROR && !strings.Contains(got.GetReason(), "tests.yaml:51") {
				t.Fatalf("reason %q does not name the CI line", got.GetReason())
			}
		})
	}
}
