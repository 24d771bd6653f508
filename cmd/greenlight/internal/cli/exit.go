package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/greenlight-dev/greenlight/cmd/greenlight/internal/stack"
	"github.com/greenlight-dev/greenlight/cmd/greenlight/internal/termtext"
)

// Exit codes.
const (
	// ExitPass: the command succeeded; for verify and fix, the verdict is PASS.
	ExitPass = 0
	// ExitFail: the verdict is FAIL (the code under verification is at fault).
	ExitFail = 1
	// ExitError: bad usage or input, or infrastructure trouble; nothing can be
	// concluded about the code.
	ExitError = 2
)

// exitError carries an exit code through cobra. A quiet one prints nothing
// (the command already explained itself, e.g. with a FAIL summary).
type exitError struct {
	code  int
	err   error
	quiet bool
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit %d", e.code)
	}
	return e.err.Error()
}

func (e *exitError) Unwrap() error { return e.err }

// failed is the quiet FAIL exit.
func failed() error { return &exitError{code: ExitFail, quiet: true} }

// usageError marks bad arguments or flags (exit 2).
type usageError struct{ err error }

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

// usagef builds a usage error.
func usagef(format string, args ...any) error {
	return &usageError{err: fmt.Errorf(format, args...)}
}

// exitCode maps an error to an exit code and the one line to print ("" for
// none).
func exitCode(cmd string, err error) (int, string) {
	if err == nil {
		return ExitPass, ""
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.quiet || ee.err == nil {
			return ee.code, ""
		}
		return ee.code, line(cmd, ee.err)
	}
	var locked *stack.LockedError
	if errors.As(err, &locked) {
		return ExitError, "greenlight: " + oneLine(locked.Error())
	}
	return ExitError, line(cmd, err)
}

// line renders "greenlight: CMD: reason" on one line.
func line(cmd string, err error) string {
	prefix := "greenlight: "
	if cmd != "" && cmd != "greenlight" {
		prefix += cmd + ": "
	}
	// Errors may quote the sandbox or the repository (a failing command,
	// a reason): no control sequence reaches the terminal.
	return prefix + oneLine(termtext.Clean(describe(err)))
}

// describe turns gRPC statuses and context errors into words a person can
// act on.
func describe(err error) string {
	switch {
	case errors.Is(err, context.Canceled):
		return "interrupted"
	case errors.Is(err, context.DeadlineExceeded):
		return "timed out"
	}
	var se interface{ GRPCStatus() *status.Status }
	if !errors.As(err, &se) {
		return err.Error()
	}
	st := se.GRPCStatus()
	switch st.Code() {
	case codes.Unavailable:
		return "greenlight is not reachable: " + st.Message()
	case codes.Unauthenticated:
		return "not authenticated (pass --token or set GREENLIGHT_TOKEN): " + st.Message()
	case codes.Canceled:
		return "interrupted"
	}
	return st.Message()
}

// oneLine folds a multi-line message into one line.
func oneLine(s string) string {
	s = strings.TrimSpace(s)
	fields := strings.FieldsFunc(s, func(r rune) bool { return r == '\n' || r == '\r' })
	for i := range fields {
		fields[i] = strings.TrimSpace(fields[i])
	}
	return strings.Join(fields, " ")
}
