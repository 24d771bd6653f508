// Command greenlight-runner is greenlight's step runner inside the sandbox
// images (installed root-owned at /usr/local/libexec/greenlight/runner by
// images/build.sh). The executor starts it with one `docker exec` per
// sandbox and sends it the steps over stdin; see internal/steprunner and
// internal/runnerproto. Standard library only, built with CGO_ENABLED=0.
package main

import (
	"os"

	"github.com/greenlight-dev/greenlight/services/executor/internal/steprunner"
)

func main() {
	os.Exit(steprunner.Main(os.Args[1:], os.Stdout, os.Stderr))
}
