package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/greenlight-dev/greenlight/services/loop/eval"
)

// repoRoot is the checkout's root, where `examples/eval` is a relative
// path as in the README.
func repoRoot(t *testing.T) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// runIn runs the binary as u with dir as its working directory (a
// relative suite path is resolved against it).
func (c *user) runIn(dir string, args ...string) result {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env, cmd.Dir = c.environ(), dir
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	if cmd.ProcessState == nil {
		c.t.Fatalf("greenlight %s: %v", strings.Join(args, " "), err)
	}
	return result{code: cmd.ProcessState.ExitCode(), pid: cmd.ProcessState.Pid(), stdout: out.String(), stderr: errOut.String()}
}

func TestEvalExampleSuiteEmbedded(t *testing.T) {
	requireDocker(t)
	u := newUser(t)
	r := u.runIn(repoRoot(t), "eval", "examples/eval", "-k", "2", "--json")
	r.wantExit(t, 0, "eval examples/eval -k 2 --json")
	wantContract(t, "eval --json", []byte(r.stdout))
	var rep eval.Report
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatalf("--json output is not an eval report: %v\n%s", err, r.stdout)
	}
	// What the two tasks imply (examples/eval/README.md): one always fixed
	// by one 2-line patch, one never (each of its 2 rounds rolled back).
	if rep.Samples != 2 || rep.K != 2 || len(rep.Tasks) != 2 {
		t.Fatalf("report: samples %d, k %d, %d tasks\n%s", rep.Samples, rep.K, len(rep.Tasks), r.stdout)
	}
	if rep.PassAt1 != 0.5 || rep.PassAtK != 0.5 || rep.MedianPatchLines != 2 || rep.MedianAttemptsToGreen != 1 ||
		rep.RollbackRate != 0.667 || rep.MedianTimeToGreenSeconds <= 0 {
		t.Errorf("suite figures: pass@1 %g pass@2 %g lines %g attempts %g time %g rollback %g; want 0.5 0.5 2 1 >0 0.667",
			rep.PassAt1, rep.PassAtK, rep.MedianPatchLines, rep.MedianAttemptsToGreen, rep.MedianTimeToGreenSeconds, rep.RollbackRate)
	}
	fixable, unfixable := rep.Tasks[0], rep.Tasks[1]
	if fixable.Name != "fixable" || fixable.Passed != 2 || fixable.PassAt1 != 1 || fixable.PassAtK != 1 ||
		fixable.MedianPatchLines != 2 || fixable.MedianAttemptsToGreen != 1 || fixable.RollbackRate != 0 {
		t.Errorf("fixable: %+v", fixable)
	}
	for _, s := range fixable.Runs {
		if !s.Passed || s.Status != "PASS" || s.RunStatus != "PASSED" || s.ReferencePassed == nil || !*s.ReferencePassed || s.Patches != 1 || s.Error != "" {
			t.Errorf("fixable run: %+v", s)
		}
	}
	if unfixable.Name != "unfixable" || unfixable.Passed != 0 || unfixable.PassAt1 != 0 || unfixable.PassAtK != 0 || unfixable.RollbackRate != 1 {
		t.Errorf("unfixable: %+v", unfixable)
	}
	for _, s := range unfixable.Runs {
		if s.Passed || s.Status != "FAIL" || s.RunStatus != "FAILED" || s.StopReason != "max_rounds" || s.Rollbacks != 2 || s.Patches != 2 || s.Error != "" {
			t.Errorf("unfixable run: %+v", s)
		}
	}
	for _, want := range []string{"eval: fixable run 1/2…", "eval: fixable run 2/2: passed after 1 patch(es), 2 line(s)",
		"eval: unfixable run 2/2: failed (max_rounds) after 2 round(s): 2 patch(es), 2 rolled back"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("progress lacks %q:\n%s", want, r.stderr)
		}
	}
	// The runs are ordinary runs of the store.
	runs := u.run(nil, "runs", "--status", "passed")
	if id := fixable.Runs[0].RunID; id == "" || !strings.Contains(runs.stdout, id) {
		t.Errorf("runs --status passed does not list the fixable task's run %q:\n%s", id, runs.stdout)
	}
}

