package main

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// buildCLI builds the CLI with extra go build flags into a temporary
// directory.
func buildCLI(t *testing.T, flags ...string) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "greenlight")
	args := append(append([]string{"build"}, flags...), "-o", out, ".")
	if b, err := exec.Command("go", args...).CombinedOutput(); err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, b)
	}
	return out
}

// versionOf runs `greenlight --version` and `greenlight version --json`.
func versionOf(t *testing.T, binary string) (line string, info map[string]any) {
	t.Helper()
	b, err := exec.Command(binary, "--version").CombinedOutput()
	if err != nil {
		t.Fatalf("greenlight --version: %v\n%s", err, b)
	}
	j, err := exec.Command(binary, "version", "--json").Output()
	if err != nil {
		t.Fatalf("greenlight version --json: %v", err)
	}
	if err := json.Unmarshal(j, &info); err != nil {
		t.Fatalf("version --json is not JSON: %v\n%s", err, j)
	}
	return strings.TrimSpace(string(b)), info
}

// The version and commit make build stamps with -ldflags -X are what
// --version and version --json print.
func TestVersionStampedAtBuild(t *testing.T) {
	const commit = "0123456789abcdef0123456789abcdef01234567"
	binary := buildCLI(t, "-ldflags", "-X main.version=v1.2.3 -X main.commit="+commit)
	line, info := versionOf(t, binary)
	if !strings.HasPrefix(line, "greenlight v1.2.3 (commit 0123456789ab,") {
		t.Errorf("--version printed %q", line)
	}
	if info["version"] != "v1.2.3" || info["commit"] != commit {
		t.Errorf("version --json: %v", info)
	}
}

// A plain go build in a git checkout (no -ldflags) prints the revision Go
// recorded, never a bare "dev".
func TestVersionFromVCSData(t *testing.T) {
	head, err := exec.Command("git", "rev-parse", "HEAD").Output()
	if err != nil {
		t.Skipf("not in a git checkout: %v", err)
	}
	rev := strings.TrimSpace(string(head))
	line, info := versionOf(t, buildCLI(t, "-buildvcs=true"))
	if info["commit"] != rev || !strings.HasPrefix(info["version"].(string), "dev-"+rev[:12]) {
		t.Errorf("version --json of a go build at %s: %v", rev, info)
	}
	if !strings.Contains(line, "(commit "+rev[:12]) {
		t.Errorf("--version printed %q", line)
	}
}
