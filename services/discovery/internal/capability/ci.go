package capability

import (
	"fmt"
	"strings"

	"github.com/greenlight-dev/greenlight/pkg/pylaunch"
	"github.com/greenlight-dev/greenlight/pkg/toolchain"
	"github.com/greenlight-dev/greenlight/pkg/toolchain/packs"
	"github.com/greenlight-dev/greenlight/services/discovery/internal/cisource"
	"github.com/greenlight-dev/greenlight/services/discovery/internal/command"
)

// learn applies what the repository's own CI runs (cisource): a discovered
// advisory step the maintainers run becomes required, CI commands join the
// whitelist, and a CI test command is added where discovery found no test.
// It runs before greenlight.yaml's tiers/required/advisory lists, which
// therefore win.
func (c *Capabilities) learn(ci cisource.Learned) {
	c.Notes = append(c.Notes, ci.Notes...)
	for i := range c.Commands {
		cmd := &c.Commands[i]
		// Only a check (lint, typecheck) is promoted: an install step is
		// advisory by design where a required one follows it (Python's
		// pip-install and pip-fallback), and CI's own install says nothing
		// about whether the offline one can succeed.
		if !cmd.Optional || configuredOrigin(*cmd) || (cmd.Phase != command.PhaseLint && cmd.Phase != command.PhaseTypecheck) {
			continue
		}
		if by, ok := c.maintainersRun(*cmd, ci); ok {
			cmd.Optional = false
			src := by.Source
			cmd.RequiredBy = &src
			c.Notes = append(c.Notes, fmt.Sprintf("%s is required: the maintainers run it (%s:%d `%s`)", cmd.Name, by.Source.File, by.Source.Line, clip(by.Run)))
		}
	}
	c.adoptIgnoreScripts(ci)
	c.whitelistCI(ci)
}

// maintainersRun finds a learned command that runs the same tool as a
// discovered one, in the same subproject, over at least the same files.
func (c *Capabilities) maintainersRun(cmd command.Command, ci cisource.Learned) (cisource.Command, bool) {
	for _, part := range cisource.Parts(pylaunch.Readable(cmd.Command)) {
		inv, ok := cisource.Parse(part)
		if !ok {
			continue
		}
		for _, lc := range ci.Commands {
			for _, t := range lc.Tools {
				root, _ := c.owner(t.Dir)
				if t.Key == inv.Key && root == cmd.Subproject && covers(t, inv.Args) {
					return lc, true
				}
			}
		}
	}
	return cisource.Command{}, false
}

// covers reports whether the maintainers' invocation checks at least what
// the discovered one does: make targets and package.json scripts are the
// same whatever follows them; for other tools the maintainers' targets
// must be the whole project (none, ".", "./...", for go only "./...") or
// include the discovered ones, so "mypy typing_tests" does not vouch for
// "mypy ." nor "go vet ." for "go vet ./...".
func covers(t cisource.Tool, discovered []string) bool {
	if strings.HasPrefix(t.Key, "script:") || strings.HasPrefix(t.Key, "make") {
		return true
	}
	ci := positional(t.Args)
	if len(ci) == 0 {
		return true
	}
	for _, a := range ci {
		// For go, "." is one package; "./..." is the module.
		if a == "./..." || !strings.HasPrefix(t.Key, "go ") && (a == "." || a == "./") {
			return true
		}
	}
	for _, d := range positional(discovered) {
		found := false
		for _, a := range ci {
			found = found || a == d
		}
		if !found {
			return false
		}
	}
	return len(positional(discovered)) > 0
}

// positional returns the words that are not options.
func positional(args []string) []string {
	var out []string
	for _, a := range args {
		if !strings.HasPrefix(a, "-") {
			out = append(out, a)
		}
	}
	return out
}

