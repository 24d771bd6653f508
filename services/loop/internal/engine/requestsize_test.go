package engine

import (
	"fmt"
	"strings"
	"testing"
	"time"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

func TestFitRequestKeepsTheFirstFailureLongest(t *testing.T) {
	req := &glv1.PatchRequest{FailingCommand: "go test ./...", LogTail: strings.Repeat("noise line of the log\n", 400)}
	for i := 0; i < 10; i++ {
		req.Failures = append(req.Failures, &glv1.Failure{Test: fmt.Sprintf("TestF%d", i), Message: strings.Repeat("x", 600)})
		req.Windows = append(req.Windows, &glv1.CodeWindow{File: fmt.Sprintf("f%d.go", i), Text: strings.Repeat("code\n", 80), Rank: int32(i + 1)})
	}
	fitRequest(req, 1500)
	if len(req.GetPrompt()) > 1500*bytesPerToken {
		t.Errorf("prompt is %d bytes, over the %d-token budget", len(req.GetPrompt()), 1500)
	}
	if len(req.GetFailures()) == 0 || req.GetFailures()[0].GetTest() != "TestF0" || len(req.GetWindows()) != 1 {
		t.Errorf("kept %d failures (first %v) and %d windows; want the first failure and one window",
			len(req.GetFailures()), req.GetFailures(), len(req.GetWindows()))
	}
	big := &glv1.PatchRequest{LogTail: strings.Repeat("line\n", 50), Failures: req.GetFailures()[:1]}
	fitRequest(big, 100000)
	if strings.Count(big.GetLogTail(), "\n") < 49 {
		t.Error("a request within budget was cut")
	}
}

// TestFitRequestEndsWhenCuttingTheTailStopsShrinkingIt is the loop that
// spun a fix run at 100% CPU: a tail whose evidence lines are scattered
// gets a gap marker per gap when cut, so at the minimum length it stays
// over minTailLines lines; fitting must still end (dropping the tail).
func TestFitRequestEndsWhenCuttingTheTailStopsShrinkingIt(t *testing.T) {
	var tail strings.Builder
	for i := 0; i < 400; i++ {
		if i%2 == 0 {
			fmt.Fprintf(&tail, "FAIL: test_%d (tests.test_more.Case) AssertionError\n", i)
		} else {
			tail.WriteString("noise\n")
		}
	}
	req := &glv1.PatchRequest{FailingCommand: "python -m unittest", LogTail: tail.String(),
		Failures: []*glv1.Failure{{Test: "test_0", Message: strings.Repeat("x", 9000)}}}
	done := make(chan struct{})
	go func() {
		fitRequest(req, 1000)
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("fitRequest did not end")
	}
	if req.GetPrompt() == "" || len(req.GetFailures()) != 1 {
		t.Errorf("prompt %d bytes, %d failures: want a prompt with the first failure", len(req.GetPrompt()), len(req.GetFailures()))
	}
}
