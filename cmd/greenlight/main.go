// Command greenlight is the greenlight CLI: verify a workspace, repair it,
// inspect runs, or serve the whole stack. See `greenlight --help`.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/greenlight-dev/greenlight/cmd/greenlight/internal/cli"
)

// version and commit are set at build time (make build):
// -ldflags "-X main.version=v1.2.3 -X main.commit=<full revision>".
// Left empty, the CLI reads what Go recorded in the binary.
var version, commit string

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := cli.Main(ctx, os.Args[1:], cli.Env{
		Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv, Version: version, Commit: commit,
	})
	stop()
	os.Exit(code)
}
