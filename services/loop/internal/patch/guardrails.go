package patch

import (
	"errors"
	"fmt"

	"github.com/bmatcuk/doublestar/v4"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// Default guardrail caps.
const (
	DefaultMaxBytes        int64 = 64 << 10
	DefaultMaxChangedLines       = 200
)

// ErrInvalidGuardrails means a guardrail configuration cannot be used (a
// malformed glob).
var ErrInvalidGuardrails = errors.New("invalid guardrails")

// Guardrails bound what a patch may do. The zero value is the defaults:
// 64 KiB, 200 changed lines, the whole workspace, no test, lockfile or
// verification config edits. A negative cap means no limit.
type Guardrails struct {
	// AllowedGlobs are doublestar globs ("src/**", "**/*.py") of the paths
	// a patch may touch; empty means the whole workspace. A glob without
	// wildcards also admits everything below it, as a directory.
	AllowedGlobs []string
	// MaxBytes caps the patch text's size.
	MaxBytes int64
	// MaxChangedLines caps lines added plus lines removed.
	MaxChangedLines int
	// AllowTestChanges lets a patch edit, delete, skip or weaken tests.
	AllowTestChanges bool
	// AllowLockfileEdits lets a patch edit dependency lockfiles.
	AllowLockfileEdits bool
	// AllowConfigChanges lets a patch edit verification config (see
	// configGlobs and checkConfigContent). Only the caller's own options
	// may set it, never the repository's config.
	AllowConfigChanges bool
	// ConfigPaths are more workspace paths treated as verification config:
	// the files the run's pinned plan reads (a Makefile when a step runs
	// make, a script a step runs). Exact paths, not globs.
	ConfigPaths []string
	// TestPaths are more workspace paths treated as tests: the files the
	// baseline run collected tests from (whatever their names) and the
	// caller's hidden tests. Exact paths, not globs.
	TestPaths []string
	// Trusted marks the caller's own diff (its hidden tests), not a
	// model's: the suspicion audit, which judges how library code treats
	// the tests, does not apply to it.
	Trusted bool
}

// checkSuspiciousUnlessTrusted is the suspicion audit for patches that
// are not the caller's own.
func checkSuspiciousUnlessTrusted(p *Patch, g Guardrails) *Refusal {
	if g.Trusted {
		return nil
	}
	return checkSuspicious(p, g)
}

// isTest reports whether a workspace path is a test, by name or because
// the run knows it holds tests (TestPaths).
func (g Guardrails) isTest(p string) bool {
	if isTestPath(p) {
		return true
	}
	for _, t := range g.TestPaths {
		if t == p {
			return true
		}
	}
	return false
}

// GuardrailsFromProto converts the API's guardrails, validating the globs.
// A nil message gives the defaults.
func GuardrailsFromProto(g *glv1.Guardrails) (Guardrails, error) {
	out := Guardrails{
		AllowedGlobs:       append([]string(nil), g.GetAllowedGlobs()...),
		MaxBytes:           g.GetMaxBytes(),
		MaxChangedLines:    int(g.GetMaxChangedLines()),
		AllowTestChanges:   g.GetAllowTestChanges(),
		AllowLockfileEdits: g.GetAllowLockfileEdits(),
		AllowConfigChanges: g.GetAllowConfigChanges(),
	}
	return out, out.Validate()
}

// Proto converts the guardrails to the API message, defaults filled in.
func (g Guardrails) Proto() *glv1.Guardrails {
	d := g.withDefaults()
	return &glv1.Guardrails{
		AllowedGlobs:       append([]string(nil), d.AllowedGlobs...),
		MaxBytes:           d.MaxBytes,
		MaxChangedLines:    int32(d.MaxChangedLines),
		AllowTestChanges:   d.AllowTestChanges,
		AllowLockfileEdits: d.AllowLockfileEdits,
		AllowConfigChanges: d.AllowConfigChanges,
	}
}

// Validate checks the globs.
func (g Guardrails) Validate() error {
	for _, glob := range g.AllowedGlobs {
		if glob == "" || !doublestar.ValidatePattern(glob) {
			return fmt.Errorf("%w: allowed glob %q is not a valid glob", ErrInvalidGuardrails, glob)
		}
	}
	return nil
}

// withDefaults fills zero caps.
func (g Guardrails) withDefaults() Guardrails {
	if g.MaxBytes == 0 {
		g.MaxBytes = DefaultMaxBytes
	}
	if g.MaxChangedLines == 0 {
		g.MaxChangedLines = DefaultMaxChangedLines
	}
	return g
}

// allowed reports whether a path is inside the allow-list.
func (g Guardrails) allowed(p string) bool {
	if len(g.AllowedGlobs) == 0 {
		return true
	}
	for _, glob := range g.AllowedGlobs {
		if match(glob, p) || match(glob+"/**", p) {
			return true
		}
	}
	return false
}

// match is doublestar.Match with invalid patterns matching nothing.
func match(glob, p string) bool {
	ok, err := doublestar.Match(glob, p)
	return err == nil && ok
}

// over reports whether value exceeds limit, a negative limit meaning none.
func over[T int | int64](value, limit T) bool { return limit >= 0 && value > limit }
