package sandbox_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"

	"go.uber.org/zap"

	"github.com/greenlight-dev/greenlight/pkg/blob"
	"github.com/greenlight-dev/greenlight/services/executor/internal/docker"
	"github.com/greenlight-dev/greenlight/services/executor/internal/sandbox"
	"github.com/greenlight-dev/greenlight/services/executor/internal/testenv"
)

// envCreator makes the test binary a sandbox creator that the test then
// SIGKILLs or SIGSTOPs: "BLOBDIR SNAPSHOT OWNER STEPRUNNER BUDGET_SECONDS".
const envCreator = "SANDBOX_TEST_CREATOR"

func TestMain(m *testing.M) {
	if args := os.Getenv(envCreator); args != "" {
		os.Exit(creator(args))
	}
	os.Exit(m.Run())
}

// creatorGrace is how long a creator's sandbox outlives its run budget.
const creatorGrace = time.Second

// creator starts a run whose only step sleeps far past the run budget, as
// an embedded CLI would, in the given step runner mode, and is killed (or
// stopped) before it can clean anything up.
func creator(args string) int {
	var dir, snap, owner, mode string
	var seconds int
	if _, err := fmt.Sscan(args, &dir, &snap, &owner, &mode, &seconds); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	rt, err := docker.New("", zap.NewNop())
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	blobs, err := blob.NewStore(dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	d, err := blob.ParseDigest(snap)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	cfg := sandbox.DefaultConfig()
	cfg.TempDir, cfg.StepRunner, cfg.DeadlineGrace = dir, mode, creatorGrace
	// Another host's identity: the reapers of greenlight processes running
	// meanwhile on this host (other tests) only apply the deadline label,
	// instead of removing the sandbox at once because its creator is dead.
	self := sandbox.SelfIdentity()
	self.Host = "deadline-test-" + owner
	r, err := sandbox.NewRunner(cfg, rt, blobs, sandbox.WithIdentity(self))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	_, err = r.Run(context.Background(), sandbox.Request{
		RunID: "deadline", Owner: owner, Snapshot: d, Image: testenv.PythonImage,
		Steps:  []sandbox.Step{{Name: "sleep", Command: "sleep 600"}},
		Limits: sandbox.Limits{RunTimeout: time.Duration(seconds) * time.Second},
	}, func(sandbox.Event) error { return nil })
	fmt.Fprintln(os.Stderr, "the run ended before the creator was killed:", err)
	return 1
}

// A sandbox whose creator is SIGKILLed or hangs mid-run (nothing removes
// it, no reaper runs) stops by itself, its main process exiting (status
// 0): with the step runner as main process, at once when the creator dies
// (the engine closes the runner's stdin when the attachment ends), and at
// its deadline (the end of the run budget plus the grace) when the
// creator hangs with the attachment open; without the runner (one docker
// exec per step, the keep-alive main process), at its deadline either way.
func TestSandboxStopsWhenItsCreatorDiesOrHangs(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		mode   string
		signal syscall.Signal
		budget time.Duration
		// atOnce: the sandbox stops within seconds of the signal, long
		// before its deadline; else around its deadline.
		atOnce bool
	}{
		{"runner, creator killed", sandbox.StepRunnerAgent, syscall.SIGKILL, time.Minute, true},
		{"runner, creator hangs", sandbox.StepRunnerAgent, syscall.SIGSTOP, 4 * time.Second, false},
		{"exec, creator killed", sandbox.StepRunnerExec, syscall.SIGKILL, 4 * time.Second, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rt := testenv.Docker(t)
			owner := testenv.Owner(t)
			dir := t.TempDir()
			store, err := blob.NewStore(dir)
			if err != nil {
				t.Fatal(err)
			}
			snap := testenv.Snapshot(t, store, map[string]testenv.File{"README": {Body: "hi\n"}})
			t.Cleanup(func() { removeAll(t, rt, owner) })

			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%s %s %s %s %d", envCreator, dir, snap, owner, tc.mode, int(tc.budget/time.Second)))
			cmd.Stderr = os.Stderr
			start := time.Now()
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() {
				_ = cmd.Process.Kill() // a stopped process dies too
				_ = cmd.Wait()
			})
			id := waitRunning(t, rt, owner, 15*time.Second)
			time.Sleep(300 * time.Millisecond) // the step is running
			_ = cmd.Process.Signal(tc.signal)
			signaled := time.Now()
			if !tc.atOnce {
				if st, err := rt.State(context.Background(), id); err != nil || !st.Running {
					t.Fatalf("the sandbox stopped with its creator (%+v, %v): nothing would be left to test", st, err)
				}
			}
			deadline := start.Add(tc.budget + creatorGrace)
			for {
				st, err := rt.State(context.Background(), id)
				if err != nil || !st.Running {
					if early := deadline.Add(-2 * time.Second); !tc.atOnce && time.Now().Before(early) {
						t.Errorf("the sandbox stopped %s before its deadline (%+v, %v)", time.Until(deadline), st, err)
					}
					// Its main process exited by itself (a removal kills it).
					if err == nil && st.ExitCode != 0 {
						t.Errorf("the sandbox was stopped by something else: %+v", st)
					}
					return
				}
				if tc.atOnce && time.Since(signaled) > 15*time.Second {
					t.Fatalf("the sandbox still runs %s after its creator died", time.Since(signaled).Round(time.Second))
				}
				if time.Since(deadline) > 5*time.Second {
					t.Fatalf("the sandbox still runs %s after its deadline, with its creator gone", time.Since(deadline).Round(time.Second))
				}
				time.Sleep(200 * time.Millisecond)
			}
		})
	}
}

// waitRunning returns the id of owner's first running container.
func waitRunning(t *testing.T, rt sandbox.Runtime, owner string, within time.Duration) string {
	t.Helper()
	end := time.Now().Add(within)
	for time.Now().Before(end) {
		for _, c := range testenv.Containers(t, rt, owner) {
			if c.State == "running" {
				return c.ID
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("no running sandbox of owner %s within %s", owner, within)
	return ""
}

// removeAll removes owner's containers (the dead creator left them).
func removeAll(t *testing.T, rt sandbox.Runtime, owner string) {
	for _, c := range testenv.Containers(t, rt, owner) {
		if err := rt.Remove(context.Background(), c.ID); err != nil {
			t.Errorf("removing %s: %v", c.ID, err)
		}
	}
}
