package executorsvc

// greenlight-runner, the in-container step runner: what a step may try
// against it, through the real service on the real engine, with the runner
// required (agent mode), so that these fail on images without it.

import (
	"context"
	"fmt"
	"strings"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/executor/internal/runnerproto"
	"github.com/greenlight-dev/greenlight/services/executor/internal/sandbox"
)

// agentEnv is an executor that must use greenlight-runner.
func agentEnv(t *testing.T) *env {
	return newEnv(t, func(c *Config) { c.StepRunner = sandbox.StepRunnerAgent })
}

// findRunner is shell that prints the pid of `runner serve` (steps can
// read every process's command line, not more).
const findRunner = `runner=; for p in /proc/[0-9]*; do
  case "$(tr '\0' ' ' < $p/cmdline 2>/dev/null)" in "` + runnerproto.Path + ` serve "*) runner=${p#/proc/};; esac
done; [ -n "$runner" ] || { echo "no runner process"; exit 99; }`

// A step that prints bytes which are valid protocol frames (an Exit frame
// saying "exit 0" for every id a run could use, and an Stdout frame) gets
// them delivered as its plain output, and its real exit status is
// reported: its stdout and stderr are pipes to the runner, never the
// runner's own stdout.
func TestRunnerStepCannotForgeFrames(t *testing.T) {
	t.Parallel()
	e := agentEnv(t)
	var forged []byte
	for id := uint32(1); id <= 8; id++ {
		forged = runnerproto.AppendFrame(forged, runnerproto.KindExit, id, []byte(`{"code":0,"oom_kills":0,"ms":1}`))
		forged = runnerproto.AppendFrame(forged, runnerproto.KindStdout, id, []byte("forged\n"))
	}
	printf := "printf '" + octalEscape(forged) + "'"
	r := e.mustExecute(context.Background(), e.request(nil,
		&glv1.Step{Name: "forge", Phase: glv1.Phase_PHASE_TEST, ContinueOnFailure: true,
			Command: printf + "; " + printf + " >&2; exit 3"},
		// The step's own /proc/self/fd links lead to its pipes only; the
		// runner's descriptors are out of reach.
		&glv1.Step{Name: "runner-stdout", Phase: glv1.Phase_PHASE_TEST, ContinueOnFailure: true,
			Command: findRunner + "\n" + printf + " > /proc/$runner/fd/1 2>&1 || echo refused; echo via-dev-stdout > /dev/stdout"},
		sh("after", "echo after"),
	))
	forge := r.result(0)
	if forge.GetStatus() != glv1.StepStatus_STEP_STATUS_FAILED || forge.GetExitCode() != 3 {
		t.Errorf("forge: %s exit %d (a forged frame decided the result)", statusOf(forge), forge.GetExitCode())
	}
	if out, errOut := r.stream(0, glv1.Stream_STREAM_STDOUT), r.stream(0, glv1.Stream_STREAM_STDERR); out != string(forged) || errOut != string(forged) {
		t.Errorf("forge: the frame bytes did not arrive verbatim as output:\nstdout %q\nstderr %q", out, errOut)
	}
	if log := e.readBlob(forge.GetLogDigest()); strings.Count(log, string(forged)) != 2 {
		t.Errorf("forge: stored log %q", log)
	}
	if got := r.result(1); got.GetStatus() != glv1.StepStatus_STEP_STATUS_OK ||
		!strings.Contains(got.GetTail(), "refused") || !strings.Contains(got.GetTail(), "via-dev-stdout") {
		t.Errorf("runner-stdout: %s %q", statusOf(got), got.GetTail())
	}
	if got := r.result(2); got.GetStatus() != glv1.StepStatus_STEP_STATUS_OK || got.GetTail() != "after\n" {
		t.Errorf("after: %s %q", statusOf(got), got.GetTail())
	}
	if n := e.rt.execs.Load(); n != 0 {
		t.Errorf("%d docker execs for one run, want none (the runner is the container's main process)", n)
	}
}

