// Package e2e_test runs the loop end to end against the real discovery and
// executor binaries, a real Docker engine and the offline sandbox images.
// The tests skip unless GREENLIGHT_INTEGRATION is set; when it is set, a
// missing engine or image fails them.
package e2e_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/greenlight-dev/greenlight/pkg/server/servertest"
)

// envIntegration enables the tests.
const envIntegration = "GREENLIGHT_INTEGRATION"

// pythonImage is the sandbox image the Python tasks need.
const pythonImage = "greenlight/sandbox-python:latest"

// Binaries built once by TestMain (only when the tests will run).
var discoveryBin, executorBin, loopBin string

func TestMain(m *testing.M) {
	if os.Getenv(envIntegration) == "" {
		os.Exit(m.Run())
	}
	var cleanups []func()
	for _, b := range []struct {
		dst *string
		pkg string
	}{
		{&discoveryBin, "../../discovery/cmd/greenlight-discovery"},
		{&executorBin, "../../executor/cmd/greenlight-executor"},
		{&loopBin, "../cmd/greenlight-loop"},
	} {
		bin, cleanup, err := servertest.BuildForMain(b.pkg)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		*b.dst = bin
		cleanups = append(cleanups, cleanup)
	}
	code := m.Run()
	for _, c := range cleanups {
		c()
	}
	os.Exit(code)
}

// integration skips t unless GREENLIGHT_INTEGRATION is set; then a missing
// engine or image fails it.
func integration(t testing.TB) {
	t.Helper()
	if os.Getenv(envIntegration) == "" {
		t.Skip("needs Docker and the sandbox images: set " + envIntegration + "=1 (make test does)")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if out, err := exec.CommandContext(ctx, "docker", "image", "inspect", "--format", "{{.Id}}", pythonImage).CombinedOutput(); err != nil {
		t.Fatalf("the Docker engine or %s is missing (run `make engine images`): %v\n%s", pythonImage, err, out)
	}
}
