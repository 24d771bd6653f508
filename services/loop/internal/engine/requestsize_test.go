package engine

import (
	"fmt"
	"strings"
	"testing"

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
