package cli

import (
	"strings"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// The report URL the summary prints says how to open it when the gateway
// requires a token (a browser otherwise meets a 401), never printing the
// token itself.
func TestReportURLSaysHowToOpenIt(t *testing.T) {
	addr := startFakeRuns(t, finishedRun("r_fail", glv1.Verdict_VERDICT_FAIL))
	_, withToken, _ := runCLI(t, "--addr", addr, "--token", "s3cret-token", "show", "r_fail")
	if !strings.Contains(withToken, "/runs/r_fail (asks once for the gateway's token") || strings.Contains(withToken, "s3cret-token") {
		t.Errorf("with a token, the report line:\n%s", withToken)
	}
	_, without, _ := runCLI(t, "--addr", addr, "show", "r_fail")
	if !strings.Contains(without, "/runs/r_fail\n") || strings.Contains(without, "token") {
		t.Errorf("without a token, the report line:\n%s", without)
	}
}
