// Command greenlight is the greenlight CLI: verify a workspace, repair it,
// inspect runs, or serve the whole stack. See `greenlight --help`.
package main

import (
	"context"
	"os"
	"os/exec"
	"os/signal"
	"syscall"

	"github.com/greenlight-dev/greenlight/cmd/greenlight/internal/cli"
)

// version and commit are set at build time (make build):
// -ldflags "-X main.version=v1.2.3 -X main.commit=<full revision>".
// Left empty, the CLI reads what Go recorded in the binary.
var version, commit string

func main() {
	// The first SIGINT or SIGTERM cancels the command's context with the
	// signal as its cause: the command stops cleanly (an embedded run's
	// sandbox is removed) and exits 128+n, as shells expect (130 for
	// Ctrl-C). Later signals are swallowed until the command returns.
	ctx, cancel := context.WithCancelCause(context.Background())
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go func() {
		if s, ok := <-sigs; ok {
			cancel(cli.Interrupted{Signal: s})
		}
	}()
	code := cli.Main(ctx, os.Args[1:], cli.Env{
		Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv, Version: version, Commit: commit,
		Program: cli.ProgramName(os.Args[0], exec.LookPath),
	})
	signal.Stop(sigs)
	cancel(nil)
	os.Exit(code)
}
