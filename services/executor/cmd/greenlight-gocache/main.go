// Command greenlight-gocache serves the go command's build cache from
// layers over the GOCACHEPROG protocol: the go sandbox image sets
// GOCACHEPROG to it (installed root-owned at
// /usr/local/libexec/greenlight/gocache by images/go/setup.sh), so the
// image's prebuilt standard library is read where it lies instead of being
// copied into every container. See internal/gocache. Standard library
// only, built with CGO_ENABLED=0.
package main

import (
	"os"

	"github.com/greenlight-dev/greenlight/services/executor/internal/gocache"
)

func main() {
	os.Exit(gocache.Main(os.Args[1:], os.Getenv, os.Stdin, os.Stdout, os.Stderr))
}
