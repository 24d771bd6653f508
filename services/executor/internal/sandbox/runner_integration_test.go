package sandbox_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/greenlight-dev/greenlight/services/executor/internal/sandbox"
	"github.com/greenlight-dev/greenlight/services/executor/internal/testenv"
)

func TestRunPassAndFail(t *testing.T) {
	h := newHarness(t)
	req := h.request(map[string]testenv.File{"src/hello.txt": {Body: "hi from the snapshot\n"}},
		step("read", "cat src/hello.txt && echo to-stderr >&2"),
		sandbox.Step{Name: "sub", Command: "pwd", Workdir: "src"},
		step("fail", "echo before-failure; exit 3"),
		step("never", "echo never"),
	)
	res, ev := h.run(context.Background(), req)
	want := []sandbox.Status{sandbox.StatusOK, sandbox.StatusOK, sandbox.StatusFailed, sandbox.StatusSkipped}
	if got := statuses(res); !slices.Equal(got, want) {
		t.Fatalf("statuses = %v, want %v", got, want)
	}
	if got := ev.text(0, sandbox.StreamStdout); got != "hi from the snapshot\n" {
		t.Errorf("stdout of step 0 = %q", got)
	}
	if got := ev.text(0, sandbox.StreamStderr); got != "to-stderr\n" {
		t.Errorf("stderr of step 0 = %q", got)
	}
	if got := res.Steps[1].Tail; got != "/workspace/src\n" {
		t.Errorf("workdir tail = %q", got)
	}
	fail := res.Steps[2]
	if fail.ExitCode != 3 || !strings.Contains(fail.Tail, "before-failure") {
		t.Errorf("failing step: exit %d tail %q", fail.ExitCode, fail.Tail)
	}
	if got := h.log(fail.LogDigest); got != "before-failure\n" {
		t.Errorf("stored log = %q", got)
	}
	if skip := res.Steps[3]; skip.Reason == "" || !strings.Contains(skip.Reason, `"fail"`) {
		t.Errorf("skip reason = %q", skip.Reason)
	}
	combined := h.log(res.CombinedLog)
	for _, s := range []string{"==> [1/4] read", "hi from the snapshot", "<== fail: FAILED, exit code 3"} {
		if !strings.Contains(combined, s) {
			t.Errorf("combined log lacks %q:\n%s", s, combined)
		}
	}
	if res.Manifest.Platform.EngineVersion == "" || res.Manifest.Platform.ImageDigest == "" {
		t.Errorf("platform incomplete: %+v", res.Manifest.Platform)
	}
}

// Adjacent steps of one group run concurrently; a failure among them stops
// the pipeline only after the whole group has run.
func TestGroupedStepsRunConcurrently(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	req := h.request(nil,
		sandbox.Step{Name: "test", Group: "check", Command: "sleep 1.5; echo tested"},
		sandbox.Step{Name: "lint", Group: "check", Command: "sleep 1.5; echo linted; exit 1"},
		step("after", "echo after"),
	)
	res, _ := h.run(context.Background(), req)
	want := []sandbox.Status{sandbox.StatusOK, sandbox.StatusFailed, sandbox.StatusSkipped}
	if got := statuses(res); !slices.Equal(got, want) {
		t.Fatalf("statuses = %v, want %v", got, want)
	}
	a, b := res.Steps[0], res.Steps[1]
	end, start := a.FinishedAt, a.StartedAt
	if b.FinishedAt.Before(end) {
		end = b.FinishedAt
	}
	if b.StartedAt.After(start) {
		start = b.StartedAt
	}
	if overlap := end.Sub(start); overlap < time.Second {
		t.Errorf("the grouped steps did not overlap: %s-%s and %s-%s", a.StartedAt, a.FinishedAt, b.StartedAt, b.FinishedAt)
	}
}

// Independent subprojects each run to their own first failure: a failed
// step of scope "web" skips web's later steps and the unscoped ones, while
// the root scope's steps still run; an unscoped failure stops everything.
func TestFailureScopes(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	req := h.request(nil,
		sandbox.Step{Name: "web:build", FailureScope: "web", Command: "exit 2"},
		sandbox.Step{Name: "go-test", FailureScope: ".", Command: "echo root tested"},
		sandbox.Step{Name: "web:test", FailureScope: "web", Command: "echo never"},
		sandbox.Step{Name: "whole", Command: "echo never"},
		sandbox.Step{Name: "tools:test", FailureScope: "tools", Command: "exit 1"},
		sandbox.Step{Name: "go-vet", FailureScope: ".", Command: "echo root vetted"},
	)
	res, _ := h.run(context.Background(), req)
	want := []sandbox.Status{sandbox.StatusFailed, sandbox.StatusOK, sandbox.StatusSkipped, sandbox.StatusSkipped, sandbox.StatusFailed, sandbox.StatusOK}
	if got := statuses(res); !slices.Equal(got, want) {
		t.Fatalf("statuses = %v, want %v", got, want)
	}
	if r := res.Steps[2].Reason; !strings.Contains(r, `"web:build"`) {
		t.Errorf("skip reason of web:test = %q, want it to name web:build", r)
	}

	req = h.request(nil,
		step("unscoped", "exit 1"),
		sandbox.Step{Name: "web:test", FailureScope: "web", Command: "echo never"},
	)
	res, _ = h.run(context.Background(), req)
	if got := statuses(res); !slices.Equal(got, []sandbox.Status{sandbox.StatusFailed, sandbox.StatusSkipped}) {
		t.Fatalf("after an unscoped failure: statuses = %v", got)
	}
}
