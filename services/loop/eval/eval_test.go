package eval_test

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.uber.org/zap"
	"google.golang.org/grpc"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/blob"
	"github.com/greenlight-dev/greenlight/services/loop/internal/enginetest"
	"github.com/greenlight-dev/greenlight/services/loop/eval"
	"github.com/greenlight-dev/greenlight/services/loop/internal/store"
	"github.com/greenlight-dev/greenlight/services/loop/loopsvc"
)

func TestPassAtK(t *testing.T) {
	tests := []struct {
		n, c, k int
		want    float64
	}{
		{5, 0, 1, 0}, {5, 5, 1, 1}, {5, 2, 1, 0.4}, {5, 2, 2, 0.7}, {5, 2, 5, 1}, {3, 1, 3, 1},
		{10, 1, 5, 0.5}, {5, 2, 6, 0}, {0, 0, 1, 0},
	}
	for _, tt := range tests {
		if got := eval.PassAtK(tt.n, tt.c, tt.k); math.Abs(got-tt.want) > 1e-9 {
			t.Errorf("PassAtK(%d, %d, %d) = %g, want %g", tt.n, tt.c, tt.k, got, tt.want)
		}
	}
}

func TestLoadTaskRejects(t *testing.T) {
	tests := []struct {
		name, yaml, want string
	}{
		{"client provider", "provider: {kind: client}\n", "no client"},
		{"empty command", "provider: {kind: command}\n", "command is empty"},
		{"unknown key", "provider: {kind: command, command: x}\nmax_round: 3\n", "max_round"},
		{"bad duration", "provider: {kind: command, command: x}\ntime_budget: soon\n", "not a duration"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			enginetest.WriteFiles(t, dir, map[string]string{eval.TaskFile: tt.yaml})
			_, err := eval.LoadTask(dir)
			if !errors.Is(err, eval.ErrSuite) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("LoadTask = %v, want ErrSuite mentioning %q", err, tt.want)
			}
		})
	}
	if _, err := eval.LoadSuite(t.TempDir()); !errors.Is(err, eval.ErrSuite) {
		t.Errorf("empty suite: %v", err)
	}
}

// suite writes a suite of two tasks on CalcFiles: one whose provider
// prints the fix, one whose provider prints a patch that never applies.
func suite(t *testing.T) string {
	dir := t.TempDir()
	for name, p := range map[string]string{"fixable": enginetest.FixPatch, "hopeless": enginetest.NonApplyingPatch} {
		files := map[string]string{
			eval.TaskFile: "provider:\n  kind: command\n  command: cat > request.json && cat answer.patch\n" +
				"max_rounds: 2\nchanged_files: [calc.py]\nreference_check: pytest\n",
			"answer.patch": p,
		}
		for k, v := range enginetest.CalcFiles {
			files["repo/"+k] = v
		}
		enginetest.WriteFiles(t, filepath.Join(dir, name), files)
	}
	return dir
}

func TestEvalSuiteOverRunService(t *testing.T) {
	runs, up := loop(t, enginetest.CalcSteps()...)
	tasks, err := eval.LoadSuite(suite(t))
	if err != nil {
		t.Fatal(err)
	}
	var progress int
	rep, err := eval.Run(context.Background(), runs, up, tasks, eval.Options{Samples: 3, K: 2,
		Progress: func(string, int, eval.Sample) { progress++ }})
	if err != nil {
		t.Fatal(err)
	}
	if progress != 6 || len(rep.Tasks) != 2 {
		t.Fatalf("progress %d, tasks %d", progress, len(rep.Tasks))
	}
	fixable, hopeless := rep.Tasks[0], rep.Tasks[1]
	if fixable.Name != "fixable" || fixable.Passed != 3 || fixable.PassAt1 != 1 || fixable.PassAtK != 1 ||
		fixable.MedianPatchLines != 2 || fixable.MedianAttemptsToGreen != 1 || fixable.RollbackRate != 0 {
		t.Errorf("fixable %+v", fixable)
	}
	for _, s := range fixable.Runs {
		if s.ReferencePassed == nil || !*s.ReferencePassed || s.FinalSnapshot == "" || s.Error != "" {
			t.Errorf("fixable sample %+v", s)
		}
	}
	if hopeless.Passed != 0 || hopeless.PassAt1 != 0 || hopeless.RollbackRate != 1 || hopeless.Runs[0].StopReason != "max_rounds" {
		t.Errorf("hopeless %+v", hopeless)
	}
	if rep.PassAt1 != 0.5 || rep.PassAtK != 0.5 || rep.RollbackRate != 0.667 || rep.MedianAttemptsToGreen != 1 {
		t.Errorf("suite %+v", rep)
	}
	b, err := rep.JSON()
	if err != nil {
		t.Fatal(err)
	}
	var back map[string]any
	if err := json.Unmarshal(b, &back); err != nil || back["pass_at_1"] != 0.5 {
		t.Errorf("JSON: %v %s", err, b)
	}
	table := rep.Table()
	t.Log("\n" + table)
	for _, want := range []string{"pass@2", "fixable", "3/3", "hopeless", "0/3", "suite (2 tasks × 3)"} {
		if !strings.Contains(table, want) {
			t.Errorf("table lacks %q:\n%s", want, table)
		}
	}
	// The provider ran in the task directory and got the request as JSON.
	raw, err := os.ReadFile(filepath.Join(tasks[0].Dir, "request.json"))
	if err != nil || !strings.Contains(string(raw), "failingCommand") {
		t.Errorf("request.json: %v %.200s", err, raw)
	}
}

// loop starts a loop service over bufconn with fake discovery and executor.
func loop(t *testing.T, steps ...*glv1.Step) (glv1.RunServiceClient, eval.Uploader) {
	t.Helper()
	cfg := loopsvc.DefaultConfig()
	cfg.DataDir = t.TempDir()
	blobs, err := blob.NewStore(filepath.Join(cfg.DataDir, "blobs"))
	if err != nil {
		t.Fatal(err)
	}
	exec := enginetest.NewExecutor(blobs, enginetest.CalcJudge)
	dconn := enginetest.Serve(t, func(s *grpc.Server) { glv1.RegisterDiscoveryServiceServer(s, enginetest.NewDiscovery(steps...)) })
	econn := enginetest.Serve(t, func(s *grpc.Server) { glv1.RegisterExecutorServiceServer(s, exec) })
	svc, err := loopsvc.New(context.Background(), cfg, zap.NewNop(),
		loopsvc.WithDiscovery(glv1.NewDiscoveryServiceClient(dconn)), loopsvc.WithExecutor(glv1.NewExecutorServiceClient(econn)),
		loopsvc.WithStoreOptions(store.Options{NoSync: true}))
	if err != nil {
		t.Fatal(err)
	}
	conn := enginetest.Serve(t, func(s *grpc.Server) { svc.Register(s) })
	t.Cleanup(func() { _ = svc.Close() })
	return glv1.NewRunServiceClient(conn), blob.NewClient(conn)
}
