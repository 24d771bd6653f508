package capability

import (
	"fmt"
	"maps"
	"strings"

	"github.com/greenlight-dev/greenlight/services/discovery/internal/cisource"
	"github.com/greenlight-dev/greenlight/services/discovery/internal/command"
)

// gitInspects are git commands a CI block uses to assert on the checkout:
// the sandbox's workspace is a snapshot without .git, so the block gets a
// repository whose only commit is the snapshot (what CI's checkout is).
var gitInspects = []string{"git diff", "git status", "git ls-files", "git stash list"}

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
	run := "bash --noprofile --norc -e -c " + command.ShellQuote(b.Run)
	env := maps.Clone(lc.Env)
	if inspectsGit(b.Run) {
		root := strings.TrimSuffix(strings.Repeat("../", depth(b.Workdir)), "/")
		if root == "" {
			root = "."
		}
		run = fmt.Sprintf("git -C %s rev-parse --git-dir >/dev/null 2>&1 || { git -C %s init -q && git -C %s add -A && "+
			"git -C %s -c user.name=greenlight -c user.email=greenlight@localhost commit -q --no-verify -m snapshot; } >/dev/null\n%s",
			root, root, root, root, run)
		if env == nil {
			env = map[string]string{}
		}
		// the snapshot's files are not the sandbox user's: git would
		// refuse the repository as of dubious ownership
		env["GIT_CONFIG_COUNT"], env["GIT_CONFIG_KEY_0"], env["GIT_CONFIG_VALUE_0"] = "1", "safe.directory", "*"
	}
	return command.Command{Command: run, Display: b.Run, Workdir: b.Workdir, Env: env, Source: b.Source}, true
}

func inspectsGit(run string) bool {
	for _, g := range gitInspects {
		if strings.Contains(run, g) {
			return true
		}
	}
	return false
}

// depth counts the directories of a workspace-relative path ("." is 0).
func depth(dir string) int {
	if dir == "." || dir == "" {
		return 0
	}
	return strings.Count(dir, "/") + 1
}
