package capability

import (
	"maps"

	"github.com/greenlight-dev/greenlight/services/discovery/internal/cisource"
	"github.com/greenlight-dev/greenlight/services/discovery/internal/command"
)

// wholeBlock returns the command that runs a CI line's whole `run:` block
// as CI does (one bash -e script from the step's working directory), or
// false when the block has a line that cannot run here (an install, a
// deploy, a tool the sandbox cannot run: any line cisource skipped).
func wholeBlock(lc cisource.Command, ci cisource.Learned) (command.Command, bool) {
	b := lc.Block
	if b == nil {
		return command.Command{}, false
	}
	for _, other := range ci.Commands {
		if other.Block == b && (other.Skip != "" || other.Phase == command.PhaseInstall) {
			return command.Command{}, false
		}
	}
	// The block runs in the executor's workspace, which is a git
	// repository whose one commit is the snapshot (CI's checkout), so a
	// block asserting on it (git diff --exit-code after a regeneration)
	// needs nothing more.
	run := "bash --noprofile --norc -e -c " + command.ShellQuote(b.Run)
	env := maps.Clone(lc.Env)
	return command.Command{Command: run, Display: b.Run, Workdir: b.Workdir, Env: env, Source: b.Source}, true
}
