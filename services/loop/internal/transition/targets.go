package transition

import (
	"strings"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/loop/internal/verdict"
)

// Targets are what a fix run must achieve. Zero Targets mean the default
// goal: every test and required step failing at baseline passes, and
// everything passing at baseline keeps passing.
type Targets struct {
	// FailToPass are test ids that must pass.
	FailToPass []string
	// PassToPass are test ids that must keep passing; empty means every
	// test passing at baseline.
	PassToPass []string
	// Steps are step names that must pass.
	Steps []string
}

// TargetsOf reads FixOptions.targets.
func TargetsOf(t *glv1.FixTargets) Targets {
	return Targets{FailToPass: t.GetFailToPass(), PassToPass: t.GetPassToPass(), Steps: t.GetSteps()}
}

// Explicit reports whether the caller named targets.
func (t Targets) Explicit() bool {
	return len(t.FailToPass) > 0 || len(t.PassToPass) > 0 || len(t.Steps) > 0
}

// role is what a target test must do.
type role int

const (
	mustPass role = iota + 1 // FAIL_TO_PASS
	keepPass                 // PASS_TO_PASS
)

// goal is Targets resolved against the two sides.
type goal struct {
	tests map[Key]role
	// missing counts target ids that match no test on either side, by role.
	missing map[role]int
	steps   map[string]bool
	// strict (the default goal): any test failing now blocks FULL.
	strict bool
	// named lists the caller's target ids by role with the keys each
	// names (none: missing).
	named map[role][]namedTarget
}

// namedTarget is one target id as the caller wrote it.
type namedTarget struct {
	id   string
	keys []Key
}

// resolve matches the targets to the tests of both sides.
func (t Targets) resolve(base, cur *Side) *goal {
	g := &goal{tests: map[Key]role{}, missing: map[role]int{}, steps: map[string]bool{}, strict: !t.Explicit(),
		named: map[role][]namedTarget{}}
	keys := unionKeys(base, cur)
	if t.Explicit() {
		g.match(keys, t.FailToPass, mustPass)
		g.match(keys, t.PassToPass, keepPass)
		for _, s := range t.Steps {
			g.steps[s] = true
		}
	} else {
		for k, o := range base.Tests {
			if o.Failing() {
				g.tests[k] = mustPass
			}
		}
		for _, s := range cur.Required {
			g.steps[s.Name] = true
		}
	}
	if len(t.PassToPass) == 0 {
		for k, o := range base.Tests {
			if _, ok := g.tests[k]; !ok && o.Passed() {
				g.tests[k] = keepPass
			}
		}
	}
	for _, s := range base.Required {
		if s.Passed {
			g.steps[s.Name] = true // a passing required step must stay so
		}
	}
	return g
}

// match gives role r to every key an id names; an id naming none is
// missing (it counts as not passing, as in SWE-bench). An id that names
// no test itself but a parent of some — a Go test whose subtests are
// reported, a pytest function whose parametrized cases are — names
// those.
func (g *goal) match(keys []Key, ids []string, r role) {
	for _, id := range ids {
		got := g.assign(keys, r, func(testID string) bool { return matches(testID, id) })
		if len(got) == 0 {
			got = g.assign(keys, r, func(testID string) bool { return parentOf(testID, id) })
		}
		if len(got) == 0 {
			g.missing[r]++
		}
		g.named[r] = append(g.named[r], namedTarget{id: id, keys: got})
	}
}

// assign gives role r to the keys whose id is named and returns them.
func (g *goal) assign(keys []Key, r role, named func(string) bool) []Key {
	var got []Key
	for _, k := range keys {
		if named(k.ID) {
			if g.tests[k] != mustPass {
				g.tests[k] = r
			}
			got = append(got, k)
		}
	}
	return got
}

// failingNamed lists the target ids of role r that do not pass in cur:
// missing, or naming a test that does not pass.
func (g *goal) failingNamed(cur *Side, r role) []string {
	var out []string
	for _, n := range g.named[r] {
		ok := len(n.keys) > 0
		for _, k := range n.keys {
			ok = ok && verdict.StateOf(cur.Tests[k], hasKey(cur, k)) == verdict.Passing
		}
		if !ok && len(out) < MaxChanges {
			out = append(out, n.id)
		}
	}
	return out
}

