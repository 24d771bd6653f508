package engine

import (
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
