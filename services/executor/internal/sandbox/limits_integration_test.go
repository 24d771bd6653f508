package sandbox_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/greenlight-dev/greenlight/services/executor/internal/sandbox"
)

// small makes a run's limits small so that adversarial steps hit them fast.
func small(req *sandbox.Request) {
	req.Limits = sandbox.Limits{MemoryBytes: 128 << 20, Pids: 64, TmpfsBytes: 16 << 20, HomeBytes: 16 << 20,
		WorkspaceBytes: 16 << 20}
}

func TestMemoryBombIsOOMKilled(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	req := h.request(nil,
		step("bomb", `python3 -c "x = bytearray(512 << 20); print('survived')"`),
		sandbox.Step{Name: "two-children", ContinueOnFailure: true, Command: `
python3 -c "import time; x = bytearray(80 << 20); time.sleep(3)" & a=$!
python3 -c "import time; x = bytearray(80 << 20); time.sleep(3)" & b=$!
wait $a && wait $b`},
		step("after", "echo still-alive"),
	)
	req.Steps[0].ContinueOnFailure = true
	small(&req)
	res, _ := h.run(context.Background(), req)
	for i, want := range []sandbox.Status{sandbox.StatusOOMKilled, sandbox.StatusOOMKilled, sandbox.StatusOK} {
		if got := res.Steps[i].Status; got != want {
			t.Errorf("step %d: status %v (exit %d, reason %q, tail %q), want %v", i, got, res.Steps[i].ExitCode,
				res.Steps[i].Reason, res.Steps[i].Tail, want)
		}
	}
	if strings.Contains(res.Steps[0].Tail, "survived") {
		t.Errorf("the bomb survived: %q", res.Steps[0].Tail)
	}
}

func TestTimeoutKillsTheSandbox(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	req := h.request(nil,
		step("bg", "sleep 1000000 & echo started-bg"),
		sandbox.Step{Name: "spin", Command: "printf partial-no-newline; while :; do :; done", Timeout: 3 * time.Second},
		step("never", "echo never"),
	)
	start := time.Now()
	res, ev := h.run(context.Background(), req)
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("run took %s", d)
	}
	spin := res.Steps[1]
	if spin.Status != sandbox.StatusTimedOut || !strings.Contains(spin.Reason, "timed out after 3s") {
		t.Errorf("spin: %v %q", spin.Status, spin.Reason)
	}
	if spin.Tail != "partial-no-newline" || !strings.Contains(ev.text(1, sandbox.StreamStdout), "partial-no-newline") {
		t.Errorf("partial output lost: tail %q, live %q", spin.Tail, ev.text(1, sandbox.StreamStdout))
	}
	if res.Steps[2].Status != sandbox.StatusSkipped {
		t.Errorf("never: %v", res.Steps[2].Status)
	}
	// The container (with the background sleep) is gone right away, not
	// only after the run's cleanup.
	if n := len(testenvContainers(t, h)); n != 0 {
		t.Errorf("%d containers left right after the timeout", n)
	}
}
