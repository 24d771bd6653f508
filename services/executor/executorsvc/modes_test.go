package executorsvc

// The representative behaviours, in both step runner modes: one `docker
// exec` per process (exec) and greenlight-runner (agent). The rest of the
// suite runs in the default mode (auto: the runner when the image has it);
// GREENLIGHT_TEST_STEP_RUNNER=exec runs all of it with exec.

import (
	"context"
	"strings"
	"testing"
	"time"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/executor/internal/sandbox"
	"github.com/greenlight-dev/greenlight/services/executor/internal/testenv"
)

func TestStepRunnerModes(t *testing.T) {
	for _, mode := range []string{sandbox.StepRunnerExec, sandbox.StepRunnerAgent} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, func(c *Config) { c.StepRunner = mode })
			for _, sc := range modeScenarios {
				t.Run(sc.name, func(t *testing.T) {
					outer := e.t
					e.t = t // the helpers report to the scenario
					defer func() { e.t = outer }()
					sc.run(t, e, mode)
					e.svc.runner.Wait() // the next scenario counts containers
				})
			}
		})
	}
}

var modeScenarios = []struct {
	name string
	run  func(t *testing.T, e *env, mode string)
}{
	{"pass and fail", modePassFail},
	{"timeout", modeTimeout},
	{"cancel", modeCancel},
	{"oom", modeOOM},
	{"flood", modeFlood},
	{"network", modeNetwork},
}

// modePassFail: statuses, streams, exit code, tail, skip reason; and how
// many docker execs the run took: none in agent mode (the runner is the
// container's main process), one per process (copy-in and each step) in
// exec mode.
func modePassFail(t *testing.T, e *env, mode string) {
	before := e.rt.execs.Load()
	r := e.mustExecute(context.Background(), e.request(nil,
		sh("ok", "echo out; echo err >&2; cat README"),
		sh("fail", "echo before-failure; exit 4"),
		sh("never", "echo never"),
	))
	ok, fail, never := r.result(0), r.result(1), r.result(2)
	if out, errOut := r.stream(0, glv1.Stream_STREAM_STDOUT), r.stream(0, glv1.Stream_STREAM_STDERR); ok.GetStatus() != glv1.StepStatus_STEP_STATUS_OK ||
		out != "out\nhello\n" || errOut != "err\n" {
		t.Errorf("ok: %s stdout %q stderr %q", statusOf(ok), out, errOut)
	}
	if fail.GetStatus() != glv1.StepStatus_STEP_STATUS_FAILED || fail.GetExitCode() != 4 || fail.GetTail() != "before-failure\n" {
		t.Errorf("fail: %s exit %d tail %q", statusOf(fail), fail.GetExitCode(), fail.GetTail())
	}
	if never.GetStatus() != glv1.StepStatus_STEP_STATUS_SKIPPED || !strings.Contains(never.GetReason(), `step "fail" failed`) {
		t.Errorf("never: %s %q", statusOf(never), never.GetReason())
	}
	execs := e.rt.execs.Load() - before
	if (mode == sandbox.StepRunnerAgent && execs != 0) || (mode == sandbox.StepRunnerExec && execs < 3) {
		t.Errorf("%d docker execs in %s mode", execs, mode)
	}
}

// modeTimeout: TIMED_OUT at the limit with the output so far, the next
// step skipped, the container gone when the RPC returns.
func modeTimeout(t *testing.T, e *env, _ string) {
	start := time.Now()
	r := e.mustExecute(context.Background(), e.request(nil,
		timeout(sh("hang", "printf partial; sleep 100"), time.Second), sh("after", "true")))
	hang := r.result(0)
	if hang.GetStatus() != glv1.StepStatus_STEP_STATUS_TIMED_OUT || hang.GetTail() != "partial" ||
		!strings.Contains(hang.GetReason(), "timed out after 1s") {
		t.Errorf("hang: %s %q %q", statusOf(hang), hang.GetTail(), hang.GetReason())
	}
	if got := r.result(1); got.GetStatus() != glv1.StepStatus_STEP_STATUS_SKIPPED || !strings.Contains(got.GetReason(), "timed out") {
		t.Errorf("after: %s %q", statusOf(got), got.GetReason())
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("the run took %s for a 1s timeout", d)
	}
	if n := len(testenv.Containers(t, e.rt, e.owner)); n != 0 {
		t.Errorf("%d container(s) left when the RPC returned", n)
	}
}

