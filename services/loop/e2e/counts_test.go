package e2e_test

import (
	"fmt"
	"strings"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// countsCap is the per-step log cap of the counts tests: the loud suite
// prints several times more.
const countsCap = 64 << 10

// loudGoSuite is a Go module whose 100 tests each log ~2 KiB (plus one
// skipped test); the tests named in failing fail.
func loudGoSuite(failing ...int) map[string]string {
	var b strings.Builder
	b.WriteString("package loud\n\nimport (\n\t\"strings\"\n\t\"testing\"\n)\n\nvar chatter = strings.Repeat(\"x\", 200)\n\n")
	b.WriteString("func TestSkipped(t *testing.T) { t.Skip(\"not here\") }\n\n")
	for i := range 100 {
		fmt.Fprintf(&b, "func TestLoud%03d(t *testing.T) {\n\tfor range 10 {\n\t\tt.Log(chatter)\n\t}\n", i)
		for _, f := range failing {
			if f == i {
				fmt.Fprintf(&b, "\tt.Fatal(\"boom %d\")\n", i)
			}
		}
		b.WriteString("}\n\n")
	}
	return map[string]string{"go.mod": "module example.com/loud\n\ngo 1.22\n", "loud.go": "package loud\n", "loud_test.go": b.String()}
}

// TestGoCountsSurviveTheLogCap: a Go suite that prints far more than the
// per-step log cap is counted exactly from the go test -json report file;
// the same suite run by a step that writes no report cannot pass.
func TestGoCountsSurviveTheLogCap(t *testing.T) {
	s := newStack(t)
	requireImage(t, "go")
	limits := &glv1.VerifyOptions{Limits: &glv1.Limits{LogBytesPerStep: countsCap}}
	tests := []struct {
		name    string
		files   map[string]string
		verdict glv1.Verdict
		want    *glv1.TestCounts
	}{
		{"failing", loudGoSuite(7, 55, 99), glv1.Verdict_VERDICT_FAIL, &glv1.TestCounts{Passed: 97, Failed: 3, Skipped: 1, Total: 101}},
		{"passing", loudGoSuite(), glv1.Verdict_VERDICT_PASS, &glv1.TestCounts{Passed: 100, Skipped: 1, Total: 101}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := finished(s.verify(&glv1.VerifyRequest{Snapshot: s.snapshot(tt.files), Options: limits})).GetResult()
			if res.GetStatus() != tt.verdict {
				t.Fatalf("verdict %s, want %s: %s", res.GetStatus(), tt.verdict, res.GetSummary())
			}
			var step *glv1.StepResult
			for _, st := range res.GetSteps() {
				if st.GetName() == "go-test" {
					step = st
				}
			}
			if !step.GetTruncated() || step.GetOutputBytes() < 4*countsCap {
				t.Fatalf("go-test printed %d bytes (truncated %v): too little to test the cap", step.GetOutputBytes(), step.GetTruncated())
			}
			c := step.GetCounts()
			got := fmt.Sprintf("%d/%d/%d/%d", c.GetPassed(), c.GetFailed(), c.GetSkipped(), c.GetTotal())
			if want := fmt.Sprintf("%d/%d/%d/%d", tt.want.GetPassed(), tt.want.GetFailed(), tt.want.GetSkipped(), tt.want.GetTotal()); got != want || c.GetIncomplete() {
				t.Errorf("counts %v (passed/failed/skipped/total %s), want %s and complete", c, got, want)
			}
			var failing []string
			for _, f := range res.GetFailures() {
				if f.GetTest() != "" && f.GetLine() > 0 && f.GetFile() == "loud_test.go" {
					failing = append(failing, strings.TrimPrefix(f.GetTest(), "example.com/loud."))
				}
			}
			if want := map[int32]string{0: "[]", 3: "[TestLoud007 TestLoud055 TestLoud099]"}[tt.want.GetFailed()]; fmt.Sprint(failing) != want {
				t.Errorf("failing tests located in loud_test.go: %v, want %s", failing, want)
			}
		})
	}

	t.Run("no report", func(t *testing.T) {
		files := loudGoSuite()
		files["greenlight.yaml"] = "mode: replace\nsteps:\n  - name: test\n    phase: test\n    command: go test -json ./...\n"
		res := finished(s.verify(&glv1.VerifyRequest{Snapshot: s.snapshot(files), Options: limits})).GetResult()
		c := res.GetCounts()
		if res.GetStatus() != glv1.Verdict_VERDICT_ERROR || !strings.Contains(res.GetSummary(), "test counts incomplete, cannot pass: test (the test log was cut") {
			t.Fatalf("verdict %s: %s", res.GetStatus(), res.GetSummary())
		}
		if !c.GetIncomplete() || c.GetTotal() >= 101 || res.GetScore() != nil {
			t.Errorf("counts %v, score %v: want incomplete counts under 101 and no score", c, res.GetScore())
		}
	})
}
