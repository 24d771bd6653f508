package capability

import (
	"fmt"
	"slices"
	"strings"

	"github.com/greenlight-dev/greenlight/services/discovery/internal/cisource"
	"github.com/greenlight-dev/greenlight/services/discovery/internal/command"
)

// ignoreScripts is the package-manager flag that skips a script's pre/post
// lifecycle scripts (npm test's posttest, npm run lint's postlint).
const ignoreScripts = "--ignore-scripts"

// adoptIgnoreScripts makes a discovered package.json script step skip its
// lifecycle scripts when the maintainers' CI runs the same script, with
// the same package manager, with --ignore-scripts: npm's own repositories
// run `npm test --ignore-scripts` and check lint and postlint in separate
// steps, and their posttest (lint, then template-oss-check against the git
// remote, which a snapshot has not) is not part of what CI calls the tests.
func (c *Capabilities) adoptIgnoreScripts(ci cisource.Learned) {
	for i := range c.Commands {
		cmd := &c.Commands[i]
		if configuredOrigin(*cmd) || cmd.Source.Origin == cisource.Origin || strings.Contains(cmd.Command, ignoreScripts) {
			continue
		}
		inv, ok := singleScript(cmd.Command)
		if !ok {
			continue
		}
		if by, ok := ciRunsIgnoringScripts(*cmd, inv, ci); ok {
			cmd.Command += " " + ignoreScripts
			c.Notes = append(c.Notes, fmt.Sprintf("%s runs with %s as the maintainers' CI does (%s:%d `%s`): its pre/post scripts are not run",
				cmd.Name, ignoreScripts, by.Source.File, by.Source.Line, clip(by.Run)))
		}
	}
}

// ciRunsIgnoringScripts finds a runnable CI line that is one invocation of
// the same script by the same program, in cmd's directory, with
// --ignore-scripts.
func ciRunsIgnoringScripts(cmd command.Command, inv cisource.Invocation, ci cisource.Learned) (cisource.Command, bool) {
	prog := strings.Fields(cmd.Command)[0]
	for _, lc := range ci.Commands {
		if !lc.FromCI || lc.Skip != "" || strings.Contains(lc.Run, "$") {
			continue
		}
		theirs, ok := singleScript(lc.Run)
		if !ok || theirs.Key != inv.Key || strings.Fields(lc.Run)[0] != prog || !slices.Contains(theirs.Args, ignoreScripts) {
			continue
		}
		// The same directory: the same subproject's script.
		if lc.Workdir == cmd.Workdir {
			return lc, true
		}
	}
	return cisource.Command{}, false
}

// singleScript parses a command line that is exactly one package.json
// script invocation.
func singleScript(run string) (cisource.Invocation, bool) {
	parts := cisource.Parts(run)
	if len(parts) != 1 {
		return cisource.Invocation{}, false
	}
	inv, ok := cisource.Parse(parts[0])
	return inv, ok && strings.HasPrefix(inv.Key, "script:")
}
