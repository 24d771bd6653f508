// Package repoconfig reads a repository's own verification configuration:
// greenlight.yaml (the full schema, see CONFIG.md), agent.yaml
// (verification.steps) and runr.config.json (verification.tier0/1/2,
// risk_triggers, max_verify_time_per_milestone).
//
// Every unknown key and invalid value is an *Error naming the file, line and
// key, wrapping ErrInvalid.
package repoconfig

import (
	"errors"
	"fmt"
)

// ErrInvalid marks an invalid configuration file.
var ErrInvalid = errors.New("invalid repository configuration")

// Error locates one configuration problem.
type Error struct {
	File string
	// Line is 1-based; 0 when the problem concerns the whole file.
	Line int
	// Key is the dotted path of the offending key, e.g. "steps[1].timeout".
	Key string
	Msg string
}

// Error formats as "file:line: key: message".
func (e *Error) Error() string {
	loc := e.File
	if e.Line > 0 {
		loc = fmt.Sprintf("%s:%d", e.File, e.Line)
	}
	if e.Key != "" {
		return fmt.Sprintf("%s: %s: %s", loc, e.Key, e.Msg)
	}
	return fmt.Sprintf("%s: %s", loc, e.Msg)
}

// Unwrap returns ErrInvalid.
func (e *Error) Unwrap() error { return ErrInvalid }
