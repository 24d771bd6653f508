package command

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/greenlight-dev/greenlight/pkg/toolchain/packs"
	"github.com/greenlight-dev/greenlight/services/discovery/internal/detect"
)

// ReportDir is where toolchain-default commands write machine-readable
// reports inside the sandbox (the tmpfs /tmp, never the workspace).
const ReportDir = "/tmp/greenlight/reports"

// Extraction is the commands of one subproject and notes about what could
// not be offered.
type Extraction struct {
	Commands []Command
	Notes    []string
}

// extractor collects the commands of one subproject.
type extractor struct {
	sp    detect.Subproject
	out   Extraction
	names map[string]bool
}

// Extract returns the commands of a subproject: toolchain defaults, the
// project's own scripts and Makefile targets, tool sections. Tiers follow
// the rules in README.md; Promote then makes sure tier0 holds a test and a
// hard-failure step whenever the subproject has one.
func Extract(sp detect.Subproject) Extraction {
	e := &extractor{sp: sp, names: map[string]bool{}}
	switch {
	case sp.Go != nil:
		e.golang()
	case sp.Python != nil:
		e.python()
	case sp.Node != nil:
		e.node()
	case sp.Toolchain != nil:
		if p, ok := packs.Registry.Lookup(sp.Runtime); ok {
			e.pack(p)
		}
	case sp.Java != nil:
		e.java()
	case sp.Cpp != nil:
		e.cpp()
	}
	if sp.Make != nil {
		e.makefile()
	}
	e.promote()
	return e.out
}

// add appends a command, filling in the subproject defaults.
func (e *extractor) add(c Command) {
	c.Name = e.uniqueName(c.Name)
	if c.Workdir == "" {
		c.Workdir = e.sp.Root
	}
	c.Subproject = e.sp.Root
	c.Runtime = e.sp.Runtime
	if c.Level == LevelUnspecified {
		c.Level = DefaultLevel(c.Phase)
	}
	if c.Tier == TierUnspecified {
		c.Tier = Tier0
	}
	c.Network = c.Phase == PhaseInstall
	if c.Phase == PhaseInstall {
		c.CacheKeyFiles = withInstallFiles(c.CacheKeyFiles, e.sp.InstallFiles)
	}
	// Discovered lint and typecheck steps are advisory: the maintainers
	// may not run them (or not with the image's version of the tool), so
	// they run, are reported and scored, but never fail the verdict nor
	// stop the steps after them. greenlight.yaml "required" promotes one.
	c.ContinueOnFailure = Advisory(c.Phase)
	c.Optional = Advisory(c.Phase)
	e.out.Commands = append(e.out.Commands, c)
}

// withInstallFiles appends to an install step's key files (its lockfiles
// first) every other file that can change the install.
func withInstallFiles(keys, all []string) []string {
	for _, f := range all {
		if !slices.Contains(keys, f) {
			keys = append(keys, f)
		}
	}
	return keys
}

func (e *extractor) note(format string, args ...any) {
	e.out.Notes = append(e.out.Notes, fmt.Sprintf(format, args...))
}

// uniqueName prefixes the subproject root ("web:npm-test") and makes the
// name unique within the subproject.
func (e *extractor) uniqueName(local string) string {
	name := local
	if e.sp.Root != "." {
		name = e.sp.Root + ":" + local
	}
	base := name
	for i := 2; e.names[name]; i++ {
		name = fmt.Sprintf("%s-%d", base, i)
	}
	e.names[name] = true
	return name
}

// rel makes a workspace-relative path relative to the subproject root.
func (e *extractor) rel(name string) string {
	if e.sp.Root == "." {
		return name
	}
	return strings.TrimPrefix(name, e.sp.Root+"/")
}

// file returns a workspace-relative file in the subproject root.
func (e *extractor) file(base string) string {
	if e.sp.Root == "." {
		return base
	}
	return e.sp.Root + "/" + base
}

// promote makes sure tier0 of the subproject holds a test step and a
// hard-failure step when any non-tier2 command offers one: a project whose
// only test entry point is "make test" still gets tested by default.
func (e *extractor) promote() {
	cmds := e.out.Commands
	has := func(ok func(Command) bool) bool {
		for _, c := range cmds {
			if c.Tier == Tier0 && ok(c) {
				return true
			}
		}
		return false
	}
	lift := func(ok func(Command) bool) {
		for i := range cmds {
			if cmds[i].Tier == Tier1 && ok(cmds[i]) {
				cmds[i].Tier = Tier0
				return
			}
		}
	}
	isTest := func(c Command) bool { return c.Phase == PhaseTest }
	isHard := func(c Command) bool { return c.Phase != PhaseInstall && c.Level.Hard() }
	if !has(isTest) {
		lift(isTest)
	}
	if !has(isHard) {
		lift(isHard)
	}
}

// safeWord matches script names, targets and identifiers that can be put
// into a shell command line without quoting.
var safeWord = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_.:@/+\-]*$`)

// fileName turns a command name into a safe report file name.
func fileName(name string) string {
	return strings.NewReplacer(":", "_", "/", "_").Replace(name)
}
