package cli

import (
	"context"
	"errors"
	"os"
	"syscall"
)

// Interrupted is the cause main gives the command's context when a signal
// (Ctrl-C's SIGINT, SIGTERM) stops the command.
type Interrupted struct{ Signal os.Signal }

func (i Interrupted) Error() string { return "interrupted by " + i.Signal.String() }

// ExitCode is the shells' convention for a command a signal ended:
// 128 + the signal's number (130 for SIGINT, 143 for SIGTERM).
func (i Interrupted) ExitCode() int {
	if s, ok := i.Signal.(syscall.Signal); ok {
		return 128 + int(s)
	}
	return 128 + int(syscall.SIGINT)
}

// interruptedExit replaces code with the signal's exit code when a signal
// stopped a command that then failed. A command that finished its work
// anyway keeps its code, as does serve, for which a signal is the normal
// way to stop (it exits 0 after a clean shutdown).
func interruptedExit(ctx context.Context, code int) int {
	var intr Interrupted
	if code != ExitPass && errors.As(context.Cause(ctx), &intr) {
		return intr.ExitCode()
	}
	return code
}
