package e2e_test

import (
	"strings"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// ciDiffProject is inih's shape: the CI block regenerates a baseline and
// asserts with `git diff --exit-code` that it did not change. The plan
// carries no repository set-up of its own: the executor's workspace is
// the checkout.
func ciDiffProject(baseline string) map[string]string {
	return map[string]string{
		".github/workflows/ci.yml": "name: CI\non: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n" +
			"    - uses: actions/checkout@v4\n    - name: Diff tests\n      run: |\n        cd tests\n        sh unittest.sh\n" +
			"        git diff --exit-code\n",
		"tests/unittest.sh":  "printf 'a=1\\nb=2\\n' > baseline.txt\n",
		"tests/baseline.txt": baseline,
		"ini.c":              "int x;\n",
	}
}

// A CI block that ends in `git diff --exit-code` decides the verdict
// against the snapshot's own commit: PASS when the regenerated baseline is
// the committed one, FAIL showing the diff when the snapshot's baseline is
// stale.
func TestCIBlockDiffsAgainstTheSnapshotCommit(t *testing.T) {
	s := newStack(t)
	for _, tc := range []struct {
		name, baseline string
		want           glv1.Verdict
	}{
		{"baseline current", "a=1\nb=2\n", glv1.Verdict_VERDICT_PASS},
		{"baseline stale", "a=1\nb=3\n", glv1.Verdict_VERDICT_FAIL},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sub := *s
			sub.t = t
			res := finished(sub.verify(&glv1.VerifyRequest{Snapshot: sub.snapshot(ciDiffProject(tc.baseline))})).GetResult()
			if res.GetStatus() != tc.want {
				t.Fatalf("verdict %s, want %s: %s\n%s", res.GetStatus(), tc.want, res.GetSummary(), res.GetTailLog())
			}
			var ci *glv1.StepResult
			for _, st := range res.GetSteps() {
				if strings.HasPrefix(st.GetName(), "ci:") {
					ci = st
				}
			}
			if ci == nil {
				t.Fatalf("no CI step ran: %v", res.GetSteps())
			}
			if strings.Contains(ci.GetCommand(), "git init") || strings.Contains(ci.GetTail(), "not a git repository") {
				t.Errorf("the CI step made its own repository or found none: %q\n%s", ci.GetCommand(), ci.GetTail())
			}
			if tc.want == glv1.Verdict_VERDICT_FAIL && !strings.Contains(ci.GetTail(), "-b=3") {
				t.Errorf("the failing step's tail does not show the baseline's diff:\n%s", ci.GetTail())
			}
		})
	}
}
