package plan

import (
	"fmt"
	"path"
	"strings"

	"github.com/greenlight-dev/greenlight/services/discovery/internal/command"
	"github.com/greenlight-dev/greenlight/services/discovery/internal/plandoc"
)

// PlanCommand is one command of a plan document and what became of it:
// it runs as a whitelisted step, or it is refused with the reason.
type PlanCommand struct {
	plandoc.Command
	// Step is the whitelisted step the command runs as; empty when refused.
	Step string
	// Refused says why the command does not run; empty when it runs.
	Refused string
}

// Refusal reasons, stable words a caller can show.
const (
	refuseNotWhitelisted = "not in the whitelist: a plan may only name commands discovery found or greenlight.yaml configures (greenlight discover lists them); the repository's greenlight.yaml can add a command, a plan cannot"
	refuseAmbiguous      = "matches several steps (%s): a plan command cannot say which; select by name with --step"
)

// document reads the request's plan document, adds the whitelisted steps
// its commands name (they run first in their phase, in the plan's order)
// and records each refused command with its reason. Refused commands never
// run and never remove a step: the default steps stay, so a plan can add
// checks and order them but cannot make the verdict weaker.
func (p *planner) document() error {
	cmds, err := plandoc.Parse(p.req.Plan)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrBadSelection, err)
	}
	p.first = map[string]int{}
	var ran, refused []string
	for _, c := range cmds {
		pc := PlanCommand{Command: c}
		step, why := p.matchPlan(c.Text)
		if why != "" {
			pc.Refused = why
			refused = append(refused, fmt.Sprintf("%q (line %d)", c.Text, c.Line))
		} else {
			pc.Step = step.Name
			if _, ok := p.first[step.Name]; !ok {
				p.first[step.Name] = len(p.first)
				ran = append(ran, step.Name)
			}
			p.add(step)
		}
		p.plan = append(p.plan, pc)
	}
	switch {
	case len(cmds) == 0:
		p.notes = append(p.notes, "the plan document has no command block (Install Commands:, Build Commands:, Test Commands:, Lint Commands:): the default pipeline runs")
	case len(ran) > 0:
		p.notes = append(p.notes, fmt.Sprintf("the plan names step(s) %s: they run first in their phase (the engine still runs tier by tier)", strings.Join(ran, ", ")))
	}
	if len(refused) > 0 {
		p.notes = append(p.notes, fmt.Sprintf("the plan's command(s) %s refused: not whitelisted or ambiguous; they do not run", strings.Join(refused, ", ")))
	}
	return nil
}

// matchPlan finds the whitelisted command a plan's command text is. Text is
// compared with runs of white space collapsed and nothing else normalized:
// an added argument, a pipe or a "cd dir &&" is another command. A text
// found in several subprojects means the workspace root's when exactly one
// of them is at the root, and is refused as ambiguous otherwise.
func (p *planner) matchPlan(text string) (command.Command, string) {
	want := squash(text)
	var matches []command.Command
	for _, c := range p.caps.Commands {
		if squash(c.Command) == want || (c.Display != "" && squash(c.Display) == want) {
			matches = append(matches, c)
		}
	}
	if len(matches) > 1 {
		var root []command.Command
		for _, m := range matches {
			if path.Clean("./"+m.Workdir) == "." {
				root = append(root, m)
			}
		}
		if len(root) == 1 {
			matches = root
		}
	}
	switch len(matches) {
	case 0:
		return command.Command{}, refuseNotWhitelisted
	case 1:
		return matches[0], ""
	}
	names := make([]string, len(matches))
	for i, m := range matches {
		names[i] = m.Name
	}
	return command.Command{}, fmt.Sprintf(refuseAmbiguous, strings.Join(names, ", "))
}
