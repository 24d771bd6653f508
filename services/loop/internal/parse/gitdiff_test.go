package parse

import (
	"context"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// TestGitDiffInih: inih's CI block `cd tests && ./unittest.sh && cd
// ../examples && ./cpptest.sh && git diff --exit-code` with the injected
// bug of docs/realworld-bugs-corpus2.txt, as greenlight's sandbox printed it
// (see testdata/realworld/README.md): the scripts rewrite their committed
// baseline outputs and the diff is the assertion. Each of the 16 changed
// baselines is a failed check at its first changed line.
func TestGitDiffInih(t *testing.T) {
	files := []string{"examples/cpptest.txt", "tests/baseline_alloc.txt", "tests/baseline_multi.txt", "ini.c"}
	rep := parseRealworld(t, "inih-git-diff.log", "", files...)
	if rep.Format != FormatGitDiff || rep.Counts != (Counts{Failed: 16}) {
		t.Fatalf("format %q counts %+v, want git-diff 16 failed", rep.Format, rep.Counts)
	}
	want := []string{
		"TEST_ASSERTION examples/cpptest.txt:1 examples/cpptest.txt",
		"TEST_ASSERTION tests/baseline_alloc.txt:2 tests/baseline_alloc.txt",
	}
	if got := failureLines(rep.Failures, 2); !slices.Equal(got, want) {
		t.Errorf("failures\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
	if m := rep.Failures[1].Message; !strings.Contains(m, "-... [section]\n+... [[section]") {
		t.Errorf("message %q, want the first change quoted", m)
	}
}

// TestGitDiffShapes: what git diff prints besides modified text files, and
// when a diff is no failure at all.
func TestGitDiffShapes(t *testing.T) {
	snap := fstest.MapFS{"out/golden.txt": {}, "gen/api.go": {}, "sub/testdata/x.txt": {}}
	for _, c := range []struct {
		name, log, workdir string
		failed             bool
		want               []string
	}{
		{"context before the change", "diff --git a/out/golden.txt b/out/golden.txt\nindex 1..2 100644\n--- a/out/golden.txt\n+++ b/out/golden.txt\n" +
			"@@ -10,7 +10,7 @@ func x\n a\n b\n c\n-d\n+e\n f\n", "", true, []string{"TEST_ASSERTION out/golden.txt:13 out/golden.txt"}},
		{"--no-prefix and a new file", "diff --git gen/api.go gen/api.go\nnew file mode 100644\nindex 0..2\n--- /dev/null\n+++ gen/api.go\n@@ -0,0 +1,3 @@\n+package gen\n+\n+var X = 1\n",
			"", true, []string{"TEST_ASSERTION gen/api.go:1 gen/api.go"}},
		{"a deleted file at its old line", "diff --git a/old.txt b/old.txt\ndeleted file mode 100644\nindex 1..0\n--- a/old.txt\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-a\n-b\n",
			"", true, []string{"TEST_ASSERTION old.txt:1 old.txt"}},
		{"binary", "diff --git a/out/img.png b/out/img.png\nindex 1..2 100644\nBinary files a/out/img.png and b/out/img.png differ\n", "", true,
			[]string{"TEST_ASSERTION out/img.png:0 out/img.png"}},
		{"a repository of the step's workdir", "diff --git a/testdata/x.txt b/testdata/x.txt\nindex 1..2 100644\n--- a/testdata/x.txt\n+++ b/testdata/x.txt\n@@ -1 +1 @@\n-a\n+b\n",
			"sub", true, []string{"TEST_ASSERTION sub/testdata/x.txt:1 sub/testdata/x.txt"}},
		{"a step that passed asserted nothing", "diff --git a/out/golden.txt b/out/golden.txt\nindex 1..2 100644\n--- a/out/golden.txt\n+++ b/out/golden.txt\n@@ -1 +1 @@\n-a\n+b\n",
			"", false, nil},
		{"a header without its diff is none", "diff --git a/out/golden.txt b/out/golden.txt\nsomething else\n@@ -1 +1 @@\n-a\n+b\n", "", true, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			res := &glv1.StepResult{Status: glv1.StepStatus_STEP_STATUS_FAILED, ExitCode: 1}
			if !c.failed {
				res = &glv1.StepResult{Status: glv1.StepStatus_STEP_STATUS_OK}
			}
			rep, err := Step(context.Background(), Input{
				Step:   &glv1.Step{Name: "ci:diff", Phase: glv1.Phase_PHASE_TEST, Command: "git diff --exit-code", Workdir: c.workdir},
				Result: res, Log: strings.NewReader(c.log), Files: snap,
			})
			if err != nil {
				t.Fatal(err)
			}
			if got := (rep.Format == FormatGitDiff); got != (c.want != nil) {
				t.Fatalf("format %q, want git-diff: %v", rep.Format, c.want != nil)
			}
			if c.want == nil {
				return
			}
			if got := failureLines(rep.Failures, 10); !slices.Equal(got, c.want) {
				t.Errorf("failures\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(c.want, "\n  "))
			}
		})
	}
}
