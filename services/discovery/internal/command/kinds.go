package command

import (
	"fmt"
	"strings"
	"time"
)

// Phase is what a command does. The numbering matches greenlight.v1.Phase so
// the service boundary converts by a plain cast (a test pins this).
type Phase int

// Phases, in pipeline order (install first, smoke last).
const (
	PhaseUnspecified Phase = iota
	PhaseInstall
	PhaseBuild
	PhaseTypecheck
	PhaseLint
	PhaseTest
	PhaseSmoke
	PhaseSecurity
)

var phaseNames = map[Phase]string{
	PhaseInstall: "install", PhaseBuild: "build", PhaseTypecheck: "typecheck",
	PhaseLint: "lint", PhaseTest: "test", PhaseSmoke: "smoke", PhaseSecurity: "security",
}

// String returns the lower-case name used in configuration files.
func (p Phase) String() string {
	if s, ok := phaseNames[p]; ok {
		return s
	}
	return "unspecified"
}

// ParsePhase reads a phase name as written in greenlight.yaml.
func ParsePhase(s string) (Phase, error) {
	for p, name := range phaseNames {
		if name == s {
			return p, nil
		}
	}
	return PhaseUnspecified, fmt.Errorf("unknown phase %q (want one of install, build, typecheck, lint, test, smoke, security)", s)
}

// Level is the strength of a verification signal; numbering matches
// greenlight.v1.Level.
type Level int

// Levels from weakest to strongest.
const (
	LevelUnspecified Level = iota
	LevelL1
	LevelL2
	LevelL3
	LevelL4
)

// String returns "L2", "L3", ... .
func (l Level) String() string {
	if l == LevelUnspecified {
		return "unspecified"
	}
	return fmt.Sprintf("L%d", int(l))
}

// ParseLevel reads "L2", "L3" or "L4" (case-insensitive). L1 (model
// reasoning) is refused: a configured command is always executed.
func ParseLevel(s string) (Level, error) {
	switch strings.ToUpper(s) {
	case "L2":
		return LevelL2, nil
	case "L3":
		return LevelL3, nil
	case "L4":
		return LevelL4, nil
	}
	return LevelUnspecified, fmt.Errorf("unknown level %q (want L2, L3 or L4)", s)
}

// Hard reports whether a level can fail a pipeline on its own: build,
// compile, startup (L3) or test assertions (L4).
func (l Level) Hard() bool { return l >= LevelL3 }

// Tier says when a command is selected; numbering matches greenlight.v1.Tier.
type Tier int

// Tiers.
const (
	TierUnspecified Tier = iota
	Tier0
	Tier1
	Tier2
)

// String returns "tier0", "tier1" or "tier2".
func (t Tier) String() string {
	switch t {
	case Tier0, Tier1, Tier2:
		return fmt.Sprintf("tier%d", int(t)-1)
	}
	return "unspecified"
}

// ParseTier reads "tier0", "tier1" or "tier2".
func ParseTier(s string) (Tier, error) {
	switch strings.ToLower(s) {
	case "tier0":
		return Tier0, nil
	case "tier1":
		return Tier1, nil
	case "tier2":
		return Tier2, nil
	}
	return TierUnspecified, fmt.Errorf("unknown tier %q (want tier0, tier1 or tier2)", s)
}

// DefaultLevel is the level a phase reaches when nothing says otherwise.
// Install proves nothing about the code, so it has no level.
func DefaultLevel(p Phase) Level {
	switch p {
	case PhaseTest:
		return LevelL4
	case PhaseBuild, PhaseSmoke:
		return LevelL3
	case PhaseTypecheck, PhaseLint, PhaseSecurity:
		return LevelL2
	}
	return LevelUnspecified
}

// DefaultTimeout is the per-phase timeout used when neither the command nor
// the repository configuration sets one. Installs, builds and test suites
// get the most room (a C++ project's test build takes minutes on two
// cores: fmt's needs more than five); a smoke run (import, --help) that
// takes a minute is a hang.
func DefaultTimeout(p Phase) time.Duration {
	switch p {
	case PhaseInstall, PhaseBuild, PhaseTest:
		return 10 * time.Minute
	case PhaseSmoke:
		return time.Minute
	}
	return 5 * time.Minute
}
