// Package command holds the runnable commands discovery finds or reads from
// repository configuration, and extracts them from detected subprojects.
//
// A Command is the domain twin of greenlight.v1.Step: the set of commands of
// a workspace is its whitelist, and a pipeline is an ordered subset of it.
package command

import (
	"slices"
	"time"
)

// Origins of a command (CommandSource.origin).
const (
	OriginDiscovered = "discovered"
	OriginDefault    = "default"
	OriginGreenlight = "greenlight.yaml"
	OriginAgent      = "agent.yaml"
	OriginRunr       = "runr.config.json"
	// OriginRequest: the verification request asked for the command
	// (VerifyOptions.security).
	OriginRequest = "request"
)

// Source records where a command came from.
type Source struct {
	// File relative to the workspace root ("web/package.json").
	File string
	// Key inside the file ("scripts.test", Makefile target "test").
	Key string
	// Line is 1-based, 0 when unknown.
	Line int
	// Origin is one of the Origin constants.
	Origin string
}

// Command is one runnable command.
type Command struct {
	// Name is unique within a workspace's whitelist ("go-test", "web:npm-lint").
	Name    string
	Phase   Phase
	Level   Level
	Tier    Tier
	Command string
	// Display is Command as a person would type it, when Command wraps it
	// (e.g. to tee a report file); empty means Command itself.
	Display string
	// Workdir is relative to the workspace root, "." for the root.
	Workdir string
	Env     map[string]string
	// Timeout zero means the phase default (see DefaultTimeout).
	Timeout time.Duration
	// Network is true only for install commands.
	Network           bool
	ContinueOnFailure bool
	// Optional marks an advisory step: it runs and is reported and scored,
	// but its failure never fails the verdict.
	Optional bool
	// RequiredBy is the CI line or greenlight.yaml entry that made a check
	// (advisory by default) required; nil otherwise. The loop tells a
	// check CI requires apart when its pinned version could not be
	// installed.
	RequiredBy *Source
	Group      string
	// FailureScope names the independent subproject whose later steps a
	// failure of this one skips (set by planning; empty: all of them).
	FailureScope string
	Source       Source
	// Needs are the programs the command calls, directly or through a
	// script of the workspace, that only some sandbox images provide
	// (gcc, cargo, node): planning runs the step where they exist.
	Needs []string
	// Subproject is the root of the subproject the command belongs to.
	Subproject string
	// Runtime is the runtime of that subproject (several may share a root).
	Runtime string
	// Image is the sandbox image, filled in by planning.
	Image string
	// CacheKeyFiles are the lockfiles/manifests that key the dependency
	// cache of an install command (workspace-relative paths).
	CacheKeyFiles []string
	// CachePaths hold installed dependencies, relative to Workdir.
	CachePaths []string
	// ReportFiles are machine-readable reports the command writes
	// (absolute sandbox paths), e.g. pytest's JUnit XML.
	ReportFiles []string
	// OptIn marks a command greenlight offers but plans only when asked
	// (greenlight.yaml names it in required, advisory or tiers, or a
	// selection does): the security phase's scanners.
	OptIn bool
	// Completes names the discovered command this one only makes sense
	// after (pip-fallback reads pip-install's log): a configured step that
	// replaces that command drops this one too.
	Completes string
}

// Clone returns a deep copy, so planning can adjust a command without
// touching the whitelist it came from.
func (c Command) Clone() Command {
	if c.Env != nil {
		env := make(map[string]string, len(c.Env))
		for k, v := range c.Env {
			env[k] = v
		}
		c.Env = env
	}
	c.CacheKeyFiles = slices.Clone(c.CacheKeyFiles)
	c.CachePaths = slices.Clone(c.CachePaths)
	c.ReportFiles = slices.Clone(c.ReportFiles)
	return c
}

// Advisory reports whether a discovered command of this phase is advisory
// by default: lint, typecheck and security findings are checks the
// maintainers may not run, while install, build and tests decide the
// verdict. greenlight.yaml "required" (or CI running the check) makes one
// decide it.
func Advisory(p Phase) bool { return p == PhaseLint || p == PhaseTypecheck || p == PhaseSecurity }
