package transition

import (
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/loop/internal/parse"
)

// side builds a Side of one required step "test" from id → status
// letters: p passed, f failed, e error, s skipped, F flaky (failed, then
// passed on re-run).
func side(stepPassed bool, tests map[string]byte) *Side {
	s := &Side{Tests: map[Key]parse.Outcome{}, Complete: true, Required: []StepState{{Name: "test", Passed: stepPassed}}}
	for id, c := range tests {
		o := parse.Outcome{ID: id}
		switch c {
		case 'p':
			o.Status = parse.StatusPassed
		case 'f':
			o.Status = parse.StatusFailed
		case 'e':
			o.Status = parse.StatusError
		case 's':
			o.Status = parse.StatusSkipped
		case 'F':
			o.Status, o.Flaky = parse.StatusFailed, true
		}
		s.Tests[Key{Step: "test", ID: id}] = o
	}
	return s
}

func TestTransitionKinds(t *testing.T) {
	base := side(false, map[string]byte{"a": 'p', "b": 'f', "c": 'p', "d": 'f', "gone": 'p', "sk": 's', "e": 'e'})
	cur := side(false, map[string]byte{"a": 'p', "b": 'p', "c": 'f', "d": 'f', "new": 'f', "sk": 's', "e": 'F'})
	got := Compare(base, cur, Targets{})
	want := struct{ f2p, p2p, p2f, f2f, nw, gone int32 }{2, 1, 1, 1, 1, 1}
	if got.FailToPass != want.f2p || got.PassToPass != want.p2p || got.PassToFail != want.p2f ||
		got.FailToFail != want.f2f || got.NewTests != want.nw || got.Disappeared != want.gone {
		t.Errorf("counts %v, want %+v", got, want)
	}
	kinds := map[string]glv1.TransitionKind{}
	for _, c := range got.Changes {
		kinds[c.GetId()] = c.GetKind()
	}
	for id, k := range map[string]glv1.TransitionKind{
		"b": glv1.TransitionKind_TRANSITION_KIND_FAIL_TO_PASS, "e": glv1.TransitionKind_TRANSITION_KIND_FAIL_TO_PASS,
		"c": glv1.TransitionKind_TRANSITION_KIND_PASS_TO_FAIL, "d": glv1.TransitionKind_TRANSITION_KIND_FAIL_TO_FAIL,
		"new": glv1.TransitionKind_TRANSITION_KIND_NEW, "gone": glv1.TransitionKind_TRANSITION_KIND_DISAPPEARED,
	} {
		if kinds[id] != k {
			t.Errorf("%s: %v, want %v", id, kinds[id], k)
		}
	}
	if _, listed := kinds["a"]; listed {
		t.Error("PASS_TO_PASS is listed one by one")
	}
	if _, listed := kinds["sk"]; listed {
		t.Error("a test skipped on both sides is a transition")
	}
	if got.Resolution != glv1.Resolution_RESOLUTION_NO {
		t.Errorf("resolution %v with a PASS_TO_FAIL, want NO", got.Resolution)
	}
}

