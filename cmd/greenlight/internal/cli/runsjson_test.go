package cli

import (
	"encoding/json"
	"strings"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/contract"
)

// runs --json prints one full result per line, although ListRuns leaves
// the results out: summary, level, score, counts and failures of each run.
func TestRunsJSONPrintsFullResults(t *testing.T) {
	addr := startFakeRuns(t, finishedRun("r_fail", glv1.Verdict_VERDICT_FAIL), finishedRun("r_pass", glv1.Verdict_VERDICT_PASS))
	code, out, errOut := runCLI(t, "--addr", addr, "runs", "--json")
	if code != 0 {
		t.Fatalf("runs --json: exit %d, stderr %q", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 {
		t.Fatalf("runs --json printed %d lines, want 2:\n%s", len(lines), out)
	}
	var fail contract.Result
	if err := json.Unmarshal([]byte(lines[0]), &fail); err != nil {
		t.Fatal(err)
	}
	if fail.RunID != "r_fail" || fail.Status != contract.StatusFail || fail.Summary != "FAIL: pytest (1 failed)" ||
		fail.Level != "L4" || fail.Score == nil || fail.Counts.Passed != 2 || fail.Counts.Failed != 1 ||
		len(fail.Failures) != 1 || fail.Failures[0].Line != 17 || len(fail.Steps) != 1 {
		t.Errorf("runs --json, the FAIL run is not its full result:\n%s", lines[0])
	}
	var pass contract.Result
	if err := json.Unmarshal([]byte(lines[1]), &pass); err != nil || pass.Status != contract.StatusPass || pass.Counts.Passed != 3 {
		t.Errorf("runs --json, the PASS run: %v\n%s", err, lines[1])
	}
}
