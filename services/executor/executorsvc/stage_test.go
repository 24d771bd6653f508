package executorsvc

import (
	"context"
	"strings"
	"testing"
	"time"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/executor/internal/testenv"
)

// Staged sandboxes (sandbox/stage.go): after a run, the pool prepares a
// container holding what the owner's next run of the same project
// restores, so that run starts from the post-install state.

// waitStaged waits until the pool holds n staged Python containers.
func waitStaged(t *testing.T, e *env, n int) {
	t.Helper()
	waitPool(t, "staged", n, 60*time.Second, func() int { return e.svc.pool.Staged(testenv.PythonImage) })
}

// checkWorkspace prints what a test step could notice of staging: the
// stage directory, .venv in the snapshot's commit, and whether the tree
// works.
const checkWorkspace = `ls -a | grep -c greenlight-stage; git ls-files | grep -c -e '^.venv/' -e greenlight-stage; .venv/bin/python -c 'print("venv ok")'; true`

func pooledEnv(t *testing.T) *env {
	return newEnv(t, func(c *Config) { c.PoolSize, c.Images = 1, []string{"python=" + testenv.PythonImage} })
}

func TestStagedSandboxServesTheOwnersNextRun(t *testing.T) {
	t.Parallel()
	e := pooledEnv(t)
	files := map[string]testenv.File{"requirements.txt": {Body: "\n"}}
	first := e.mustExecute(context.Background(), e.request(files, pipInstall(""), sh("check", checkWorkspace)))
	if got := first.result(0); got.GetStatus() != glv1.StepStatus_STEP_STATUS_OK || got.GetCacheHit() {
		t.Fatalf("first install: %s hit=%v %q", statusOf(got), got.GetCacheHit(), first.output(0))
	}
	e.svc.runner.Wait()
	waitStaged(t, e, 1)

	second := e.mustExecute(context.Background(), e.request(files, pipInstall(""), sh("check", checkWorkspace)))
	install := second.result(0)
	if !install.GetCacheHit() || !strings.Contains(second.stream(0, glv1.Stream_STREAM_SYSTEM), "restored before the run (staged sandbox)") {
		t.Errorf("second install: hit=%v, system output %q", install.GetCacheHit(), second.stream(0, glv1.Stream_STREAM_SYSTEM))
	}
	if got := second.output(1); got != "0\n0\nvenv ok\n" {
		t.Errorf("the test step saw %q, want no stage directory, no .venv in the commit, a working .venv", got)
	}
	if got := first.output(1); got != "0\n0\nvenv ok\n" {
		t.Errorf("the cold run's test step saw %q", got)
	}

	// Another owner with the same files never gets the staged container.
	e.svc.runner.Wait()
	waitStaged(t, e, 1)
	other := e.request(files, pipInstall(""), sh("check", checkWorkspace))
	other.Owner = e.owner + "-other"
	r := e.mustExecute(context.Background(), other)
	if r.result(0).GetCacheHit() || strings.Contains(r.stream(0, glv1.Stream_STREAM_SYSTEM), "staged") {
		t.Errorf("another owner's run was served from the staged sandbox: hit=%v %q", r.result(0).GetCacheHit(), r.stream(0, glv1.Stream_STREAM_SYSTEM))
	}
}

// A snapshot that brings its own .venv gets no staged tree (the cache is
// off for it, as without staging), and a changed requirements file gets
// a fresh install.
func TestStagedSandboxFollowsTheCacheRules(t *testing.T) {
	t.Parallel()
	e := pooledEnv(t)
	files := map[string]testenv.File{"requirements.txt": {Body: "\n"}}
	e.mustExecute(context.Background(), e.request(files, pipInstall(""), sh("check", "true")))
	e.svc.runner.Wait()
	waitStaged(t, e, 1)

	planted := map[string]testenv.File{"requirements.txt": {Body: "\n"}, venvSitePackages + "/zz.pth": {Body: forcePassPth}}
	r := e.mustExecute(context.Background(), e.request(planted, pipInstall(""), sh("check", "true")))
	if r.result(0).GetCacheHit() || !strings.Contains(r.result(0).GetCacheNote(), "the snapshot already contains .venv/") {
		t.Errorf("a snapshot holding .venv: hit=%v note %q", r.result(0).GetCacheHit(), r.result(0).GetCacheNote())
	}
	changed := map[string]testenv.File{"requirements.txt": {Body: "\n\n"}}
	r = e.mustExecute(context.Background(), e.request(changed, pipInstall(""), sh("check", "true")))
	if r.result(0).GetCacheHit() {
		t.Errorf("a changed requirements file was served a staged or cached tree")
	}
}
