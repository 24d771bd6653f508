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

// version is set at build time with -ldflags "-X main.version=...".
var version string

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := cli.Main(ctx, os.Args[1:], cli.Env{
		Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv, Version: version,
	})
	stop()
	os.Exit(code)
}