// whitelistCI adds the runnable CI commands to the whitelist (tier2, not
// in the default pipeline: a model may select them) and, when no
// configuration file defines the pipeline, the first offline CI test
// command of each subproject for which discovery found no test to the
// default pipeline (tier0, required).
func (c *Capabilities) whitelistCI(ci cisource.Learned) {
	names := map[string]bool{}
	for _, cmd := range c.Commands {
		names[cmd.Name] = true
	}
	blockAdded := map[*cisource.Block]bool{}
	for _, lc := range ci.Commands {
		if !lc.FromCI || lc.Skip != "" || !whitelistable(lc.Phase) || c.known(lc) {
			continue
		}
		root, runtime := c.owner(lc.Workdir)
		cmd := command.Command{
			Name: uniqueName(names, "ci:"+slug(lc.Label)), Phase: lc.Phase, Level: command.DefaultLevel(lc.Phase),
			Tier: command.Tier2, Command: lc.Run, Workdir: lc.Workdir, Env: lc.Env, Source: lc.Source,
			Subproject: root, Runtime: runtime, ContinueOnFailure: command.Advisory(lc.Phase),
		}
		what := fmt.Sprintf("`%s` (%s:%d)", clip(lc.Run), lc.Source.File, lc.Source.Line)
		// A test line stands for its whole run: block, which CI runs as
		// one script: the block's first test line carries it.
		if whole, ok := wholeBlock(lc, ci); ok && lc.Phase == command.PhaseTest && !blockAdded[lc.Block] {
			blockAdded[lc.Block] = true
			cmd.Command, cmd.Display, cmd.Workdir, cmd.Env, cmd.Source = whole.Command, whole.Display, whole.Workdir, whole.Env, whole.Source
			what = fmt.Sprintf("the whole run: block of %s:%d, as CI runs it (bash -e), from its line `%s`", lc.Block.Source.File, lc.Block.Source.Line, clip(lc.Run))
		}
		if why := c.addable(lc, root); why == "" {
			cmd.Tier = command.Tier0
			c.Default[cmd.Name] = true
			c.Notes = append(c.Notes, fmt.Sprintf("added the maintainers' test command %s, %s: discovery found no test for %s", cmd.Name, what, root))
		}
		c.Commands = append(c.Commands, cmd)
	}
}

// addable says why a CI command is not added to the default pipeline, or
// "" when it is: a test, in a workspace whose pipeline no file defines,
// of a known subproject with no default test yet, running only tools that
// work offline on installed dependencies, with nothing left for a shell
// variable to decide.
func (c *Capabilities) addable(lc cisource.Command, root string) string {
	switch {
	case lc.Phase != command.PhaseTest:
		return "not a test"
	case c.Configured:
		return "the pipeline is configured"
	case root == "":
		return "outside every subproject (no image to run it in)"
	case strings.Contains(lc.Run, "$"):
		return "depends on shell variables"
	case !offline(lc.Run):
		return "runs a tool that may need the network"
	}
	for _, cmd := range c.Commands {
		if cmd.Phase == command.PhaseTest && cmd.Subproject == root && c.Default[cmd.Name] && cmd.Tier == command.Tier0 {
			return "discovery already tests " + root
		}
	}
	return ""
}

// offlineTools run a project's tests with what the install phase put in
// place; anything else (tox and nox build environments, Maven and Gradle
// fetch plugins) may need the network the sandbox does not have.
var offlineTools = append([]string{"make", "gmake", "go test", "pytest", "unittest", "bun test", "ctest"},
	packs.Registry.Collect(func(s *toolchain.Spec) []string { return s.Words.OfflineTest })...)

func offline(run string) bool {
	for _, part := range cisource.Parts(run) {
		inv, ok := cisource.Parse(part)
		if !ok || inv.Key == "cd" || inv.Key == "echo" || inv.Key == "true" {
			continue
		}
		prog, _, _ := strings.Cut(inv.Key, " ")
		if !strings.HasPrefix(inv.Key, "script:") && !containsStr(offlineTools, inv.Key) && !containsStr(offlineTools, prog) {
			return false
		}
	}
	return true
}

// known reports whether the whitelist already holds the same command line
// in the same directory.
func (c *Capabilities) known(lc cisource.Command) bool {
	for _, cmd := range c.Commands {
		if cmd.Workdir == lc.Workdir && strings.Join(strings.Fields(cmd.Command), " ") == strings.Join(strings.Fields(lc.Run), " ") {
			return true
		}
	}
	return false
}

func whitelistable(p command.Phase) bool {
	switch p {
	case command.PhaseTest, command.PhaseBuild, command.PhaseLint, command.PhaseTypecheck, command.PhaseSecurity, command.PhaseSmoke:
		return true
	}
	return false
}

// slug turns a job/step label into name characters.
func slug(label string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(label) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
	}
	s := strings.TrimSuffix(b.String(), "-")
	if len(s) > 40 {
		s = strings.TrimSuffix(s[:40], "-")
	}
	if s == "" {
		s = "step"
	}
	return s
}

func uniqueName(names map[string]bool, base string) string {
	name := base
	for i := 2; names[name]; i++ {
		name = fmt.Sprintf("%s-%d", base, i)
	}
	names[name] = true
	return name
}

// configuredOrigin reports whether a command comes from a configuration
// file (greenlight.yaml, agent.yaml, runr.config.json).
func configuredOrigin(c command.Command) bool {
	return c.Source.Origin != command.OriginDiscovered && c.Source.Origin != command.OriginDefault && c.Source.Origin != cisource.Origin
}

func clip(s string) string {
	if len(s) > 80 {
		return s[:77] + "..."
	}
	return s
}

func containsStr(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
