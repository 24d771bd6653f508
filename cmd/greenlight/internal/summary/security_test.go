package summary

import (
	"strings"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// TestTextSecurityLine: the security component has its own line when a
// scan ran, and none otherwise.
func TestTextSecurityLine(t *testing.T) {
	cases := []struct {
		name  string
		score *glv1.Score
		want  string
	}{
		{"scanned", &glv1.Score{Total: 7, SecurityRan: true, Security: 0.5, SecurityFindings: 2}, "Security: 0.5/1 (2 finding(s)), beside the score, not in it\n"},
		{"not scanned", &glv1.Score{Total: 7}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			run := &glv1.Run{Id: "r_1", Status: glv1.RunStatus_RUN_STATUS_PASSED,
				Result: &glv1.Result{Status: glv1.Verdict_VERDICT_PASS, RunId: "r_1", Score: tc.score, Level: glv1.Level_LEVEL_L4}}
			var b strings.Builder
			Text(&b, run, Options{})
			got := b.String()
			if tc.want != "" && !strings.Contains(got, tc.want) {
				t.Errorf("no %q in:\n%s", tc.want, got)
			}
			if tc.want == "" && strings.Contains(got, "Security:") {
				t.Errorf("a security line without a scan:\n%s", got)
			}
		})
	}
}
