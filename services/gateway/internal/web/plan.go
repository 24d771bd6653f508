package web

import glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"

// planCommandView is one command of the plan document a run was given:
// the step it ran as, or why it was refused. html/template escapes every
// field (a plan is caller text).
type planCommandView struct {
	Line    int32
	Block   string
	Command string
	Step    string
	Refused string
}

// newPlanViews lists the plan document's commands; nil without a plan.
func newPlanViews(cmds []*glv1.PlanCommand) []planCommandView {
	var out []planCommandView
	for _, c := range cmds {
		out = append(out, planCommandView{Line: c.GetLine(), Block: c.GetBlock(), Command: c.GetCommand(), Step: c.GetStep(), Refused: c.GetRefused()})
	}
	return out
}
