package provider

import (
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// request returns a realistic PatchRequest for attempt n.
func request(n int32) *glv1.PatchRequest {
	return &glv1.PatchRequest{
		RunId: "run-1", Attempt: n,
		FailingCommand: "python -m pytest -q tests/test_calc.py", Workdir: "svc", ExitCode: 1,
		LogTail: "tests/test_calc.py::test_add FAILED\nE       assert -1 == 3\nE        +  where -1 = add(1, 2)\n1 failed in 0.02s\n",
		Failures: []*glv1.Failure{{
			File: "tests/test_calc.py", Line: 4, Kind: glv1.FailureKind_FAILURE_KIND_TEST_ASSERTION,
			Test: "tests/test_calc.py::test_add", Message: "assert -1 == 3\n +  where -1 = add(1, 2)",
			Frames: []*glv1.Frame{{File: "calc.py", Line: 2, Function: "add", Project: true}},
		}},
		Windows: []*glv1.CodeWindow{{File: "calc.py", StartLine: 1, EndLine: 2, FocusLine: 2,
			Text: "   1 def add(a, b):\n   2     return a - b\n", Rank: 1}},
		ChangedFiles: []string{"calc.py"},
		Constraints:  &glv1.Guardrails{MaxChangedLines: 20},
	}
}

// calcPatch is a patch fixing request's failure.
const calcPatch = "--- a/calc.py\n+++ b/calc.py\n@@ -1,2 +1,2 @@\n def add(a, b):\n-    return a - b\n+    return a + b\n"

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
