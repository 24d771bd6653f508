package contract

import glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"

// PlanCommand is one command of the plan document a verification was given
// (`verify --plan`): the whitelisted step it ran as, or why it was refused.
// A refused command never ran.
type PlanCommand struct {
	// Block is the label it stood under: install, build, test or lint.
	Block string `json:"block"`
	// Command is the command as the plan wrote it.
	Command string `json:"command"`
	// Line is its 1-based line in the plan document.
	Line int32 `json:"line"`
	// Step is the whitelisted step it ran as; "" when refused.
	Step string `json:"step"`
	// Refused says why it did not run; "" when it ran.
	Refused string `json:"refused"`
}

func planCommandOf(c *glv1.PlanCommand) PlanCommand {
	return PlanCommand{Block: c.GetBlock(), Command: c.GetCommand(), Line: c.GetLine(), Step: c.GetStep(), Refused: c.GetRefused()}
}