// TestGradingLikeSWEBench is swebench.harness.grading's rules on edge cases.
func TestGradingLikeSWEBench(t *testing.T) {
	param := "tests/test_x.py::test_y[a-1]"
	for _, tc := range []struct {
		name       string
		base, cur  map[string]byte
		targets    Targets
		stepPassed bool
		want       glv1.Resolution
	}{
		{"all fixed", map[string]byte{"t1": 'f', "t2": 'p'}, map[string]byte{"t1": 'p', "t2": 'p'},
			Targets{FailToPass: []string{"t1"}, PassToPass: []string{"t2"}}, true, glv1.Resolution_RESOLUTION_FULL},
		{"a skipped FAIL_TO_PASS fails", map[string]byte{"t1": 'f', "t2": 'p'}, map[string]byte{"t1": 's', "t2": 'p'},
			Targets{FailToPass: []string{"t1"}}, false, glv1.Resolution_RESOLUTION_NO},
		{"a missing FAIL_TO_PASS fails", map[string]byte{"t2": 'p'}, map[string]byte{"t2": 'p'},
			Targets{FailToPass: []string{"t1"}}, true, glv1.Resolution_RESOLUTION_NO},
		{"a missing PASS_TO_PASS fails", map[string]byte{"t1": 'f'}, map[string]byte{"t1": 'p'},
			Targets{FailToPass: []string{"t1"}, PassToPass: []string{"t9"}}, true, glv1.Resolution_RESOLUTION_NO},
		{"some fixed", map[string]byte{"t1": 'f', "t3": 'f', "t2": 'p'}, map[string]byte{"t1": 'p', "t3": 'f', "t2": 'p'},
			Targets{FailToPass: []string{"t1", "t3"}, PassToPass: []string{"t2"}}, false, glv1.Resolution_RESOLUTION_PARTIAL},
		{"some fixed but one broken", map[string]byte{"t1": 'f', "t3": 'f', "t2": 'p'}, map[string]byte{"t1": 'p', "t3": 'f', "t2": 'f'},
			Targets{FailToPass: []string{"t1", "t3"}, PassToPass: []string{"t2"}}, false, glv1.Resolution_RESOLUTION_NO},
		{"parametrized id exactly", map[string]byte{param: 'f', "tests/test_x.py::test_y[b-2]": 'f'},
			map[string]byte{param: 'p', "tests/test_x.py::test_y[b-2]": 'f'},
			Targets{FailToPass: []string{param}}, false, glv1.Resolution_RESOLUTION_FULL},
		{"failures outside the target do not block", map[string]byte{"t1": 'f', "old": 'f'}, map[string]byte{"t1": 'p', "old": 'f'},
			Targets{FailToPass: []string{"t1"}}, false, glv1.Resolution_RESOLUTION_FULL},
		{"by default every baseline failure is the target", map[string]byte{"t1": 'f', "old": 'f'}, map[string]byte{"t1": 'p', "old": 'f'},
			Targets{}, false, glv1.Resolution_RESOLUTION_PARTIAL},
		{"by default a new failing test blocks", map[string]byte{"t1": 'f'}, map[string]byte{"t1": 'p', "t9": 'f'},
			Targets{}, false, glv1.Resolution_RESOLUTION_PARTIAL},
		{"a flaky test passed", map[string]byte{"t1": 'f'}, map[string]byte{"t1": 'F'},
			Targets{FailToPass: []string{"t1"}}, true, glv1.Resolution_RESOLUTION_FULL},
		{"a Go id named by its short name", map[string]byte{"example.com/m.TestX/sub": 'f'}, map[string]byte{"example.com/m.TestX/sub": 'p'},
			Targets{FailToPass: []string{"TestX/sub"}}, true, glv1.Resolution_RESOLUTION_FULL},
		{"a Go parent test names its subtests", map[string]byte{"m.TestX/a": 'f', "m.TestX/b": 'p', "m.TestY": 'p'},
			map[string]byte{"m.TestX/a": 'p', "m.TestX/b": 'p', "m.TestY": 'p'},
			Targets{FailToPass: []string{"TestX"}}, true, glv1.Resolution_RESOLUTION_FULL},
		{"a Go parent test with a failing subtest", map[string]byte{"m.TestX/a": 'f', "m.TestX/b": 'f'},
			map[string]byte{"m.TestX/a": 'p', "m.TestX/b": 'f'},
			Targets{FailToPass: []string{"TestX"}}, false, glv1.Resolution_RESOLUTION_PARTIAL},
		{"a pytest function names its parametrized cases", map[string]byte{"t.py::test_y[1]": 'f', "t.py::test_y[2]": 'f'},
			map[string]byte{"t.py::test_y[1]": 'p', "t.py::test_y[2]": 'p'},
			Targets{FailToPass: []string{"t.py::test_y"}}, true, glv1.Resolution_RESOLUTION_FULL},
		{"no FAIL_TO_PASS targets: PASS_TO_PASS decides", map[string]byte{"t2": 'p'}, map[string]byte{"t2": 'p'},
			Targets{PassToPass: []string{"t2"}}, true, glv1.Resolution_RESOLUTION_FULL},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Compare(side(false, tc.base), side(tc.stepPassed, tc.cur), tc.targets)
			if got.Resolution != tc.want {
				t.Errorf("resolution %v, want %v (%v)", got.Resolution, tc.want, got)
			}
		})
	}
}

