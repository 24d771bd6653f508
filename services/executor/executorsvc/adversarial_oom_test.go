package executorsvc

import (
	"context"
	"strings"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// failing marks a step that may fail without stopping the pipeline.
func failing(s *glv1.Step) *glv1.Step {
	s.ContinueOnFailure = true
	return s
}

// Row 36: a step fills every tmpfs mount at once (/tmp, the home directory
// and the workspace) whose caps, as asked, add up to more than the memory
// limit, while another step's verdict is a plain FAIL. The filler ends
// FAILED (ENOSPC) or OOM_KILLED, never ERROR and never OK; the FAIL stays a
// FAIL, the sandbox (and its step runner) survives for the next step, and
// the caps actually applied leave room under the memory limit.
func TestFillingEveryTmpfsCannotTurnAFailIntoAnError(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	// head keeps almost nothing in memory: without the protection the
	// kernel finds the step runner the biggest process to OOM-kill.
	fill := `rc=0; for d in /tmp "$HOME" /workspace; do head -c 200m /dev/zero > "$d/fill" & pids="$pids $!"; done
for p in $pids; do wait $p || rc=$?; done; exit $rc`
	req := e.request(nil,
		failing(sh("fails", "echo the test failed; exit 1")),
		failing(sh("fill", fill)),
		sh("after", "echo still-alive"),
	)
	req.Limits = &glv1.Limits{MemoryBytes: 96 << 20, Pids: 64, TmpfsBytes: 64 << 20, WorkspaceBytes: 64 << 20}
	r := e.mustExecute(context.Background(), req)
	for i := range r.finished.GetResults() {
		if got := r.result(i); got.GetStatus() == glv1.StepStatus_STEP_STATUS_ERROR {
			t.Errorf("step %s: ERROR %q: filling the tmpfs mounts turned a verdict into an infrastructure error", got.GetName(), got.GetReason())
		}
	}
	if got := r.result(0); got.GetStatus() != glv1.StepStatus_STEP_STATUS_FAILED {
		t.Errorf("fails: %s %q", statusOf(got), got.GetReason())
	}
	fillRes := r.result(1)
	switch fillRes.GetStatus() {
	case glv1.StepStatus_STEP_STATUS_FAILED, glv1.StepStatus_STEP_STATUS_OOM_KILLED:
	default:
		t.Errorf("fill: %s %q, want FAILED or OOM_KILLED", statusOf(fillRes), fillRes.GetReason())
	}
	if why := fillRes.GetReason() + fillRes.GetTail(); !strings.Contains(why, "No space left on device") && !strings.Contains(why, "OOM") {
		t.Errorf("fill: neither ENOSPC nor OOM said: reason %q tail %q", fillRes.GetReason(), fillRes.GetTail())
	}
	if got := r.result(2); got.GetStatus() != glv1.StepStatus_STEP_STATUS_OK || !strings.Contains(got.GetTail(), "still-alive") {
		t.Errorf("after: %s %q %q", statusOf(got), got.GetReason(), got.GetTail())
	}
	lim := r.finished.GetManifest().GetLimits()
	if sum := 2*lim.GetTmpfsBytes() + lim.GetWorkspaceBytes(); sum >= lim.GetMemoryBytes() {
		t.Errorf("applied caps: tmpfs %d (twice) + workspace %d >= memory %d", lim.GetTmpfsBytes(), lim.GetWorkspaceBytes(), lim.GetMemoryBytes())
	}
	if log := e.readBlob(r.finished.GetCombinedLog()); !strings.Contains(log, "tmpfs caps were reduced") {
		t.Errorf("the combined log does not say the caps were reduced:\n%s", log)
	}
}

// Row 37: a child is OOM-killed while the step itself exits 0: the step is
// not OK, and its reason says a process was OOM-killed.
func TestOOMKilledChildFailsAStepThatExitsZero(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	child := `python3 -c "x = bytearray(256 << 20); print('survived')" || echo "child died: $?"; exit 0`
	req := e.request(nil,
		failing(sh("child-oom", child)),
		sh("after", "cat /proc/self/oom_score_adj"),
	)
	req.Limits = &glv1.Limits{MemoryBytes: 64 << 20, Pids: 64, TmpfsBytes: 8 << 20, WorkspaceBytes: 8 << 20}
	r := e.mustExecute(context.Background(), req)
	got := r.result(0)
	if got.GetStatus() == glv1.StepStatus_STEP_STATUS_OK || got.GetStatus() == glv1.StepStatus_STEP_STATUS_ERROR {
		t.Errorf("child-oom: %s exit %d %q (tail %q): an OOM kill inside a step that exits 0 was not noticed",
			statusOf(got), got.GetExitCode(), got.GetReason(), got.GetTail())
	}
	if !strings.Contains(got.GetReason(), "OOM-killed during this step") {
		t.Errorf("child-oom: reason %q", got.GetReason())
	}
	if strings.Contains(got.GetTail(), "survived") || !strings.Contains(got.GetTail(), "child died") {
		t.Errorf("child-oom: the child was not OOM-killed: %q", got.GetTail())
	}
	// The next step is judged on its own (the kill was counted once), and
	// its processes are the OOM killer's first choice.
	if got := r.result(1); got.GetStatus() != glv1.StepStatus_STEP_STATUS_OK || strings.TrimSpace(got.GetTail()) != "1000" {
		t.Errorf("after: %s %q, oom_score_adj %q", statusOf(got), got.GetReason(), got.GetTail())
	}
}

// Row 36, evading the OOM ordering: the step lowers its oom_score_adj back
// to 0, fills the (capped) tmpfs mounts and then the memory left with many
// processes each smaller than the step runner, so the kernel's OOM killer
// picks the runner (or, without the runner, the container's main process).
// The step ends OOM_KILLED with that reason, never ERROR, and the earlier
// FAIL stays a FAIL.
func TestRunnerKilledByAStepsOOMIsNotAnError(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	evade := `echo 0 > /proc/self/oom_score_adj || exit 3
for d in /tmp "$HOME" /workspace; do head -c 200m /dev/zero > "$d/fill" 2>/dev/null; done
i=0; while [ $i -lt 50 ]; do sh -c 'x=$(head -c 900000 /dev/zero | tr "\0" a); sleep 5' & i=$((i+1)); done; wait`
	req := e.request(nil,
		failing(sh("fails", "exit 1")),
		failing(sh("evade", evade)),
	)
	req.Limits = &glv1.Limits{MemoryBytes: 96 << 20, Pids: 200, TmpfsBytes: 64 << 20, WorkspaceBytes: 64 << 20}
	r := e.mustExecute(context.Background(), req)
	if got := r.result(0); got.GetStatus() != glv1.StepStatus_STEP_STATUS_FAILED {
		t.Errorf("fails: %s %q", statusOf(got), got.GetReason())
	}
	got := r.result(1)
	if got.GetStatus() != glv1.StepStatus_STEP_STATUS_OOM_KILLED || !strings.Contains(got.GetReason(), "OOM-killed during this step") {
		t.Errorf("evade: %s exit %d %q (tail %q), want OOM_KILLED with the reason", statusOf(got), got.GetExitCode(), got.GetReason(), got.GetTail())
	}
}