// parentOf reports whether target names a parent of testID: a Go test of
// a subtest ("pkg.TestX/sub" under "TestX" or "pkg.TestX"), a pytest
// function of a parametrized case ("f.py::test_y[a]" under
// "f.py::test_y").
func parentOf(testID, target string) bool {
	for _, sep := range []string{"/", "["} {
		p := target + sep
		if strings.HasPrefix(testID, p) || strings.Contains(testID, "."+p) || strings.Contains(testID, "::"+p) {
			return true
		}
	}
	return false
}

// matches reports whether a target id names a test id: equal, or the
// test id's last component (Go's "pkg.TestX" named as "TestX", a jest
// "file › describe › name" named from the describe on).
func matches(testID, target string) bool {
	if testID == target {
		return true
	}
	for _, sep := range []string{".", "::", " > ", " › "} {
		if strings.HasSuffix(testID, sep+target) {
			return true
		}
	}
	return false
}

// grade fills out's target counts and resolution from cur.
func (g *goal) grade(cur *Side, out *glv1.Transitions) {
	f2p, f2pOK, p2p, p2pOK := g.missing[mustPass], 0, g.missing[keepPass], 0
	for k, r := range g.tests {
		ok := verdict.StateOf(cur.Tests[k], hasKey(cur, k)) == verdict.Passing
		switch r {
		case mustPass:
			f2p++
			if ok {
				f2pOK++
			}
		case keepPass:
			p2p++
			if ok {
				p2pOK++
			}
		}
	}
	out.TargetFailToPass, out.TargetFailToPassPassed = int32(f2p), int32(f2pOK)
	out.TargetPassToPass, out.TargetPassToPassPassed = int32(p2p), int32(p2pOK)
	for _, s := range cur.Required {
		switch {
		case s.Passed:
		case g.steps[s.Name]:
			out.FailingTargetSteps = append(out.FailingTargetSteps, s.Name)
		default:
			out.FailingOutsideTarget = append(out.FailingOutsideTarget, s.Name)
		}
	}
	for s := range g.steps {
		if !hasStep(cur, s) {
			out.FailingTargetSteps = append(out.FailingTargetSteps, s) // a target step that did not run
		}
	}
	out.FailingFailToPass, out.FailingPassToPass = g.failingNamed(cur, mustPass), g.failingNamed(cur, keepPass)
	out.Resolution = g.resolution(cur, out)
}

// resolution is SWE-bench's rule: FULL when every FAIL_TO_PASS and
// PASS_TO_PASS target passes (and, here, every target step; by default no
// test may fail at all); PARTIAL when some FAIL_TO_PASS targets pass and
// every PASS_TO_PASS one does; NO otherwise.
func (g *goal) resolution(cur *Side, out *glv1.Transitions) glv1.Resolution {
	p2pAll := out.GetTargetPassToPassPassed() == out.GetTargetPassToPass()
	f2pAll := out.GetTargetFailToPassPassed() == out.GetTargetFailToPass()
	switch {
	case f2pAll && p2pAll && len(out.GetFailingTargetSteps()) == 0 && !(g.strict && anyFailing(cur)):
		return glv1.Resolution_RESOLUTION_FULL
	case out.GetTargetFailToPassPassed() > 0 && p2pAll:
		return glv1.Resolution_RESOLUTION_PARTIAL
	}
	return glv1.Resolution_RESOLUTION_NO
}

func hasKey(s *Side, k Key) bool { _, ok := s.Tests[k]; return ok }

func hasStep(s *Side, name string) bool {
	for _, st := range s.Required {
		if st.Name == name {
			return true
		}
	}
	return false
}

func anyFailing(s *Side) bool {
	for _, o := range s.Tests {
		if o.Failing() {
			return true
		}
	}
	return false
}