func TestTargetSteps(t *testing.T) {
	base := &Side{Tests: map[Key]parse.Outcome{}, Complete: true,
		Required: []StepState{{Name: "build", Passed: true}, {Name: "vet", Passed: false}, {Name: "test", Passed: false}}}
	cur := &Side{Tests: map[Key]parse.Outcome{}, Complete: true,
		Required: []StepState{{Name: "build", Passed: true}, {Name: "vet", Passed: false}, {Name: "test", Passed: true}}}
	got := Compare(base, cur, Targets{Steps: []string{"test"}})
	if got.Resolution != glv1.Resolution_RESOLUTION_FULL || len(got.FailingOutsideTarget) != 1 || got.FailingOutsideTarget[0] != "vet" {
		t.Errorf("explicit step target: %v, want FULL with vet outside the target", got)
	}
	if got := Compare(base, cur, Targets{}); got.Resolution != glv1.Resolution_RESOLUTION_NO || len(got.FailingTargetSteps) != 1 {
		t.Errorf("default target: %v, want NO with vet failing", got)
	}
	broken := &Side{Tests: map[Key]parse.Outcome{}, Complete: true,
		Required: []StepState{{Name: "build", Passed: false}, {Name: "vet", Passed: false}, {Name: "test", Passed: true}}}
	if got := Compare(base, broken, Targets{Steps: []string{"test"}}); got.Resolution == glv1.Resolution_RESOLUTION_FULL {
		t.Errorf("a required step that passed at baseline and fails now still resolved: %v", got)
	}
}

func TestChangesAreCappedTargetsFirst(t *testing.T) {
	b, c := map[string]byte{}, map[string]byte{}
	for i := 0; i < MaxChanges+20; i++ {
		id := string(rune('a'+i%26)) + string(rune('0'+i/26%10)) + string(rune('0'+i/260))
		b[id], c[id] = 'f', 'f'
	}
	b["zz-target"], c["zz-target"] = 'f', 'p'
	got := Compare(side(false, b), side(false, c), Targets{FailToPass: []string{"zz-target"}})
	if len(got.Changes) != MaxChanges || got.ChangesOmitted != 21 {
		t.Fatalf("%d changes listed, %d omitted", len(got.Changes), got.ChangesOmitted)
	}
	if !got.Changes[0].GetTarget() || got.Changes[0].GetId() != "zz-target" {
		t.Errorf("first change %v, want the target", got.Changes[0])
	}
}

// TestFailingTargetsAreNamedAsGiven: a harness reads which of its
// FAIL_TO_PASS and PASS_TO_PASS ids failed, spelled as it gave them.
func TestFailingTargetsAreNamedAsGiven(t *testing.T) {
	base := side(false, map[string]byte{"m.TestA/x": 'f', "m.TestA/y": 'f', "m.TestB": 'f', "m.TestC": 'p'})
	cur := side(false, map[string]byte{"m.TestA/x": 'p', "m.TestA/y": 'f', "m.TestB": 'p', "m.TestC": 'p'})
	got := Compare(base, cur, Targets{FailToPass: []string{"TestA", "TestB"}, PassToPass: []string{"TestC", "TestGone"}})
	if len(got.FailingFailToPass) != 1 || got.FailingFailToPass[0] != "TestA" {
		t.Errorf("failing FAIL_TO_PASS %v, want [TestA] (one subtest still fails)", got.FailingFailToPass)
	}
	if len(got.FailingPassToPass) != 1 || got.FailingPassToPass[0] != "TestGone" {
		t.Errorf("failing PASS_TO_PASS %v, want [TestGone] (missing)", got.FailingPassToPass)
	}
}