func TestEvalTableThroughServe(t *testing.T) {
	requireDocker(t)
	u := newUser(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	srv := startServe(t, ctx, u)
	remote := &user{t: t, home: t.TempDir()}
	r := remote.run(nil, "--addr", srv.publicAddr(t), "eval", "-k", "1", examples("eval"))
	r.wantExit(t, 0, "eval --addr -k 1 (text)")
	table := r.stdout
	t.Logf("table:\n%s", table)
	for _, re := range []string{
		`(?m)^\s*task\s+passed\s+pass@1\s+pass@1\s+median lines\s+median attempts\s+median time-to-green\s+rollback rate\s*$`,
		`(?m)^\s*fixable\s+1/1\s+1\.000\s+1\.000\s+2\s+1\s+\d+\.\ds\s+0\.000\s*$`,
		`(?m)^\s*unfixable\s+0/1\s+0\.000\s+0\.000\s+0\s+0\s+0\.0s\s+1\.000\s*$`,
		`(?m)^\s*suite \(2 tasks × 1\)\s+0\.500\s+0\.500\s+2\s+1\s+\d+\.\ds\s+0\.667\s*$`,
	} {
		if !regexp.MustCompile(re).MatchString(table) {
			t.Errorf("table does not match %s", re)
		}
	}
	if _, err := os.Stat(filepath.Join(remote.home, "runs.db")); err == nil {
		t.Error("eval --addr created an embedded run database")
	}
	srv.stop(t)
}

func TestEvalBadInputExit2BeforeRunning(t *testing.T) {
	bare := t.TempDir()
	if err := os.MkdirAll(filepath.Join(bare, "t1", "repo"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]string{"t1/task.yaml": "max_rounds: 1\n", "t1/repo/x.py": "x = 1\n"} {
		if err := os.WriteFile(filepath.Join(bare, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	suite := examples("eval")
	tests := []struct {
		name string
		args []string
		want string
	}{
		{name: "no suite", args: []string{"eval"}, want: "eval needs a suite directory (or --swebench FILE)"},
		{name: "not a suite", args: []string{"eval", filepath.Join(bare, "nope")}, want: "invalid eval suite"},
		{name: "a workspace is not a suite", args: []string{"eval", examples("pass")}, want: "has no task directories"},
		{name: "k zero", args: []string{"eval", "-k", "0", suite}, want: "-k/--runs must be 1..100, got 0"},
		{name: "k too big", args: []string{"eval", "--runs", "1000", suite}, want: "-k/--runs must be 1..100"},
		{name: "client provider", args: []string{"eval", "--provider", "client", suite}, want: "nobody to answer patch requests"},
		{name: "command without --command", args: []string{"eval", "--provider", "command", suite}, want: "--provider command needs --command CMD"},
		{name: "provider flags without --provider", args: []string{"eval", "--command", "cat x", suite}, want: "need --provider"},
		{name: "task without provider", args: []string{"eval", bare}, want: "task t1 names no provider in task.yaml"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			u := newUser(t)
			r := u.run(nil, tc.args...)
			r.wantExit(t, 2, strings.Join(tc.args, " "))
			r.wantOneLineError(t, tc.want)
			if _, err := os.Stat(filepath.Join(u.home, "runs.db")); err == nil {
				t.Error("a refused eval started greenlight (runs.db exists)")
			}
		})
	}
}

func TestEvalUnreachableAddrExit2(t *testing.T) {
	u := newUser(t)
	// A port nothing listens on: the snapshot upload fails, nothing runs.
	r := u.run(nil, "--addr", "127.0.0.1:1", "eval", "--provider", "command", "--command", "true", examples("eval"))
	r.wantExit(t, 2, "eval against an unreachable address")
	r.wantOneLineError(t, "not reachable")
}

func TestEvalWithoutAnEngineExit2NothingMeasured(t *testing.T) {
	// No Docker engine at all (this test needs none): every run ends ERROR,
	// so the zeros of the report measure nothing and the exit code says so.
	u := newUser(t)
	u.env = []string{"DOCKER_HOST=unix://" + filepath.Join(t.TempDir(), "no-docker.sock")}
	r := u.run(nil, "eval", "--json", examples("eval"))
	r.wantExit(t, 2, "eval without an engine")
	lines := strings.Split(strings.TrimSpace(r.stderr), "\n")
	last := lines[len(lines)-1]
	if !strings.HasPrefix(last, "greenlight: eval: every run of the eval ended in error, nothing was measured; the first: ") ||
		!strings.Contains(last, "container engine unavailable") {
		t.Errorf("last stderr line: %q", last)
	}
	if !strings.Contains(r.stderr, "eval: fixable run 1/1: not measured: ERROR: executor: container engine unavailable") {
		t.Errorf("progress should say why each run measured nothing:\n%s", r.stderr)
	}
	var rep eval.Report
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil || len(rep.Tasks) != 2 || rep.Tasks[0].Runs[0].Status != "ERROR" {
		t.Errorf("the report is still printed: %v\n%s", err, r.stdout)
	}
}
