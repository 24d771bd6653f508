package patch

import (
	"errors"
	"fmt"
)

// Sentinel errors; every error of the package wraps at most one of them.
var (
	// ErrNoPatch means the text holds nothing that looks like a patch.
	ErrNoPatch = errors.New("no patch found")
	// ErrMalformed means the text looks like a patch but cannot be read.
	ErrMalformed = errors.New("malformed patch")
	// ErrRefused means a guardrail refused the patch; the error is a
	// *Refusal saying which and why.
	ErrRefused = errors.New("patch refused")
	// ErrDoesNotApply means a hunk's context is not in the file, or the
	// file is missing (or present) against the patch's expectation; the
	// error is an *ApplyError naming the file and hunk.
	ErrDoesNotApply = errors.New("patch does not apply")
	// ErrSnapshot means the snapshot could not be unpacked (it is unsafe,
	// too large or malformed); nothing about the patch is known.
	ErrSnapshot = errors.New("snapshot cannot be unpacked")
	// ErrRepack means the patched tree could not be packed back into a
	// snapshot faithfully.
	ErrRepack = errors.New("patched workspace cannot be re-packed")
)

// Rule names a guardrail, as reported in a Refusal.
type Rule string

// The guardrails a patch can break.
const (
	RulePath          Rule = "path"           // absolute, "..", .git, outside the workspace
	RuleAllowList     Rule = "allow-list"     // outside Guardrails.AllowedGlobs
	RuleSymlink       Rule = "symlink"        // adds a symlink or writes through one
	RuleMode          Rule = "mode"           // a file mode other than 644/755
	RuleBinary        Rule = "binary"         // binary patch or NUL bytes
	RuleSize          Rule = "size"           // over the byte cap
	RuleChangedLines  Rule = "changed-lines"  // over the changed-line cap
	RuleTestDeletion  Rule = "test-deletion"  // deletes or renames away a test file
	RuleTestSkip      Rule = "test-skip"      // adds a skip marker
	RuleTestWeakening Rule = "test-weakening" // removes assertions
	RuleTestEdit      Rule = "test-edit"      // edits an existing test file
	RuleTestAddition  Rule = "test-addition"  // adds a test file, fixture or test data
	RuleLockfile      Rule = "lockfile"       // edits a dependency lockfile
	RuleConflict      Rule = "conflict"       // touches one path twice
	RuleConfig        Rule = "config"         // edits verification config
	RuleSuspicious    Rule = "suspicious"     // the suspicion audit: library code that games the tests (audit.go)
)

// Refusal is a guardrail's verdict on a patch. Its message is written for
// the model that proposed the patch: it says what rule was broken, where,
// and what to do instead.
type Refusal struct {
	Rule   Rule
	Path   string // the file concerned; empty for whole-patch rules
	Reason string
}

// Error renders the refusal for a person or a model.
func (r *Refusal) Error() string {
	if r.Path == "" {
		return fmt.Sprintf("%v (%s): %s", ErrRefused, r.Rule, r.Reason)
	}
	return fmt.Sprintf("%v (%s): %s: %s", ErrRefused, r.Rule, r.Path, r.Reason)
}

// Unwrap returns ErrRefused, for errors.Is.
func (r *Refusal) Unwrap() error { return ErrRefused }

// refuse builds a Refusal.
func refuse(rule Rule, path, format string, args ...any) *Refusal {
	return &Refusal{Rule: rule, Path: path, Reason: fmt.Sprintf(format, args...)}
}

// ApplyError says which file and hunk of a patch did not apply, and why.
type ApplyError struct {
	Path string
	// Hunk is the 1-based index of the hunk within its file; 0 when the
	// file itself is the problem (missing, already present).
	Hunk   int
	Reason string
}

// Error renders the failure for a person or a model.
func (e *ApplyError) Error() string {
	if e.Hunk == 0 {
		return fmt.Sprintf("%v: %s: %s", ErrDoesNotApply, e.Path, e.Reason)
	}
	return fmt.Sprintf("%v: %s: hunk #%d: %s", ErrDoesNotApply, e.Path, e.Hunk, e.Reason)
}

// Unwrap returns ErrDoesNotApply, for errors.Is.
func (e *ApplyError) Unwrap() error { return ErrDoesNotApply }

// malformed wraps ErrMalformed with a message.
func malformed(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrMalformed, fmt.Sprintf(format, args...))
}