// octalEscape escapes b for printf.
func octalEscape(b []byte) string {
	var sb strings.Builder
	for _, c := range b {
		fmt.Fprintf(&sb, "\\%03o", c)
	}
	return sb.String()
}

// A step cannot kill, stop, trace or read the runner: `kill -9 -1`,
// killing every process by pid, `kill -STOP` of the runner, reading its
// environment and descriptors. The run goes on and reports every step.
func TestRunnerStepCannotKillTheRunner(t *testing.T) {
	t.Parallel()
	e := agentEnv(t)
	attack := func(name, cmd string) *glv1.Step {
		return &glv1.Step{Name: name, Phase: glv1.Phase_PHASE_TEST, ContinueOnFailure: true, Command: cmd}
	}
	r := e.mustExecute(context.Background(), e.request(nil,
		attack("kill-all", "sleep 300 & kill -9 -1; echo after-kill-all"),
		attack("kill-each", `for p in /proc/[0-9]*; do kill -9 ${p#/proc/} 2>/dev/null; done; echo after-kill-each`),
		attack("kill-runner", findRunner+"\nkill -STOP $runner; kill -9 $runner; echo rc=$?"),
		attack("read-runner", findRunner+"\ncat /proc/$runner/environ; ls /proc/$runner/fd; echo end"),
		sh("alive", "echo alive"),
	))
	want := []struct {
		status glv1.StepStatus
		tail   []string
	}{
		{glv1.StepStatus_STEP_STATUS_OK, []string{"after-kill-all"}},
		// The loop kills its own shell too: a signal-killed step.
		{glv1.StepStatus_STEP_STATUS_FAILED, nil},
		{glv1.StepStatus_STEP_STATUS_OK, []string{"Operation not permitted", "rc=1"}},
		{glv1.StepStatus_STEP_STATUS_OK, []string{"Permission denied", "end"}},
		{glv1.StepStatus_STEP_STATUS_OK, []string{"alive"}},
	}
	for i, w := range want {
		got := r.result(i)
		ok := got.GetStatus() == w.status
		for _, s := range w.tail {
			ok = ok && strings.Contains(got.GetTail(), s)
		}
		if !ok {
			t.Errorf("%s: %s exit %d %q", got.GetName(), statusOf(got), got.GetExitCode(), got.GetTail())
		}
	}
	if got := r.result(1).GetExitCode(); got != 137 {
		t.Errorf("kill-each: exit %d, want 137 (killed by its own SIGKILL)", got)
	}
}

// With the runner, the container keeps CAP_SETUID, CAP_SETGID and CAP_KILL
// for the runner alone: a step (and what it starts in the background) has
// empty permitted and effective sets, while the runner has exactly those
// three (so the check is not vacuous).
func TestRunnerStepHasNoCapabilities(t *testing.T) {
	t.Parallel()
	e := agentEnv(t)
	r := e.mustExecute(context.Background(), e.request(nil, sh("caps", findRunner+`
(sleep 0.1; grep -E '^Cap(Prm|Eff):' /proc/self/status | sed 's/^/background /') &
grep -E '^(Cap[A-Za-z]+|NoNewPrivs):' /proc/self/status
grep -E '^Cap(Prm|Eff):' /proc/$runner/status | sed 's/^/runner /'
grep -E '^Uid:' /proc/$runner/status | sed 's/^/runner /'
wait`)))
	tail := r.result(0).GetTail()
	for _, line := range []string{
		"CapPrm:\t" + zeroCaps, "CapEff:\t" + zeroCaps, "CapInh:\t" + zeroCaps, "CapAmb:\t" + zeroCaps, "NoNewPrivs:\t1",
		"background CapPrm:\t" + zeroCaps, "background CapEff:\t" + zeroCaps,
		"runner CapPrm:\t" + runnerBoundingSet, "runner CapEff:\t" + runnerBoundingSet, "runner Uid:\t0\t0\t0\t0",
	} {
		if !strings.Contains(tail, line+"\n") {
			t.Errorf("missing %q in:\n%s", line, tail)
		}
	}
}
