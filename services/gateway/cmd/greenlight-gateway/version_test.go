package main

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A release build stamps every service through pkg/server (make build and
// .goreleaser.yaml pass these -X flags): --version prints the stamp and
// exits 0 without starting anything.
func TestVersionFlagPrintsTheStamp(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "greenlight-gateway")
	const pkg = "github.com/greenlight-dev/greenlight/pkg/server"
	build := exec.Command("go", "build", "-ldflags",
		"-X "+pkg+".version=v0.0.0-test -X "+pkg+".commit=feedbeef", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "--version").Output()
	if err != nil {
		t.Fatalf("--version: %v", err)
	}
	if got, want := strings.TrimSpace(string(out)), "greenlight-gateway v0.0.0-test (commit feedbeef)"; got != want {
		t.Errorf("--version printed %q, want %q", got, want)
	}
}
