// Command greenlight-runner is greenlight's step runner inside the sandbox
// images (installed root-owned at /usr/local/libexec/greenlight/runner by
// images/build.sh). It is the sandbox container's main process (`serve
// SECONDS`); the executor attaches to its stdin and stdout before the
// container starts and sends it the steps; see internal/steprunner and
// internal/runnerproto. Standard library only, built with CGO_ENABLED=0.
package main

import (
	"os"

	"github.com/greenlight-dev/greenlight/services/executor/internal/steprunner"
)

func main() {
	os.Exit(steprunner.Main(os.Args[1:], os.Stdout, os.Stderr))
}
