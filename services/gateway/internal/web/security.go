package web

import (
	"fmt"
	"strconv"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// securityView is the security phase's findings and component, shown
// apart from the verdict's failures list.
type securityView struct {
	// Component is "0.5/1" ("" when no scan ran).
	Component string
	Findings  []securityFindingView
}

type securityFindingView struct {
	Severity, Rule, Location, Message, Step string
	// LocURL opens Location in the code view.
	LocURL string
	// Introduced: the patch added it (a fix run); Advisory: its step does
	// not decide the verdict.
	Introduced, Advisory bool
}

// newSecurityView is nil when no security step ran and nothing was found.
func newSecurityView(runID string, snap *glv1.Digest, res *glv1.Result) *securityView {
	v := &securityView{}
	if sc := res.GetScore(); sc.GetSecurityRan() {
		v.Component = fmt.Sprintf("%g/1 (%d finding(s))", sc.GetSecurity(), sc.GetSecurityFindings())
	}
	optional := map[string]bool{}
	for _, s := range res.GetSteps() {
		optional[s.GetName()] = s.GetOptional()
	}
	for _, f := range res.GetFailures() {
		if f.GetKind() != glv1.FailureKind_FAILURE_KIND_SECURITY {
			continue
		}
		loc := f.GetFile()
		if f.GetLine() > 0 {
			loc += ":" + strconv.Itoa(int(f.GetLine()))
		}
		step := f.GetEvidence().GetStep()
		v.Findings = append(v.Findings, securityFindingView{Severity: f.GetSeverity(), Rule: f.GetRule(), Location: loc, Message: f.GetMessage(),
			Step: step, LocURL: codeURL(runID, snap, f.GetFile(), f.GetLine()), Introduced: f.GetIntroduced(), Advisory: optional[step]})
	}
	if v.Component == "" && len(v.Findings) == 0 {
		return nil
	}
	return v
}