// modeCancel: canceling the stream mid-step removes the container within
// 2 s.
func modeCancel(t *testing.T, e *env, _ string) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stream, err := e.client.Execute(ctx, e.request(nil, sh("sleep", "echo started; sleep 100")))
	if err != nil {
		t.Fatal(err)
	}
	for {
		msg, err := stream.Recv()
		if err != nil {
			t.Fatalf("stream ended before output: %v", err)
		}
		if strings.Contains(msg.GetLogChunk().GetData(), "started") {
			break
		}
	}
	cancel()
	testenv.WaitNoContainers(t, e.rt, e.owner, 2*time.Second)
}

// modeOOM: a memory bomb is OOM_KILLED (exit 137); the next failing step
// is a plain failure (the counter is not read twice).
func modeOOM(t *testing.T, e *env, _ string) {
	r := e.mustExecute(context.Background(), smallLimits(e.request(nil,
		&glv1.Step{Name: "bomb", Phase: glv1.Phase_PHASE_TEST, ContinueOnFailure: true,
			Command: `python3 -c "x = bytearray(1 << 30)"`},
		sh("plain", "exit 7"),
	)))
	if got := r.result(0); got.GetStatus() != glv1.StepStatus_STEP_STATUS_OOM_KILLED || got.GetExitCode() != 137 ||
		!strings.Contains(got.GetReason(), "OOM killer") {
		t.Errorf("bomb: %s exit %d %q", statusOf(got), got.GetExitCode(), got.GetReason())
	}
	if got := r.result(1); got.GetStatus() != glv1.StepStatus_STEP_STATUS_FAILED || got.GetExitCode() != 7 {
		t.Errorf("plain: %s exit %d", statusOf(got), got.GetExitCode())
	}
}

// modeFlood: 50 MB of output are all counted, the first 4 MiB stored with
// the truncation note, the step still passes.
func modeFlood(t *testing.T, e *env, _ string) {
	const n = 50_000_000
	r := e.mustExecute(context.Background(), e.request(nil, sh("flood", "head -c 50000000 /dev/zero | tr '\\0' y")))
	got := r.result(0)
	if got.GetStatus() != glv1.StepStatus_STEP_STATUS_OK || !got.GetTruncated() || got.GetOutputBytes() != n {
		t.Errorf("flood: %s truncated=%v output=%d", statusOf(got), got.GetTruncated(), got.GetOutputBytes())
	}
	if log := e.readBlob(got.GetLogDigest()); !strings.HasPrefix(log, strings.Repeat("y", 4<<20)+"\n[greenlight: output truncated") {
		t.Errorf("stored log of %d bytes: %q...", len(log), log[:min(len(log), 80)])
	}
}

// modeNetwork: the install step has an interface, the next step only
// loopback.
func modeNetwork(t *testing.T, e *env, _ string) {
	probe := `python3 -c "print(sorted(l.split(':')[0].strip() for l in open('/proc/net/dev').readlines()[2:]))"`
	r := e.mustExecute(context.Background(), e.request(nil,
		&glv1.Step{Name: "install", Phase: glv1.Phase_PHASE_INSTALL, Network: true, Command: probe},
		sh("test", probe),
	))
	if got := r.result(0).GetTail(); !strings.Contains(got, "'eth0'") {
		t.Errorf("install: no interface (the check cannot fail): %q", got)
	}
	if got := r.result(1).GetTail(); got != "['lo']\n" {
		t.Errorf("test after install: %q", got)
	}
}
