package eval_test

import (
	"context"
	"errors"
	"testing"

	"github.com/greenlight-dev/greenlight/services/loop/eval"
	"github.com/greenlight-dev/greenlight/services/loop/internal/enginetest"
)

// The task's own hidden tests are the caller's, not a model's: a helper
// module next to them that the suspicion audit would refuse in a patch
// (it imports unittest from a path not named like a test) is checked to
// apply as the loop applies it (trusted), so the task starts.
func TestEvalHiddenTestsAreTrusted(t *testing.T) {
	files := map[string]string{}
	squareTask(files, "helper", "repo/", enginetest.SquareHonest, "hidden_tests: hidden\n")
	files["helper/hidden/checks/sqcase.py"] = "import unittest\n\n\nclass SquareCase(unittest.TestCase):\n    pass\n"
	files["helper/hidden/tests/test_sq_hidden.py"] = "from checks.sqcase import SquareCase\nfrom sq import f\n\n\nclass T(SquareCase):\n    def test_three(self):\n        self.assertEqual(f(3), 9)\n"
	dir := t.TempDir()
	enginetest.WriteFiles(t, dir, files)
	tasks, err := eval.LoadSuite(dir)
	if err != nil {
		t.Fatal(err)
	}
	runs := &recordingRuns{}
	_, err = eval.Run(context.Background(), runs, blobStore(t), tasks, eval.Options{})
	if errors.Is(err, eval.ErrSuite) || len(runs.starts) != 1 {
		t.Fatalf("Run: %v (%d runs started); want the task started", err, len(runs.starts))
	}
	if runs.starts[0].GetOptions().GetHiddenTests() == nil {
		t.Errorf("the run has no hidden tests")
	}
}
