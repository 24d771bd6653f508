package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"google.golang.org/protobuf/types/known/timestamppb"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// show exits with the run's verdict, as verify and watch do, whatever it
// prints: 0 PASS, 1 FAIL, 2 without a verdict (a run still going).
func TestShowExitsWithTheVerdict(t *testing.T) {
	running := &glv1.Run{Id: "r_running", Kind: glv1.RunKind_RUN_KIND_VERIFY, Status: glv1.RunStatus_RUN_STATUS_RUNNING, CreatedAt: timestamppb.Now()}
	addr := startFakeRuns(t, finishedRun("r_fail", glv1.Verdict_VERDICT_FAIL), finishedRun("r_pass", glv1.Verdict_VERDICT_PASS), running)
	out := filepath.Join(t.TempDir(), "report.sarif")
	tests := []struct {
		args []string
		code int
	}{
		{[]string{"show", "r_fail"}, 1},
		{[]string{"show", "--json", "r_fail"}, 1},
		{[]string{"show", "--markdown", "r_fail"}, 1},
		{[]string{"show", "--format", "sarif", "r_fail"}, 1},
		{[]string{"show", "--format", "sarif", "--output", out, "r_fail"}, 1},
		{[]string{"show", "r_pass"}, 0},
		{[]string{"show", "--json", "r_pass"}, 0},
		{[]string{"show", "--format", "junit", "r_pass"}, 0},
		{[]string{"show", "r_running"}, 2},
		{[]string{"show", "--json", "r_running"}, 2},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			code, stdout, stderr := runCLI(t, append([]string{"--addr", addr}, tc.args...)...)
			if code != tc.code {
				t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tc.code, stdout, stderr)
			}
			if stdout == "" {
				t.Errorf("printed nothing on stdout")
			}
		})
	}
}

// show --output writes the report to the file and, as its help says, the
// human summary still goes to stdout.
func TestShowOutputKeepsTheSummaryOnStdout(t *testing.T) {
	addr := startFakeRuns(t, finishedRun("r_fail", glv1.Verdict_VERDICT_FAIL))
	out := filepath.Join(t.TempDir(), "report.sarif")
	_, stdout, stderr := runCLI(t, "--addr", addr, "show", "--format", "sarif", "--output", out, "r_fail")
	b, err := os.ReadFile(out)
	if err != nil || !strings.Contains(string(b), `"version": "2.1.0"`) {
		t.Fatalf("--output file: %v\n%s\nstderr: %s", err, b, stderr)
	}
	if !strings.Contains(stdout, "FAIL") || !strings.Contains(stdout, "tests/test_temperature.py:17") {
		t.Errorf("show --output: the summary is not on stdout:\n%s", stdout)
	}
	if strings.Contains(stdout, `"version": "2.1.0"`) {
		t.Errorf("show --output: the report went to stdout too")
	}
}
