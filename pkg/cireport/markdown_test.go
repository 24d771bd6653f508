package cireport

import (
	"strings"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// markdown renders run with WriteMarkdown.
func markdown(t *testing.T, run *glv1.Run) string {
	t.Helper()
	var b strings.Builder
	if err := WriteMarkdown(&b, run, Options{}); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestMarkdownShowsOnlyKeptPatches: a fix run's report shows the patches
// in its final snapshot, each as a diff, never one that was rolled back
// or not applied, and text from the model stays inert.
func TestMarkdownShowsOnlyKeptPatches(t *testing.T) {
	run := failRun()
	run.Patches = []*glv1.PatchOutcome{
		{Attempt: 1, Applied: true, RolledBack: true, Diff: "--- a/x.py\n+++ b/x.py\n-rolled-back-line\n+rolled-back-line\n", LinesAdded: 1, LinesRemoved: 1},
		{Attempt: 2, Applied: true, Diff: "--- a/cart.go\n+++ b/cart.go\n-\treturn 90\n+\treturn 100 \x1b]0;title\x07\n", LinesAdded: 1, LinesRemoved: 1},
		{Attempt: 3, Diff: "--- a/y.py\n+++ b/y.py\n+never-applied-line\n"},
	}
	md := markdown(t, run)
	for _, want := range []string{"### Patch 2 (+1 −1)\n\n```diff\n--- a/cart.go\n", "+\treturn 100 "} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
	for _, bad := range []string{"Patch 1", "rolled-back-line", "Patch 3", "never-applied-line", "\x1b", "\x07"} {
		if strings.Contains(md, bad) {
			t.Errorf("markdown shows %q:\n%s", bad, md)
		}
	}
}

// TestMarkdownSaysWhyCountsAreIncomplete: incomplete counts are marked and
// their reason given.
func TestMarkdownSaysWhyCountsAreIncomplete(t *testing.T) {
	run := failRun()
	run.Result.Counts.Incomplete, run.Result.Counts.IncompleteReason = true, "go-test: the test log was cut at the per-step cap"
	md := markdown(t, run)
	for _, want := range []string{"(incomplete)", "**Counts incomplete:** go-test: the test log was cut at the per-step cap"} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
}

// TestMarkdownErrorShowsNoScore: a score stored with an ERROR (servers
// before issue 11 kept 5.0) is not shown; a FAIL's is.
func TestMarkdownErrorShowsNoScore(t *testing.T) {
	run := failRun()
	if md := markdown(t, run); !strings.Contains(md, "**Score** 5.9/10") {
		t.Fatalf("a FAIL's score is not shown:\n%s", md)
	}
	run.Result.Status = glv1.Verdict_VERDICT_ERROR
	if md := markdown(t, run); strings.Contains(md, "Score") {
		t.Errorf("an ERROR shows a score:\n%s", md)
	}
}

// TestMarkdownKeepsSandboxTextInert: the summary line, step and test names
// and failure messages carry terminal control sequences and bidi
// overrides; the Markdown carries none of them.
func TestMarkdownKeepsSandboxTextInert(t *testing.T) {
	run := failRun()
	res := run.GetResult()
	res.Summary = "FAIL: \x1b]0;title\x07tests\x1b[2J"
	res.Steps[3].Name = "go-test\x1b[31m"
	res.Failures[0].Test = "test_\u202eevil"
	res.Failures[0].Message = "\x1b[1A\r" + strings.Repeat("测试", 200)
	md := markdown(t, run)
	for _, bad := range []string{"\x1b", "\x07", "\r", "\u202e", "title"} {
		if strings.Contains(md, bad) {
			t.Errorf("markdown contains %q:\n%q", bad, md)
		}
	}
}
