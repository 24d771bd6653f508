package sandbox_test

import (
	"context"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/greenlight-dev/greenlight/services/executor/internal/enginefake"
	"github.com/greenlight-dev/greenlight/services/executor/internal/sandbox"
	"github.com/greenlight-dev/greenlight/services/executor/internal/testenv"
)

// installStep is a cached install step producing deps/x.
func installStep() sandbox.Step {
	return sandbox.Step{Name: "install", Command: "mkdir -p deps && echo dep > deps/x", Install: true,
		CachePaths: []string{"deps"}, CacheKeyFiles: []string{"req.txt"}}
}

var reqFiles = map[string]testenv.File{"req.txt": {Body: "lib==1\n"}}

// The dependency cache saves an install step's tree after a cold run and
// restores it (skipping the step) in the next one; a snapshot that brings
// the cache path itself neither restores nor saves.
func TestFakeDependencyCache(t *testing.T) {
	for _, m := range fakeModes {
		t.Run(m.name, func(t *testing.T) {
			cache := newMemCache()
			f := newFake(t, nil, sandbox.WithDepCache(cache))
			check := step("check", "cat deps/x")
			res, ev := f.run(context.Background(), f.request(m.image, reqFiles, installStep(), check))
			if res.Steps[0].CacheHit || len(cache.m) != 1 || !strings.Contains(ev.text(0, sandbox.StreamSystem), "dependency cache saved") {
				t.Fatalf("cold run: hit %v, %d entries, note %q", res.Steps[0].CacheHit, len(cache.m), res.Steps[0].CacheNote)
			}
			res, ev = f.run(context.Background(), f.request(m.image, reqFiles, installStep(), check))
			if !res.Steps[0].CacheHit || ev.text(1, sandbox.StreamStdout) != "dep\n" {
				t.Errorf("warm run: hit %v, deps/x %q", res.Steps[0].CacheHit, ev.text(1, sandbox.StreamStdout))
			}
			if p := stepProcs(f.eng); len(f.eng.Procs()) == 0 || p["mkdir -p deps && echo dep > deps/x"].Container != f.eng.Procs()[0].Container {
				t.Errorf("the install command ran in the warm run too")
			}
			brought := map[string]testenv.File{"req.txt": {Body: "lib==1\n"}, "deps/x": {Body: "mine\n"}}
			res, _ = f.run(context.Background(), f.request(m.image, brought, installStep(), check))
			if res.Steps[0].CacheHit || !strings.Contains(res.Steps[0].CacheNote, "snapshot already contains deps/") {
				t.Errorf("brought deps: hit %v, note %q", res.Steps[0].CacheHit, res.Steps[0].CacheNote)
			}
		})
	}
}

// An entry that fails verification, or whose tree cannot be restored, is
// evicted and the install runs cold; an earlier step that made the cache
// path rules the cache out.
func TestFakeDependencyCacheFailures(t *testing.T) {
	t.Run("verification", func(t *testing.T) {
		f := newFake(t, nil, sandbox.WithDepCache(failingCache{newMemCache()}))
		res, _ := f.run(context.Background(), f.request(fakeRunnerImage, reqFiles, installStep()))
		if res.Steps[0].Status != sandbox.StatusOK || !strings.Contains(res.Steps[0].CacheNote, "failed verification") {
			t.Errorf("install = %s, note %q", res.Steps[0].Status, res.Steps[0].CacheNote)
		}
	})
	t.Run("restore", func(t *testing.T) {
		cache := newMemCache()
		f := newFake(t, nil, sandbox.WithDepCache(cache))
		f.run(context.Background(), f.request(fakeRunnerImage, reqFiles, installStep()))
		for k := range cache.m {
			cache.m[k] = []byte("not a tar archive at all")
		}
		res, _ := f.run(context.Background(), f.request(fakeRunnerImage, reqFiles, installStep()))
		if res.Steps[0].CacheHit || !strings.Contains(res.Steps[0].CacheNote, "could not be restored") {
			t.Errorf("install: hit %v, note %q", res.Steps[0].CacheHit, res.Steps[0].CacheNote)
		}
	})
	t.Run("made by an earlier step", func(t *testing.T) {
		f := newFake(t, nil, sandbox.WithDepCache(newMemCache()))
		res, _ := f.run(context.Background(), f.request(fakeRunnerImage, reqFiles, step("early", "mkdir deps"), installStep()))
		if !strings.Contains(res.Steps[1].CacheNote, "already contains deps/ before the install step") {
			t.Errorf("install note %q", res.Steps[1].CacheNote)
		}
	})
}

