package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestUpstreamImagesWhenTheRegistryIsUnreachable: --images upstream makes
// every runtime use the public images; where the registry cannot be reached
// the run ends ERROR (exit 2) saying so and how to go back to the offline
// images. Where the engine has the image or can pull it, the test is
// skipped (it is about the unreachable case).
func TestUpstreamImagesWhenTheRegistryIsUnreachable(t *testing.T) {
	requireDocker(t)
	const img = "python:3.12-slim"
	if exec.Command("docker", "image", "inspect", img).Run() == nil {
		t.Skipf("the engine already has %s", img)
	}
	u := newUser(t)
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "tests"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]string{"pytest.ini": "[pytest]\n", "tests/test_a.py": "def test_ok():\n    assert True\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	u.env = append(u.env, "GREENLIGHT_IMAGES=upstream")
	r := u.run(nil, "verify", dir)
	if exec.Command("docker", "image", "inspect", img).Run() == nil {
		t.Skipf("the registry is reachable here: %s was pulled", img)
	}
	r.wantExit(t, 2, "verify with GREENLIGHT_IMAGES=upstream and no registry")
	for _, want := range []string{"image " + img + " is not in the engine and its registry is unreachable", "--images offline", "GREENLIGHT_IMAGES=offline"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}
}
