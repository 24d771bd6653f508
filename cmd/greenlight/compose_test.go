package main

import (
	"bytes"
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestComposeStack runs scripts/compose-test.sh: the four service images
// built offline, docker compose up, `greenlight verify --addr` of the
// bundled examples through the gateway (with its bearer token), down.
func TestComposeStack(t *testing.T) {
	requireDocker(t)
	script, _ := filepath.Abs(filepath.Join("..", "..", "scripts", "compose-test.sh"))
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", script)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	text := out.String()
	if err != nil {
		t.Fatalf("scripts/compose-test.sh failed (%v); its output ends:\n%s", err, tail(text, 60))
	}
	for _, want := range []string{"compose-test: PASS", " PASS  execution passed", "tests/test_temperature.py:17"} {
		if !strings.Contains(text, want) {
			t.Errorf("compose test output lacks %q:\n%s", want, tail(text, 60))
		}
	}
}

// tail returns the last n lines of s.
func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
