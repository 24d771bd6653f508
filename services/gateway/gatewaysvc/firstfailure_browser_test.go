package gatewaysvc

import (
	"fmt"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	bt "github.com/greenlight-dev/greenlight/services/gateway/internal/browsertest"
	"github.com/greenlight-dev/greenlight/services/gateway/internal/loopfake"
)

// pythonFailingRun is a FAIL verification as a Python project gets one:
// the two generated pip scripts (kilobytes each, shown by their display),
// compileall, pytest with a multi-line assertion message and several
// failures, and a summary of a few lines.
func pythonFailingRun(id string) *glv1.Run {
	run := proto.Clone(loopfake.FailingVerifyRun(id, nil)).(*glv1.Run)
	res := run.GetResult()
	tmpl := res.GetSteps()[0]
	step := func(name string, phase glv1.Phase, cmd, shown string, exit int32) *glv1.StepResult {
		s := proto.Clone(tmpl).(*glv1.StepResult)
		s.Name, s.Phase, s.Command, s.DisplayCommand, s.ExitCode, s.CacheHit = name, phase, cmd, shown, exit, false
		if exit != 0 {
			s.Status = glv1.StepStatus_STEP_STATUS_FAILED
		}
		return s
	}
	script := "python3 -P -m venv --system-site-packages .venv && " + strings.Repeat("{ .venv/bin/python -P -m pip install -e '.[test]'; } ", 30)
	res.Steps = []*glv1.StepResult{
		step("pip-install", glv1.Phase_PHASE_INSTALL, script, "python3 -m venv .venv && .venv/bin/python -m pip install -e '.[test]'", 0),
		step("pip-fallback", glv1.Phase_PHASE_INSTALL, "if [ -f .venv/greenlight-installed ]; then exit 0; fi; "+strings.Repeat("grep -q x .venv/greenlight-pip.log; ", 40),
			"greenlight checks pip-install: a failed install fails here; offline, installs the project without its dependencies", 0),
		step("compileall", glv1.Phase_PHASE_BUILD, ".venv/bin/python -P -m compileall -q .", "", 0),
		step("ruff", glv1.Phase_PHASE_LINT, ".venv/bin/python -m ruff check .", "", 0),
		step("mypy", glv1.Phase_PHASE_LINT, ".venv/bin/python -m mypy .", "", 0),
		step("pytest", glv1.Phase_PHASE_TEST, ".venv/bin/python -m pytest -rA --junitxml=/tmp/greenlight/reports/pytest.xml", "", 1),
	}
	res.Failures = nil
	for i := range 5 {
		res.Failures = append(res.Failures, &glv1.Failure{File: fmt.Sprintf("tests/test_parse_%d.py", i+1), Line: int32(40 + i),
			Kind: glv1.FailureKind_FAILURE_KIND_TEST_ASSERTION, Test: fmt.Sprintf("tests/test_parse_%d.py::test_round_trip", i+1),
			Message: "AssertionError: assert {'a': 1, 'b': [1, 2, 3]} == {'a': 1, 'b': [1, 2]}\n  Differing items:\n  {'b': [1, 2, 3]} != {'b': [1, 2]}\n" +
				"  Full diff:\n  - {'a': 1, 'b': [1, 2]}\n  + {'a': 1, 'b': [1, 2, 3]}"})
	}
	res.Summary = "pytest failed: 5 of 212 tests failed (tests/test_parse_1.py::test_round_trip and 4 more); " +
		"ruff and mypy passed; the install ran offline from the dependency cache"
	return run
}

// firstFailureShown measures, on the page as loaded (not scrolled), the
// first element that shows location loc and the first that shows the
// message's first line msg: whether each is visible inside the viewport.
func firstFailureShown(loc, msg string) string {
	return `(() => {
	const inView = e => { if (!e || !e.checkVisibility()) return null; const r = e.getBoundingClientRect();
		return {top: Math.round(r.top), bottom: Math.round(r.bottom), left: Math.round(r.left), right: Math.round(r.right),
			ok: r.height > 0 && r.top >= 0 && r.top + 14 <= innerHeight && r.left >= 0 && r.left < innerWidth}; };
	const loc = Array.from(document.querySelectorAll('code.loc')).find(e => e.textContent.trim() === ` + jsString(loc) + ` && e.checkVisibility());
	const msg = Array.from(document.querySelectorAll('.msg')).find(e => e.textContent.includes(` + jsString(msg) + `) && e.checkVisibility());
	return {loc: inView(loc), msg: inView(msg), height: innerHeight, scrollY: scrollY};
})()`
}

// box is an element's measured bounding box.
type box struct {
	Top, Bottom, Left, Right int
	OK                       bool
}

// TestBrowserFirstFailureAboveTheFold: on a FAIL page the first failure
// (its file:line and the first line of its message) is on screen without
// scrolling, on a 1280×800 laptop and on a 390×844 phone, for a small Go
// run and for a Python run with generated install scripts, six steps and
// five multi-line failures.
func TestBrowserFirstFailureAboveTheFold(t *testing.T) {
	g, ctx := browserGateway(t)
	g.loop.Put(pythonFailingRun("run-py-fail"))
	screens := []bt.Screen{{Name: "1280x800", Width: 1280, Height: 800}, {Name: "390x844", Width: 390, Height: 844}}
	runs := []struct{ id, loc, msg string }{
		{"run-fail", "calc/calc_test.go:27", "Div(1, 0) = 0, <nil>; want an error"},
		{"run-py-fail", "tests/test_parse_1.py:40", "AssertionError: assert {'a': 1, 'b': [1, 2, 3]}"},
	}
	for _, r := range runs {
		for _, s := range screens {
			t.Run(r.id+"/"+s.Name, func(t *testing.T) {
				bt.Emulate(t, ctx, s)
				bt.Navigate(t, ctx, g.httpURL+"/runs/"+r.id)
				got := bt.Eval[struct {
					Loc, Msg        *box
					Height, ScrollY int
				}](t, ctx, firstFailureShown(r.loc, r.msg))
				bt.Shot(t, ctx, "first-failure-"+r.id+"-"+s.Name)
				if got.ScrollY != 0 || got.Height != int(s.Height) {
					t.Fatalf("page scrolled to %d, viewport %d px high: not the first screen", got.ScrollY, got.Height)
				}
				if got.Loc == nil || !got.Loc.OK {
					t.Errorf("the first failure's location %s is not in the first %d px: %+v", r.loc, s.Height, got.Loc)
				}
				if got.Msg == nil || !got.Msg.OK {
					t.Errorf("the first failure's message %q is not in the first %d px: %+v", r.msg, s.Height, got.Msg)
				}
				if w := bt.Eval[int](t, ctx, `document.documentElement.scrollWidth`); w > int(s.Width) {
					t.Errorf("the page is %d px wide on a %d px screen; overflowing: %v", w, s.Width, bt.Eval[[]string](t, ctx, overflowing))
				}
			})
		}
	}
	bt.Emulate(t, ctx, bt.Screens[0])
}
