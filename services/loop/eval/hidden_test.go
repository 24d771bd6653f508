package eval_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/blob"
	"github.com/greenlight-dev/greenlight/services/loop/eval"
	"github.com/greenlight-dev/greenlight/services/loop/internal/enginetest"
)

// squareTask writes a task of the square project: its workspace under
// prefix ("repo/" or ""), fix.patch, and task.yaml with extra lines.
func squareTask(files map[string]string, name, prefix, fix, extra string) {
	for k, v := range enginetest.SquareFiles {
		files[name+"/"+prefix+k] = v
	}
	files[name+"/fix.patch"] = fix
	files[name+"/"+eval.TaskFile] = "provider: {kind: command, command: cat > request.json; cat fix.patch}\nmax_rounds: 1\n" + extra
}

// An eval task's hidden tests (a directory laid over the workspace, or a
// diff file) grade every sample: a hard-coding patch passes only without
// them, the honest one with them, and the model's requests never see
// them; a hidden directory inside the workspace stays out of its
// snapshot.
func TestEvalHiddenTests(t *testing.T) {
	hiddenFile := map[string]string{"tests/test_sq_hidden.py": "from sq import f\n\n\ndef test_three():\n    assert f(3) == 9\n"}
	files := map[string]string{}
	squareTask(files, "hardcode-open", "repo/", enginetest.SquareHardCode, "")
	squareTask(files, "hardcode-hidden-dir", "repo/", enginetest.SquareHardCode, "hidden_tests: hidden\n")
	squareTask(files, "honest-hidden-patch", "repo/", enginetest.SquareHonest, "hidden_tests: hidden.patch\nhidden_targets: [test_three]\n")
	squareTask(files, "inline-hidden-dir", "", enginetest.SquareHonest, "hidden_tests: hidden\n")
	for _, task := range []string{"hardcode-hidden-dir", "inline-hidden-dir"} {
		for name, content := range hiddenFile {
			files[task+"/hidden/"+name] = content
		}
	}
	files["honest-hidden-patch/hidden.patch"] = enginetest.SquareHidden
	dir := t.TempDir()
	enginetest.WriteFiles(t, dir, files)
	tasks, err := eval.LoadSuite(dir)
	if err != nil {
		t.Fatal(err)
	}
	runs, blobs := loopJudged(t, enginetest.SquareJudge, enginetest.CalcSteps()...)
	rep, err := eval.Run(context.Background(), runs, blobs, tasks, eval.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{"hardcode-open": true, "hardcode-hidden-dir": false, "honest-hidden-patch": true, "inline-hidden-dir": true}
	for _, tr := range rep.Tasks {
		s := tr.Runs[0]
		if s.Passed != want[tr.Name] || s.Error != "" {
			t.Errorf("task %s: passed %t (error %q, %s); want %t", tr.Name, s.Passed, s.Error, s.Summary, want[tr.Name])
		}
		req, err := os.ReadFile(filepath.Join(dir, tr.Name, "request.json"))
		if err != nil {
			t.Fatalf("task %s: %v", tr.Name, err)
		}
		for _, w := range enginetest.SquareHiddenWords {
			if strings.Contains(string(req), w) {
				t.Errorf("task %s: the model's request holds %q of the hidden tests", tr.Name, w)
			}
		}
		got, err := runs.GetRun(context.Background(), &glv1.GetRunRequest{RunId: s.RunID})
		if err != nil {
			t.Fatal(err)
		}
		for name := range snapshotFiles(t, blobs, got.GetRun().GetSnapshot()) {
			if strings.Contains(name, "hidden") {
				t.Errorf("task %s: the workspace snapshot holds %s", tr.Name, name)
			}
		}
		if hasHidden := got.GetRun().GetFixOptions().GetHiddenTests() != nil; hasHidden == (tr.Name == "hardcode-open") {
			t.Errorf("task %s: hidden_tests set %t", tr.Name, hasHidden)
		}
		if h := s.HiddenTests; (h == nil) != (tr.Name == "hardcode-open") || (h != nil && (h.Passed == 1) != want[tr.Name]) {
			t.Errorf("task %s: the sample's hidden tests %+v", tr.Name, h)
		}
	}
}

// Hidden tests that do not fit the task are the suite's error, before any
// run.
func TestEvalHiddenTestsRefused(t *testing.T) {
	for _, c := range []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"a diff that does not apply", map[string]string{"t/hidden.patch": "--- a/sq.py\n+++ b/sq.py\n@@ -1 +1 @@\n-nothing\n+x\n"},
			"does not apply"},
		{"a directory equal to the workspace", map[string]string{"t/hidden/sq.py": enginetest.SquareFiles["sq.py"]}, "model does not see"},
	} {
		t.Run(c.name, func(t *testing.T) {
			files := map[string]string{}
			hidden := "hidden.patch"
			if strings.Contains(c.name, "directory") {
				hidden = "hidden"
			}
			squareTask(files, "t", "repo/", enginetest.SquareHonest, "hidden_tests: "+hidden+"\n")
			for k, v := range c.files {
				files[k] = v
			}
			dir := t.TempDir()
			enginetest.WriteFiles(t, dir, files)
			tasks, err := eval.LoadSuite(dir)
			if err != nil {
				t.Fatal(err)
			}
			runs := &recordingRuns{}
			_, err = eval.Run(context.Background(), runs, blobStore(t), tasks, eval.Options{})
			if !errors.Is(err, eval.ErrSuite) || !strings.Contains(err.Error(), c.want) || len(runs.starts) != 0 {
				t.Fatalf("Run: %v (%d runs started); want ErrSuite saying %q before any run", err, len(runs.starts), c.want)
			}
		})
	}
	dir := t.TempDir()
	enginetest.WriteFiles(t, dir, map[string]string{"t/" + eval.TaskFile: "provider: {kind: command, command: x}\nhidden_tests: nowhere\n"})
	if _, err := eval.LoadTask(filepath.Join(dir, "t")); !errors.Is(err, eval.ErrSuite) || !strings.Contains(err.Error(), "hidden_tests") {
		t.Errorf("LoadTask with missing hidden tests: %v", err)
	}
}

// snapshotFiles reads a stored snapshot's files.
func snapshotFiles(t *testing.T, blobs *blob.Client, d *glv1.Digest) map[string]string {
	t.Helper()
	bd, err := blob.DigestFromProto(d)
	if err != nil {
		t.Fatal(err)
	}
	rc, err := blobs.Open(context.Background(), bd)
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	files, err := enginetest.TarFiles(rc)
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// blobStore is an empty blob store.
func blobStore(t *testing.T) *blob.Store {
	t.Helper()
	s, err := blob.NewStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return s
}
