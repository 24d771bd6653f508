package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/blob"
)

// readmeExample marks a README code block this test runs: an HTML comment
// line, then a ```sh block.
var readmeExample = regexp.MustCompile("(?s)<!-- curl-example -->\n```sh\n(.*?)```")

// readmeAddr is the address the README's examples use.
const readmeAddr = "http://127.0.0.1:7080"

// curlExamples returns the README's marked blocks.
func curlExamples(t *testing.T) []string {
	t.Helper()
	readme, err := os.ReadFile(filepath.Join("..", "..", "..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	var blocks []string
	for _, m := range readmeExample.FindAllSubmatch(readme, -1) {
		blocks = append(blocks, string(m[1]))
	}
	if len(blocks) != 2 {
		t.Fatalf("README.md has %d <!-- curl-example --> blocks, want 2 (runs, then verify)", len(blocks))
	}
	return blocks
}

// runExample runs a README block with bash after replacing its
// placeholders (each must occur) and returns its standard output.
func runExample(t *testing.T, ctx context.Context, block string, replace map[string]string) string {
	t.Helper()
	for from, to := range replace {
		if !strings.Contains(block, from) {
			t.Fatalf("README example lost its placeholder %q:\n%s", from, block)
		}
		block = strings.ReplaceAll(block, from, to)
	}
	cmd := exec.CommandContext(ctx, "bash", "-e", "-o", "pipefail", "-c", block)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "TOKEN=" + token}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("README example failed: %v\n%s\nstderr:\n%s\nstdout:\n%s", err, block, stderr.String(), stdout.String())
	}
	return stdout.String()
}

// TestReadmeCurlExamples runs the README's "HTTP/JSON (curl)" commands with
// the real curl against the real gateway binary (token required) in front
// of a real loop and discovery and the host executor: the verify block on
// an uploaded snapshot first, then the runs block on the run it made.
func TestReadmeCurlExamples(t *testing.T) {
	if os.Getenv("GREENLIGHT_INTEGRATION") == "" {
		t.Skip("integration test: set GREENLIGHT_INTEGRATION=1 (make test does) to run the README's curl examples")
	}
	if _, err := exec.LookPath("curl"); err != nil {
		t.Fatal("curl is not installed (the README's examples need it): apt-get install -y curl")
	}
	blocks := curlExamples(t)
	s := startStack(t, 0, "--token", token)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	d, err := blob.NewClient(s.conn).Put(bearer(ctx, token), bytes.NewReader(tarOf(t, goProject(false))))
	if err != nil {
		t.Fatal(err)
	}

	out := runExample(t, ctx, blocks[1], map[string]string{
		readmeAddr: s.httpBase, "HASH": d.Hash, "SIZE": strconv.FormatInt(d.Size, 10)})
	runID := checkVerifyOutput(t, out)
	t.Logf("verify example printed:\n%.600s", out)

	out = runExample(t, ctx, blocks[0], map[string]string{readmeAddr: s.httpBase, "RUN_ID": runID})
	dec := json.NewDecoder(strings.NewReader(out))
	var list glv1.ListRunsResponse
	var got glv1.GetRunResponse
	if err := decodeNext(dec, &list); err != nil || len(list.GetRuns()) != 1 || list.GetRuns()[0].GetId() != runID {
		t.Fatalf("ListRuns printed %v (%v); want the one run %s\n%s", &list, err, runID, out)
	}
	if err := decodeNext(dec, &got); err != nil || got.GetRun().GetStatus() != glv1.RunStatus_RUN_STATUS_PASSED ||
		got.GetRun().GetResult().GetStatus() != glv1.Verdict_VERDICT_PASS {
		t.Fatalf("GetRun printed %v (%v); want the passed run\n%s", &got, err, out)
	}
}

// checkVerifyOutput checks the verify example's lines (one RunEvent
// response per line, then the end of stream "{}") and returns the run id.
func checkVerifyOutput(t *testing.T, out string) string {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) < 3 || lines[len(lines)-1] != "{}" {
		t.Fatalf("verify printed %d lines, want events and then {} (a clean end):\n%s", len(lines), out)
	}
	var evs []*glv1.RunEvent
	for _, line := range lines[:len(lines)-1] {
		var resp glv1.VerifyResponse
		if err := protojson.Unmarshal([]byte(line), &resp); err != nil {
			t.Fatalf("verify line %q: %v", line, err)
		}
		evs = append(evs, resp.GetEvent())
	}
	last := evs[len(evs)-1]
	if evs[0].GetSeq() != 1 || last.GetRunFinished().GetStatus() != glv1.RunStatus_RUN_STATUS_PASSED {
		t.Fatalf("verify events from seq %d to %v; want seq 1 up to RunFinished PASSED\n%s", evs[0].GetSeq(), last, out)
	}
	return last.GetRunId()
}

// decodeNext reads the next JSON value of dec into m with protojson.
func decodeNext(dec *json.Decoder, m proto.Message) error {
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		if errors.Is(err, io.EOF) {
			return errors.New("no more output")
		}
		return err
	}
	return protojson.Unmarshal(raw, m)
}
