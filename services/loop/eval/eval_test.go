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
	"github.com/greenlight-dev/greenlight/services/loop/eval"
	"github.com/greenlight-dev/greenlight/services/loop/internal/enginetest"
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
		{4, 1, 2, 0.5},           // 1 − C(3,2)/C(4,2) = 1 − 3/6
		{10, 3, 3, 0.7083333333}, // 1 − C(7,3)/C(10,3) = 1 − 35/120
	}
	for _, tt := range tests {
		if got := eval.PassAtK(tt.n, tt.c, tt.k); math.Abs(got-tt.want) > 1e-8 {
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
		{"unknown kind", "provider: {kind: oracle}\n", "oracle"},
		{"not yaml", "provider: [\n", "task.yaml"},
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

func TestLoadSuiteLayout(t *testing.T) {
	dir := t.TempDir()
	enginetest.WriteFiles(t, dir, map[string]string{
		"b-inline/" + eval.TaskFile: "provider: {kind: command, command: cat fix.patch}\n",
		"b-inline/calc.py":          "x = 1\n",
		"a-repo/" + eval.TaskFile:   "name: zz-named\n", // no provider: the caller must give one
		"a-repo/repo/calc.py":       "x = 1\n",
		"notes/README.md":           "not a task: no task.yaml\n",
	})
	// A relative suite path still gives absolute directories: the loop's
	// command provider cds into them from wherever it runs.
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	rel, err := filepath.Rel(wd, dir)
	if err != nil {
		t.Fatal(err)
	}
	tasks, err := eval.LoadSuite(rel)
	if err != nil {
		t.Fatal(err)
	}
	if len(tasks) != 2 {
		t.Fatalf("%d tasks, want 2 (notes/ has no %s)", len(tasks), eval.TaskFile)
	}
	inline, repo := tasks[0], tasks[1] // sorted by name: b-inline < zz-named
	if inline.Name != "b-inline" || inline.Dir != filepath.Join(dir, "b-inline") || inline.Workspace != inline.Dir {
		t.Errorf("inline task %+v: the task directory itself is the workspace", inline)
	}
	if repo.Name != "zz-named" || repo.Workspace != filepath.Join(dir, "a-repo", "repo") {
		t.Errorf("repo task %+v: repo/ is the workspace, name from task.yaml", repo)
	}
}

// recordingRuns is a Runs whose Fix records the start message and fails.
type recordingRuns struct {
	eval.Runs
	starts []*glv1.FixStart
}

func (r *recordingRuns) Fix(context.Context, ...grpc.CallOption) (grpc.BidiStreamingClient[glv1.FixRequest, glv1.FixResponse], error) {
	return &recordingStream{r: r}, nil
}

type recordingStream struct {
	grpc.BidiStreamingClient[glv1.FixRequest, glv1.FixResponse]
	r *recordingRuns
}

func (s *recordingStream) Send(m *glv1.FixRequest) error {
	s.r.starts = append(s.r.starts, m.GetStart())
	return nil
}
func (s *recordingStream) CloseSend() error { return nil }
func (s *recordingStream) Recv() (*glv1.FixResponse, error) {
	return nil, errors.New("no loop here")
}

func TestProviderOverrideAndSemantics(t *testing.T) {
	dir, tasks, blobs := suiteOf(t, map[string]string{
		"own/" + eval.TaskFile:  "provider: {kind: command, command: cat fix.patch, timeout: 30s}\n",
		"own/repo/calc.py":      "x = 1\n",
		"bare/" + eval.TaskFile: "max_rounds: 2\n",
		"bare/repo/calc.py":     "x = 1\n",
	})
	tests := []struct {
		name    string
		over    *glv1.ProviderConfig
		wantErr string
		want    glv1.ProviderKind // the kind sent in FixStart
	}{
		{name: "a task without provider needs one", wantErr: "bare names no provider"},
		{name: "client refused", over: &glv1.ProviderConfig{Kind: glv1.ProviderKind_PROVIDER_KIND_CLIENT}, wantErr: "no client"},
		{name: "override replaces task.yaml", over: &glv1.ProviderConfig{Kind: glv1.ProviderKind_PROVIDER_KIND_COMMAND, Command: "./propose.sh"},
			want: glv1.ProviderKind_PROVIDER_KIND_CLIENT},
		{name: "replay is passed through", over: &glv1.ProviderConfig{Kind: glv1.ProviderKind_PROVIDER_KIND_REPLAY, RecordingId: "r_1"},
			want: glv1.ProviderKind_PROVIDER_KIND_REPLAY},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := eval.Validate(tasks, tt.over); (err != nil) != (tt.wantErr != "") {
				t.Errorf("Validate = %v, want an error: %v", err, tt.wantErr != "")
			}
			runs := &recordingRuns{}
			rep, err := eval.Run(context.Background(), runs, blobs, tasks, eval.Options{Samples: 1, Provider: tt.over})
			if tt.wantErr != "" {
				if !errors.Is(err, eval.ErrSuite) || !strings.Contains(err.Error(), tt.wantErr) || len(runs.starts) != 0 {
					t.Fatalf("Run = %v after %d runs, want ErrSuite mentioning %q before any run", err, len(runs.starts), tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(runs.starts) != 2 {
				t.Fatalf("%d runs started, want 2", len(runs.starts))
			}
			for i, st := range runs.starts {
				task := rep.Tasks[i].Name
				if got := st.GetOptions().GetProvider(); got.GetKind() != tt.want || got.GetCommand() != "" {
					t.Errorf("%s: provider %v, want kind %v and no command", task, got, tt.want)
				}
				if st.GetSourceDir() != filepath.Join(dir, task, "repo") {
					t.Errorf("%s: source dir %q", task, st.GetSourceDir())
				}
			}
			// Every sample failed to run: the report says so.
			if n, total := rep.Unmeasured(); n != 2 || total != 2 || rep.Tasks[0].Runs[0].Error == "" {
				t.Errorf("Unmeasured = %d/%d, runs %+v", n, total, rep.Tasks[0].Runs)
			}
		})
	}
	// Without an override the task's own section is used: its command runs
	// here, so the loop is asked for a CLIENT provider.
	runs := &recordingRuns{}
	if _, err := eval.Run(context.Background(), runs, blobs, tasks[1:], eval.Options{}); err != nil {
		t.Fatal(err)
	}
	if p := runs.starts[0].GetOptions().GetProvider(); p.GetKind() != glv1.ProviderKind_PROVIDER_KIND_CLIENT || p.GetCommand() != "" {
		t.Errorf("own provider %v", p)
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
	var started, progress int
	rep, err := eval.Run(context.Background(), runs, up, tasks, eval.Options{Samples: 3, K: 2,
		Started:  func(string, int) { started++ },
		Progress: func(string, int, eval.Sample) { progress++ }})
	if err != nil {
		t.Fatal(err)
	}
	if started != 6 || progress != 6 || len(rep.Tasks) != 2 {
		t.Fatalf("started %d, progress %d, tasks %d", started, progress, len(rep.Tasks))
	}
	if n, total := rep.Unmeasured(); n != 0 || total != 6 {
		t.Errorf("Unmeasured = %d/%d, want 0/6", n, total)
	}
	fixable, hopeless := rep.Tasks[0], rep.Tasks[1]
	if fixable.Name != "fixable" || fixable.Passed != 3 || fixable.PassAt1 != 1 || fixable.PassAtK != 1 ||
		fixable.MedianPatchLines != 2 || fixable.MedianAttemptsToGreen != 1 || fixable.RollbackRate != 0 {
		t.Errorf("fixable %+v", fixable)
	}
	for _, s := range fixable.Runs {
		if s.ReferencePassed == nil || !*s.ReferencePassed || s.FinalSnapshot == "" || s.Error != "" || s.Status != "PASS" || s.RunStatus != "PASSED" || s.Summary == "" {
			t.Errorf("fixable sample %+v", s)
		}
	}
	if hopeless.Passed != 0 || hopeless.PassAt1 != 0 || hopeless.RollbackRate != 1 || hopeless.Runs[0].StopReason != "max_rounds" ||
		hopeless.Runs[0].Status != "FAIL" || hopeless.Runs[0].RunStatus != "FAILED" {
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
	runs, up := loopJudged(t, enginetest.CalcJudge, steps...)
	return runs, up
}

// loopJudged is loop with the fake executor judging with judge; it also
// returns the loop's blob client.
func loopJudged(t *testing.T, judge enginetest.Judge, steps ...*glv1.Step) (glv1.RunServiceClient, *blob.Client) {
	t.Helper()
	cfg := loopsvc.DefaultConfig()
	cfg.DataDir = t.TempDir()
	blobs, err := blob.NewStore(filepath.Join(cfg.DataDir, "blobs"))
	if err != nil {
		t.Fatal(err)
	}
	exec := enginetest.NewExecutor(blobs, judge)
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

// TestAllowConfigChanges: only the task file or the caller's options set
// allow_config_changes; by default it is off.
func TestAllowConfigChanges(t *testing.T) {
	_, tasks, blobs := suiteOf(t, map[string]string{
		"off/" + eval.TaskFile:     "provider: {kind: replay, recording_id: r_1}\n",
		"off/repo/greenlight.yaml": "steps: []\n",
		"on/" + eval.TaskFile:      "provider: {kind: replay, recording_id: r_1}\nallow_config_changes: true\n",
		"on/repo/calc.py":          "x = 1\n",
	})
	for _, c := range []struct {
		opts eval.Options
		want map[string]bool
	}{
		{eval.Options{}, map[string]bool{"off": false, "on": true}},
		{eval.Options{AllowConfigChanges: true}, map[string]bool{"off": true, "on": true}},
	} {
		runs := &recordingRuns{}
		rep, err := eval.Run(context.Background(), runs, blobs, tasks, c.opts)
		if err != nil {
			t.Fatal(err)
		}
		for i, st := range runs.starts {
			task := rep.Tasks[i].Name
			if got := st.GetOptions().GetGuardrails().GetAllowConfigChanges(); got != c.want[task] {
				t.Errorf("options %+v, task %s: allow_config_changes %t, want %t", c.opts.AllowConfigChanges, task, got, c.want[task])
			}
		}
	}
	if tasks[0].AllowConfigChanges {
		t.Error("Run changed the caller's task")
	}
}

// suiteOf writes files as a suite directory and loads it, with an empty
// blob store for the samples' snapshots.
func suiteOf(t *testing.T, files map[string]string) (string, []*eval.Task, *blob.Store) {
	t.Helper()
	dir := t.TempDir()
	enginetest.WriteFiles(t, dir, files)
	tasks, err := eval.LoadSuite(dir)
	if err != nil {
		t.Fatal(err)
	}
	blobs, err := blob.NewStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return dir, tasks, blobs
}
