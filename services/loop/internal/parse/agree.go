package parse

import "fmt"

// runnerFamily groups the formats one test runner produces: its own
// machine-readable report and what it prints. Two of one family describe
// the same run and must agree.
var runnerFamily = map[string]string{
	FormatGoJSON: "go", FormatGoText: "go",
	FormatPytestJUnit: "pytest", FormatPytestSummary: "pytest",
	FormatJestJSON: "jest", FormatJestText: "jest",
	FormatVitestJSON: "vitest", FormatVitestText: "vitest",
	FormatMochaJSON: "mocha", FormatMocha: "mocha",
	FormatSurefire: "surefire", FormatSurefireLog: "surefire",
}

// disagreement says how the chosen counts disagree with another account
// of the same run, or "". A report the process under test can write (a
// JUnit file, a JSON report) that claims fewer failures than the
// runner's own printed summary, or a summary that claims fewer than the
// report, means one of them was forged or cut short: the step cannot pass
// on it. Only more failures elsewhere count: a log cut at the cap may
// show fewer tests, never more failures.
func disagreement(cands []candidate, best *candidate) string {
	if best == nil {
		return ""
	}
	fam, ok := runnerFamily[best.format]
	if !ok {
		return ""
	}
	have := failing(best.set.final())
	for i := range cands {
		c := &cands[i]
		if c == best || c.set == nil || !c.set.seen || runnerFamily[c.format] != fam {
			continue
		}
		if other := failing(c.set.final()); other > have {
			return fmt.Sprintf("%s counts %d failed or errored test(s), but %s counts %d", describe(c), other, describe(best), have)
		}
	}
	return ""
}

// failing counts failed and errored tests.
func failing(c Counts) int { return c.Failed + c.Errors }

// describe names a candidate for a disagreement message.
func describe(c *candidate) string {
	if c.report {
		return "the " + c.format + " report file"
	}
	return "the " + c.format + " output in the log"
}
