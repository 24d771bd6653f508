package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// readmeGrpcurl is the README's block of grpcurl lines.
var readmeGrpcurl = regexp.MustCompile("(?s)<!-- grpcurl-example -->\n```sh\n(.*?)```")

// TestReadmeGrpcurlWithToken runs the README's grpcurl lines, as written,
// against a `greenlight serve --token`: each one gets through (the last
// one names a run that does not exist: NotFound, never Unauthenticated),
// and the same line without its authorization header is refused.
func TestReadmeGrpcurlWithToken(t *testing.T) {
	requireDocker(t)
	grpcurl, err := filepath.Abs(filepath.Join("..", "..", ".bin", "grpcurl"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(grpcurl); err != nil {
		if grpcurl, err = exec.LookPath("grpcurl"); err != nil {
			t.Fatalf("no grpcurl in .bin/ or on PATH: run make tools")
		}
	}
	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	m := readmeGrpcurl.FindSubmatch(b)
	if m == nil {
		t.Fatal("README.md has no <!-- grpcurl-example --> block")
	}
	const token = "readme-grpcurl-token-0123456789abcdef"
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s := startServe(t, ctx, newUser(t), "--token", token)

	run := func(line string) (string, error) {
		cctx, ccancel := context.WithTimeout(ctx, 30*time.Second)
		defer ccancel()
		line = strings.ReplaceAll(line, "127.0.0.1:7070", s.gateway)
		line = strings.Replace(line, "grpcurl ", grpcurl+" ", 1)
		cmd := exec.CommandContext(cctx, "bash", "-c", line)
		cmd.Env = append(os.Environ(), "TOKEN="+token)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	lines := strings.Split(strings.TrimSpace(string(m[1])), "\n")
	if len(lines) < 4 {
		t.Fatalf("the grpcurl block has %d lines", len(lines))
	}
	for _, line := range lines {
		if !strings.Contains(line, `-H "authorization: Bearer $TOKEN"`) {
			t.Errorf("README grpcurl line without the token header: %s", line)
			continue
		}
		out, err := run(line)
		switch {
		case strings.Contains(line, `"RUN"`):
			if err == nil || !strings.Contains(out, "NotFound") {
				t.Errorf("%s: %v\n%s\nwant NotFound for the placeholder run", line, err, out)
			}
		case err != nil:
			t.Errorf("%s: %v\n%s", line, err, out)
		case strings.Contains(line, "Health/Check") && !strings.Contains(out, "SERVING"):
			t.Errorf("%s:\n%s", line, out)
		}
		bare, err := run(strings.Replace(line, `-H "authorization: Bearer $TOKEN" `, "", 1))
		if err == nil || !strings.Contains(bare, "Unauthenticated") {
			t.Errorf("%s without the header: %v\n%s\nwant Unauthenticated", line, err, bare)
		}
	}
}
