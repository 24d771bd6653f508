package sandbox_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/greenlight-dev/greenlight/services/executor/internal/sandbox"
	"github.com/greenlight-dev/greenlight/services/executor/internal/testenv"
)

// A container that disappears under a running step (removed by someone
// else, an engine restart) ends the step promptly, in both step runner
// modes, instead of leaving it waiting for its timeout: as ERROR with the
// runner (its session ends), as the exec's exit status 137 without.
func TestContainerRemovedUnderAStep(t *testing.T) {
	for _, mode := range []string{sandbox.StepRunnerExec, sandbox.StepRunnerAgent} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, func(c *sandbox.Config) { c.StepRunner = mode })
			req := h.request(nil, step("sleep", "echo started; sleep 120"), step("after", "true"))
			var once sync.Once
			removed := make(chan time.Time, 1)
			sink := func(ev sandbox.Event) error {
				if c, ok := ev.(*sandbox.LogChunk); ok && strings.Contains(c.Data, "started") {
					once.Do(func() { go removeOwned(t, h, removed) })
				}
				return nil
			}
			res, err := h.runner.Run(context.Background(), req, sink)
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			var at time.Time
			select {
			case at = <-removed:
			case <-time.After(30 * time.Second):
				t.Fatalf("the container was never removed (the step printed nothing?): %+v", res.Steps[0])
			}
			got, want := res.Steps[0], sandbox.StatusFailed
			if mode == sandbox.StepRunnerAgent {
				want = sandbox.StatusError
			}
			if got.Status != want || got.FinishedAt.Sub(at) > 15*time.Second {
				t.Errorf("sleep: %s %q, finished %s after the removal", got.Status, got.Reason, got.FinishedAt.Sub(at))
			}
			if res.Steps[1].Status != sandbox.StatusSkipped {
				t.Errorf("after: %s", res.Steps[1].Status)
			}
		})
	}
}

// removeOwned removes the harness's containers behind the executor's back.
func removeOwned(t *testing.T, h *harness, removed chan<- time.Time) {
	for _, c := range testenv.Containers(t, h.rt, h.owner) {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		if err := h.rt.Remove(ctx, c.ID); err != nil {
			t.Errorf("remove: %v", err)
		}
		cancel()
	}
	removed <- time.Now()
}

// The go image links its seed build cache (the standard library, built
// with the image) into $GOCACHE through its prepare command in every way a
// sandbox comes to be: created for the run without and with the runner,
// and taken from the warm pool. The first build compiles no standard
// package (go build -x shows no compile with -std), their export data
// resolves into the seed, and no compiled package of the seed is copied
// into $GOCACHE (links only).
func TestGoImageLinksItsSeed(t *testing.T) {
	const seed = "/usr/local/share/greenlight/go-build"
	files := map[string]testenv.File{
		"go.mod":  {Body: "module example.com/hello\n\ngo 1.21\n"},
		"main.go": {Body: "package main\n\nimport (\n\t\"fmt\"\n\t\"net/http\"\n)\n\nfunc main() { fmt.Println(http.StatusOK) }\n"},
	}
	cases := []struct {
		name, mode string
		pool       bool
	}{
		{"exec", sandbox.StepRunnerExec, false},
		{"agent", sandbox.StepRunnerAgent, false},
		{"agent-pool", sandbox.StepRunnerAgent, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, func(c *sandbox.Config) { c.StepRunner = tc.mode })
			if tc.pool {
				usePool(t, h, testenv.GoImage)
			}
			req := h.request(files,
				step("build", `go build -x -o /tmp/hello . 2>/tmp/x && echo "std compiles: $(grep -cE '/compile .* -std( |$)' /tmp/x)" && /tmp/hello`),
				step("export", "go list -export -f '{{.Export}}' fmt net/http | xargs readlink -f"),
				step("gocache", `find "$GOCACHE" -type f -name '*-d' -size +1k | while read -r f; do test -e "`+seed+`/${f#"$GOCACHE"/}" && echo "copied: $f"; done; echo checked`))
			req.Image = testenv.GoImage
			res, _ := h.run(context.Background(), req)
			if got := res.Steps[0]; got.Status != sandbox.StatusOK || got.Tail != "std compiles: 0\n200\n" {
				t.Errorf("build: %s %q", got.Status, got.Tail)
			}
			got := res.Steps[1]
			lines := strings.Fields(got.Tail)
			if got.Status != sandbox.StatusOK || len(lines) != 2 {
				t.Fatalf("export: %s %q", got.Status, got.Tail)
			}
			for _, l := range lines {
				if !strings.HasPrefix(l, seed+"/") {
					t.Errorf("export data at %s, not in the seed", l)
				}
			}
			if got := res.Steps[2]; got.Status != sandbox.StatusOK || got.Tail != "checked\n" {
				t.Errorf("gocache: %s %q", got.Status, got.Tail)
			}
			t.Logf("go build with the seed linked: %s", res.Steps[0].Duration.Round(time.Millisecond))
		})
	}
}

// usePool gives the harness a warm pool of one container of image and
// waits until it is filled.
func usePool(t *testing.T, h *harness, image string) {
	t.Helper()
	cfg := h.runner.Config()
	cfg.Owner = h.owner + "-pool"
	t.Cleanup(func() { testenv.WaitNoContainers(t, h.rt, cfg.Owner, 10*time.Second) })
	pool := sandbox.NewPool(h.rt, cfg, sandbox.SelfIdentity(), 1, testenv.Logger(t))
	t.Cleanup(pool.Close)
	r, err := sandbox.NewRunner(cfg, h.rt, h.blobs, sandbox.WithPool(pool), sandbox.WithLogger(testenv.Logger(t)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Wait)
	h.runner = r
	img, err := h.rt.Image(context.Background(), image)
	if err != nil {
		t.Fatal(err)
	}
	pool.Warm(img)
	deadline := time.Now().Add(60 * time.Second)
	for pool.Idle(image) < 1 {
		if time.Now().After(deadline) {
			t.Fatal("the pool did not fill")
		}
		time.Sleep(20 * time.Millisecond)
	}
}