// failingCache fails every lookup as a corrupt entry would.
type failingCache struct{ *memCache }

func (failingCache) Get(string) (io.ReadCloser, bool, error) {
	return nil, false, errors.New("digest mismatch")
}

// An image's warm build state is saved at the trust point of a run that
// had none and restored into the next run's home directory.
func TestFakeWarmBuildState(t *testing.T) {
	eng := newEngine(t)
	img := enginefake.NewImage("greenlight/sandbox-warm:latest", true)
	img.Labels[sandbox.LabelWarm] = ".cache/w"
	eng.Add(img)
	cache := newMemCache()
	f := newFakeOn(t, eng, nil, sandbox.WithDepCache(cache))
	build := step("build", `mkdir -p "$HOME/.cache/w" && echo built > "$HOME/.cache/w/x"`)
	build.ToolchainOnly = true
	test := step("test", `cat "$HOME/.cache/w/x" 2>/dev/null || echo cold`)
	_, ev := f.run(context.Background(), f.request(img.Ref, reqFiles, build, test))
	if ev.text(1, sandbox.StreamStdout) != "built\n" || len(cache.m) != 1 || !strings.Contains(ev.text(1, sandbox.StreamSystem), "warm build state saved") {
		t.Fatalf("first run: test printed %q, %d cache entries", ev.text(1, sandbox.StreamStdout), len(cache.m))
	}
	_, ev = f.run(context.Background(), f.request(img.Ref, reqFiles, test))
	if ev.text(0, sandbox.StreamStdout) != "built\n" || !strings.Contains(ev.text(0, sandbox.StreamSystem), "warm build state restored") {
		t.Errorf("second run printed %q, notes %q", ev.text(0, sandbox.StreamStdout), ev.text(0, sandbox.StreamSystem))
	}
}

// An image's prepare command runs once per sandbox, as the sandbox user,
// before the first step.
func TestFakePrepareCommand(t *testing.T) {
	for _, runner := range []bool{true, false} {
		eng := newEngine(t)
		img := enginefake.NewImage("greenlight/sandbox-prep:latest", runner)
		img.Labels[sandbox.LabelPrepare] = "touch /home/sandbox/prepared"
		eng.Add(img)
		f := newFakeOn(t, eng, nil)
		res, _ := f.run(context.Background(), f.request(img.Ref, nil, step("check", "test -f /home/sandbox/prepared")))
		if res.Steps[0].Status != sandbox.StatusOK {
			t.Errorf("runner %v: the prepare command did not run: %s", runner, res.Steps[0].Status)
		}
		if p := eng.Procs()[0]; p.Argv[0] != "touch" || p.User != sandbox.SandboxUser || p.Dir != sandbox.HomeDir {
			t.Errorf("runner %v: first process %+v, want the prepare command", runner, p)
		}
	}
}

// Report files a step writes are collected, exact paths and patterns;
// missing ones are skipped.
func TestFakeReports(t *testing.T) {
	f := newFake(t, nil)
	s := step("test", "mkdir -p /tmp/r /workspace/out && echo '<a/>' > /tmp/r/junit.xml && echo 1 > /workspace/out/TEST-1.xml && echo 2 > /workspace/out/TEST-2.xml")
	s.ReportFiles = []string{"/tmp/r/junit.xml", "/tmp/r/missing.xml", "/workspace/out/TEST-*.xml"}
	res, _ := f.run(context.Background(), f.request(fakeRunnerImage, nil, s))
	var paths []string
	for _, r := range res.Reports {
		paths = append(paths, r.Path)
	}
	slices.Sort(paths)
	if got := strings.Join(paths, " "); got != "/tmp/r/junit.xml /workspace/out/TEST-1.xml /workspace/out/TEST-2.xml" {
		t.Fatalf("reports %q", got)
	}
	for _, r := range res.Reports {
		if body := f.log(r.Digest); r.Path == "/tmp/r/junit.xml" && body != "<a/>\n" {
			t.Errorf("junit.xml = %q", body)
		}
	}
}
