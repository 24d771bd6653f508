package command

import "github.com/greenlight-dev/greenlight/services/discovery/internal/detect"

// makeRoles maps wanted Makefile targets to phase and tier. "check" is the
// GNU name of the test suite.
var makeRoles = map[string]struct {
	phase Phase
	tier  Tier
}{
	"test": {PhaseTest, Tier1}, "tests": {PhaseTest, Tier1}, "check": {PhaseTest, Tier1},
	"lint": {PhaseLint, Tier1}, "vet": {PhaseLint, Tier1}, "typecheck": {PhaseTypecheck, Tier1},
	"build": {PhaseBuild, Tier1}, "smoke": {PhaseSmoke, Tier1},
	"e2e": {PhaseTest, Tier2}, "integration": {PhaseTest, Tier2},
}

// makeOnly reports whether the Makefile is the subproject's only build: a
// bare Makefile, or a C/C++ project built by make.
func (e *extractor) makeOnly() bool {
	return e.sp.Runtime == detect.RuntimeMake || e.sp.Cpp != nil && e.sp.Cpp.BuildSystem == detect.BuildMake
}

// makefile whitelists the verifying targets. Next to a toolchain they are
// tier1 (the toolchain defaults give structured output); in a directory with
// nothing else they are the tier0 gate.
func (e *extractor) makefile() {
	mf := e.sp.Make
	for _, t := range mf.SortedTargets() {
		role := makeRoles[t]
		tier := role.tier
		if e.makeOnly() && tier == Tier1 {
			tier = Tier0
		}
		e.add(Command{Name: "make-" + t, Phase: role.phase, Tier: tier, Command: "make " + t,
			Source: Source{File: mf.File, Key: t, Line: mf.Targets[t], Origin: OriginDiscovered}})
	}
}
