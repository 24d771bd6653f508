package executorsvc

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/executor/internal/testenv"
)

// The warm build state (sandbox/warm.go) in the real go image: kept per
// owner and per set of manifests, saved only before the first step that
// runs the project's code, never from a run that failed before it.

// warmMarker is a file in the go image's build cache directory.
const warmMarker = "$HOME/.cache/go-build/greenlight-warm-test"

// toolchainStep writes the marker, standing for the compiler filling its
// cache; the executor takes ToolchainOnly from the caller (discovery sets
// it only for the Go commands it knows run no project code).
func toolchainStep(content string) *glv1.Step {
	s := sh("go-build", "mkdir -p $HOME/.cache/go-build && echo "+content+" > "+warmMarker)
	s.Phase, s.ToolchainOnly = glv1.Phase_PHASE_BUILD, true
	return s
}

// goRequest is a go-image request over files.
func (e *env) goRequest(files map[string]testenv.File, steps ...*glv1.Step) *glv1.ExecuteRequest {
	req := e.request(files, steps...)
	req.Pipeline.Runtime = "go"
	return req
}

func newGoEnv(t *testing.T) *env {
	return newEnv(t, func(c *Config) { c.Images = append(c.Images, "go="+testenv.GoImage) })
}

// goModule is a module's manifest, the key of its warm state.
func goModule(v string) map[string]testenv.File {
	return map[string]testenv.File{"go.mod": {Body: "module example.com/warm\n\ngo 1.22\n// " + v + "\n"}}
}

// readMarker is a step printing the marker and whether the planted file
// exists.
func readMarker() *glv1.Step {
	return sh("go-test", `cat `+warmMarker+` 2>/dev/null || echo none; test -e $HOME/.cache/go-build/planted && echo planted; true`)
}

// A test that rewrites the cache after the trust point changes nothing the
// next run gets: the state was saved before the test step.
func TestWarmStateIsSavedBeforeTheProjectsCodeRuns(t *testing.T) {
	t.Parallel()
	e := newGoEnv(t)
	tamper := sh("go-test", "echo tampered > "+warmMarker+" && echo x > $HOME/.cache/go-build/planted")
	first := e.mustExecute(context.Background(), e.goRequest(goModule("a"), toolchainStep("built"), tamper))
	if got := first.stream(1, glv1.Stream_STREAM_SYSTEM); !strings.Contains(got, "warm build state saved") {
		t.Fatalf("first run: no saved note before the test step; system output %q, step 0 %s", got, statusOf(first.result(0)))
	}
	second := e.mustExecute(context.Background(), e.goRequest(goModule("a"), toolchainStep("rebuilt"), readMarker()))
	if got := second.stream(0, glv1.Stream_STREAM_SYSTEM); !strings.Contains(got, "warm build state restored") {
		t.Errorf("second run: no restored note; system output %q", got)
	}
	// The second run's own toolchain step overwrote the marker; the test
	// step sees its value, and no file the first run's test planted.
	if out := second.output(1); strings.TrimSpace(out) != "rebuilt" {
		t.Errorf("second run's test step printed %q, want only the rebuilt marker (nothing planted)", out)
	}
	third := e.mustExecute(context.Background(), e.goRequest(goModule("a"), readMarker()))
	if out := third.output(0); strings.TrimSpace(out) != "built" {
		t.Errorf("a run whose first step is the test got %q from the warm state, want the marker as built before the first run's test", out)
	}
}

// Another owner, another set of manifests, or a toolchain step that failed:
// no warm state is shared or saved.
func TestWarmStateIsNotSharedOrSavedWhenItMustNotBe(t *testing.T) {
	t.Parallel()
	e := newGoEnv(t)
	e.mustExecute(context.Background(), e.goRequest(goModule("a"), toolchainStep("built"), readMarker()))
	if n := entries(t, e); n != 1 {
		t.Fatalf("%d cache entries after the first run, want 1", n)
	}
	other := e.goRequest(goModule("a"), readMarker())
	other.Owner = e.owner + "-other"
	if out := e.mustExecute(context.Background(), other).output(0); strings.TrimSpace(out) != "none" {
		t.Errorf("another owner read %q from the first owner's warm state", out)
	}
	if out := e.mustExecute(context.Background(), e.goRequest(goModule("b"), readMarker())).output(0); strings.TrimSpace(out) != "none" {
		t.Errorf("a changed go.mod read %q from the warm state of the old one", out)
	}
	killed := timeout(toolchainStep("half-built"), time.Second)
	killed.Command += " && sleep 30"
	before := entries(t, e)
	e.mustExecute(context.Background(), e.goRequest(goModule("c"), killed, readMarker()))
	if n := entries(t, e); n != before {
		t.Errorf("a run whose toolchain step timed out saved warm state (%d entries, had %d)", n, before)
	}
	// A toolchain step that exited with a failure (vet's findings, a
	// secret scan's match) wrote complete cache entries: they are kept.
	failing := toolchainStep("vetted")
	failing.Command += " && exit 1"
	e.mustExecute(context.Background(), e.goRequest(goModule("d"), failing, readMarker()))
	if n := entries(t, e); n != before+1 {
		t.Errorf("a run whose toolchain step failed by itself saved %d entries, want %d", n-before, 1)
	}
	if out := e.mustExecute(context.Background(), e.goRequest(goModule("d"), readMarker())).output(0); strings.TrimSpace(out) != "vetted" {
		t.Errorf("the next run read %q from the warm state, want the failed step's output", out)
	}
}

