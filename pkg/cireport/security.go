package cireport

import (
	"fmt"
	"strings"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// maxSecurityFindings bounds the rows of the Markdown security table.
const maxSecurityFindings = 25

// securityFindings are a result's security findings, those a patch
// introduced first, then by severity (high first), in result order.
func securityFindings(res *glv1.Result) []*glv1.Failure {
	var out []*glv1.Failure
	for _, f := range res.GetFailures() {
		if f.GetKind() == glv1.FailureKind_FAILURE_KIND_SECURITY {
			out = append(out, f)
		}
	}
	rank := func(f *glv1.Failure) int {
		r, ok := map[string]int{"high": 0, "medium": 1}[f.GetSeverity()]
		if !ok {
			r = 2
		}
		if !f.GetIntroduced() {
			r += 3
		}
		return r
	}
	// A stable insertion sort: the lists are short.
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && rank(out[j]) < rank(out[j-1]); j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// mdSecurity is the security section: the component, and one row per
// finding with its severity, rule and location, new ones marked.
func mdSecurity(b *strings.Builder, res *glv1.Result) {
	fs := securityFindings(res)
	sc := res.GetScore()
	if len(fs) == 0 && !sc.GetSecurityRan() {
		return
	}
	fmt.Fprintf(b, "### Security (%d finding(s))\n\n", max(len(fs), int(sc.GetSecurityFindings())))
	if sc.GetSecurityRan() {
		fmt.Fprintf(b, "Security component %g/1, reported beside the score, not in it.\n\n", sc.GetSecurity())
	}
	if len(fs) == 0 {
		return
	}
	b.WriteString("| Severity | Rule | Location | Finding |\n|---|---|---|---|\n")
	for i, f := range fs {
		if i == maxSecurityFindings {
			fmt.Fprintf(b, "\n… and %d more\n", len(fs)-maxSecurityFindings)
			break
		}
		sev := f.GetSeverity()
		if f.GetIntroduced() {
			sev += " (new in the patch)"
		}
		if stepOptional(res, f.GetEvidence().GetStep()) {
			sev += " (advisory)"
		}
		fmt.Fprintf(b, "| %s | %s | %s | %s |\n", cell(mdText(sev)), cell(code(f.GetRule())), cell(code(location(f.GetFile(), f.GetLine()))),
			cell(code(clip(firstLine(f.GetMessage()), cellWidth))))
	}
	b.WriteString("\n")
}
