package transition

import (
	"sort"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/loop/internal/parse"
	"github.com/greenlight-dev/greenlight/services/loop/internal/verdict"
)

// MaxChanges bounds the transitions listed one by one.
const MaxChanges = 500

// Compare lists how every test moved from base to cur, grades the
// targets and returns the result. A test skipped on both sides is no
// transition at all.
func Compare(base, cur *Side, t Targets) *glv1.Transitions {
	out := &glv1.Transitions{Complete: base.Complete && cur.Complete}
	goal := t.resolve(base, cur)
	list(out, base, cur, unionKeys(base, cur), func(k Key) bool { _, ok := goal.tests[k]; return ok })
	goal.grade(cur, out)
	return out
}

// list counts the transitions of keys from base to cur into out and lists
// every one but PASS_TO_PASS, targets first, at most MaxChanges.
func list(out *glv1.Transitions, base, cur *Side, keys []Key, target func(Key) bool) {
	var changes []*glv1.TestTransition
	for _, k := range keys {
		b, bok := base.Tests[k]
		c, cok := cur.Tests[k]
		kind := kindOf(verdict.StateOf(b, bok), verdict.StateOf(c, cok))
		if kind == glv1.TransitionKind_TRANSITION_KIND_UNSPECIFIED {
			continue
		}
		count(out, kind)
		if kind != glv1.TransitionKind_TRANSITION_KIND_PASS_TO_PASS {
			changes = append(changes, &glv1.TestTransition{Step: k.Step, Id: k.ID, Kind: kind,
				Before: statusOf(b, bok), After: statusOf(c, cok), Target: target(k)})
		}
	}
	sort.SliceStable(changes, func(i, j int) bool { return changes[i].GetTarget() && !changes[j].GetTarget() })
	if len(changes) > MaxChanges {
		out.ChangesOmitted = int32(len(changes) - MaxChanges)
		changes = changes[:MaxChanges]
	}
	out.Changes = changes
}

// kindOf names the move from one state to another.
func kindOf(b, c verdict.TestState) glv1.TransitionKind {
	switch {
	case b == verdict.Absent && c == verdict.Absent, b == verdict.Skipped && c == verdict.Skipped:
		return glv1.TransitionKind_TRANSITION_KIND_UNSPECIFIED
	case b == verdict.Absent:
		return glv1.TransitionKind_TRANSITION_KIND_NEW
	case c == verdict.Absent:
		return glv1.TransitionKind_TRANSITION_KIND_DISAPPEARED
	case b == verdict.Passing && c == verdict.Passing:
		return glv1.TransitionKind_TRANSITION_KIND_PASS_TO_PASS
	case b == verdict.Passing:
		return glv1.TransitionKind_TRANSITION_KIND_PASS_TO_FAIL
	case c == verdict.Passing:
		return glv1.TransitionKind_TRANSITION_KIND_FAIL_TO_PASS
	}
	return glv1.TransitionKind_TRANSITION_KIND_FAIL_TO_FAIL
}

func count(out *glv1.Transitions, k glv1.TransitionKind) {
	switch k {
	case glv1.TransitionKind_TRANSITION_KIND_FAIL_TO_PASS:
		out.FailToPass++
	case glv1.TransitionKind_TRANSITION_KIND_PASS_TO_PASS:
		out.PassToPass++
	case glv1.TransitionKind_TRANSITION_KIND_PASS_TO_FAIL:
		out.PassToFail++
	case glv1.TransitionKind_TRANSITION_KIND_FAIL_TO_FAIL:
		out.FailToFail++
	case glv1.TransitionKind_TRANSITION_KIND_NEW:
		out.NewTests++
	case glv1.TransitionKind_TRANSITION_KIND_DISAPPEARED:
		out.Disappeared++
	}
}

// statusOf is a test's status for the record (UNSPECIFIED when absent;
// a flaky test passed on re-run).
func statusOf(o parse.Outcome, ok bool) glv1.TestStatus {
	switch {
	case !ok:
		return glv1.TestStatus_TEST_STATUS_UNSPECIFIED
	case o.Passed():
		return glv1.TestStatus_TEST_STATUS_PASSED
	case o.Status == parse.StatusSkipped:
		return glv1.TestStatus_TEST_STATUS_SKIPPED
	case o.Status == parse.StatusError:
		return glv1.TestStatus_TEST_STATUS_ERROR
	}
	return glv1.TestStatus_TEST_STATUS_FAILED
}

// unionKeys lists the keys of both sides, sorted by step then id.
func unionKeys(a, b *Side) []Key {
	keys := make([]Key, 0, len(a.Tests)+len(b.Tests))
	for k := range a.Tests {
		keys = append(keys, k)
	}
	for k := range b.Tests {
		if _, ok := a.Tests[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].Step != keys[j].Step {
			return keys[i].Step < keys[j].Step
		}
		return keys[i].ID < keys[j].ID
	})
	return keys
}