// An entry changed on disk fails verification: it is evicted and the run
// builds cold.
func TestTamperedWarmStateIsEvicted(t *testing.T) {
	t.Parallel()
	e := newGoEnv(t)
	e.mustExecute(context.Background(), e.goRequest(goModule("a"), toolchainStep("built"), readMarker()))
	paths, err := filepath.Glob(filepath.Join(e.svc.cfg.CacheDir, "*.tar"))
	if err != nil || len(paths) != 1 {
		t.Fatalf("cache entries %v (%v), want one", paths, err)
	}
	f, err := os.OpenFile(paths[0], os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt([]byte("tampered"), 700); err != nil {
		t.Fatal(err)
	}
	f.Close()
	run := e.mustExecute(context.Background(), e.goRequest(goModule("a"), readMarker()))
	if got := run.stream(0, glv1.Stream_STREAM_SYSTEM); !strings.Contains(got, "failed verification and was evicted") {
		t.Errorf("no eviction note; system output %q", got)
	}
	if out := run.output(0); strings.TrimSpace(out) != "none" {
		t.Errorf("the run read %q from a tampered entry", out)
	}
}

// warmModule is a module whose test file's init plants a file in the
// build cache directory: whoever runs the test binary leaves it there.
func warmModule() map[string]testenv.File {
	return map[string]testenv.File{
		"go.mod":  {Body: "module example.com/warmc\n\ngo 1.22\n"},
		"calc.go": {Body: "package calc\n\nfunc Add(a, b int) int { return a + b }\n"},
		"calc_test.go": {Body: "package calc\n\nimport (\n\t\"os\"\n\t\"testing\"\n)\n\n" +
			"func init() { _ = os.WriteFile(os.Getenv(\"HOME\")+\"/.cache/go-build/planted\", []byte(\"x\"), 0o644) }\n\n" +
			"func TestAdd(t *testing.T) {\n\tif Add(1, 2) != 3 {\n\t\tt.Fatal(\"add\")\n\t}\n}\n"},
	}
}

// compiles is a test step that runs the module's tests with coverage (as
// greenlight's go test step does) and prints how many times the go command
// compiled the module's own package, and whether the planted file was
// there before it ran.
func compiles() *glv1.Step {
	return sh("go-test", `test -e $HOME/.cache/go-build/planted && echo planted-before; `+
		`go test -count=1 -cover -x ./... 2>&1 | grep -c -- '-p example.com/warmc ' || true`)
}

// The warm compile (sandbox/warmcompile.go) puts the instrumented test
// compile into the state saved at the trust point without running the
// tests: the test step compiles nothing of the module, in the run that
// saved the state and in the next one that restored it, and no file the
// test binary's init writes is ever in the saved state.
func TestWarmCompileKeepsTheTestCompileWithoutRunningIt(t *testing.T) {
	t.Parallel()
	e := newGoEnv(t)
	build := sh("go-build", "go build ./...")
	build.Phase, build.ToolchainOnly = glv1.Phase_PHASE_BUILD, true
	first := e.mustExecute(context.Background(), e.goRequest(warmModule(), build, compiles()))
	if got := first.stream(1, glv1.Stream_STREAM_SYSTEM); !strings.Contains(got, "after compiling the tests without running them") {
		t.Fatalf("first run: no warm compile before the test step; system output %q, step 0 %s", got, statusOf(first.result(0)))
	}
	if out := strings.TrimSpace(first.output(1)); out != "0" {
		t.Errorf("first run's test step printed %q, want 0 compiles of the module (the warm compile did them), nothing planted", out)
	}
	second := e.mustExecute(context.Background(), e.goRequest(warmModule(), build, compiles()))
	if got := second.stream(0, glv1.Stream_STREAM_SYSTEM); !strings.Contains(got, "warm build state restored") {
		t.Fatalf("second run: no restored note; system output %q", got)
	}
	if out := strings.TrimSpace(second.output(1)); out != "0" {
		t.Errorf("second run's test step printed %q, want 0 compiles of the module and no planted file in the restored state", out)
	}
}
