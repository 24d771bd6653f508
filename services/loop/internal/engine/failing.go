package engine

import (
	"sort"

	"github.com/greenlight-dev/greenlight/services/loop/internal/parse"
)

// failingChecks counts what a verification left failing, the figure a
// patch must not increase: each failing test of a required step (flaky
// ones excluded), or 1 for a required step that failed without parsed test
// failures (build, lint, a crash) or did not run at all (skipped after an
// earlier failure, cut by the budget, not runnable).
func failingChecks(v *verification) int {
	n := 0
	for _, o := range v.outcomes {
		switch {
		case o.Optional():
		case o.Result == nil || !o.Ran():
			n++
		case o.EffectiveOK():
		case o.Report != nil && o.Report.Counts.Failed+o.Report.Counts.Errors > 0:
			n += o.Report.Counts.Failed + o.Report.Counts.Errors
		default:
			n++
		}
	}
	if n == 0 && (v.infra != "" || len(v.outcomes) == 0) {
		n = 1
	}
	return n
}

// testStates maps each parsed test id to its outcome. A flaky test (it
// failed, then passed on re-run) counts as passed, as it does in the
// verdict and the score: flakiness is not a regression a patch caused.
func testStates(v *verification) map[string]parse.Status {
	out := map[string]parse.Status{}
	for _, o := range v.outcomes {
		if o.Report == nil {
			continue
		}
		for _, t := range o.Report.Tests {
			out[t.ID] = t.Status
			if t.Flaky {
				out[t.ID] = parse.StatusPassed
			}
		}
	}
	return out
}

// regressions lists the tests that passed in the baseline and fail in v,
// sorted.
func regressions(baseline, v *verification) []string {
	before := testStates(baseline)
	var out []string
	for id, st := range testStates(v) {
		if (st == parse.StatusFailed || st == parse.StatusError) && before[id] == parse.StatusPassed {
			out = append(out, id)
		}
	}
	sort.Strings(out)
	return out
}

// domainFailures collects the parsed failures of every step, for locating.
func domainFailures(v *verification) []parse.Failure {
	var out []parse.Failure
	for _, o := range v.outcomes {
		if o.Report != nil && !o.EffectiveOK() {
			out = append(out, o.Report.Failures...)
		}
	}
	return out
}
