package engine

import (
	"github.com/greenlight-dev/greenlight/services/loop/internal/parse"
)

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
