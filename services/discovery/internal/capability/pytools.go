package capability

import (
	"fmt"

	"github.com/greenlight-dev/greenlight/pkg/pylaunch"
)

// hardenPythonTools rewrites the `python -m TOOL` of the configured and CI
// commands (greenlight.yaml, agent.yaml, CI lines) as discovery's own
// Python steps run them (pylaunch): pytest, unittest, mypy and ruff through
// the launcher, pip, venv and compileall with -P, so a workspace module
// named like the tool never runs in its place. The command as written
// stays the step's display, and a model may still select it by that text.
func (c *Capabilities) hardenPythonTools() {
	n := 0
	for i := range c.Commands {
		cmd := &c.Commands[i]
		if cmd.Display != "" {
			continue
		}
		if h, changed := pylaunch.Harden(cmd.Command); changed {
			cmd.Display, cmd.Command = cmd.Command, h
			n++
		}
	}
	if n > 0 {
		c.Notes = append(c.Notes, fmt.Sprintf("%d configured command(s) run `python -m` tools with -P and greenlight's launcher, so the workspace cannot replace the tool (display_command shows them as written)", n))
	}
}
