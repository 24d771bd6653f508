package executorsvc

import (
	"context"
	"strings"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/pylaunch"
	"github.com/greenlight-dev/greenlight/services/executor/internal/testenv"
)

// The tests of ADVERSARIAL rows 44 and 45 at the executor: a workspace
// module named like a tool an install runs keeps that install out of the
// dependency cache, and the commands discovery plans (pylaunch) never run
// the workspace's module in the tool's place.

// shadowPip is a pip/__main__.py that, run by `python -m pip` from the
// workspace, plants a .pth in the venv that makes every exit succeed, then
// runs the real pip so the install looks normal.
const shadowPip = `import os, runpy, sys, sysconfig
with open(os.path.join(sysconfig.get_paths()["purelib"], "zz_force_pass.pth"), "w") as f:
    f.write("import atexit, os; atexit.register(lambda: os._exit(0))\n")
print("SHADOW-PIP planted a plugin")
sys.path[:] = [p for p in sys.path if p not in ("", os.getcwd())]
for m in [m for m in sys.modules if m == "pip" or m.startswith("pip.")]:
    del sys.modules[m]
runpy.run_module("pip", run_name="__main__", alter_sys=True)
`

// withShadowPip is victimFiles plus the shadow pip package.
func withShadowPip() map[string]testenv.File {
	files := victimFiles()
	files["pip/__init__.py"] = testenv.File{Body: ""}
	files["pip/__main__.py"] = testenv.File{Body: shadowPip}
	return files
}

// Row 45, same owner, with an install step that runs `python -m pip`
// without -P (as a configured step may): the shadow runs and poisons the
// attacker's own venv (so the attack is real), but the install is not
// saved, so the victim with the same requirements and command installs
// cold and its failing test fails; the victim's own install is saved.
func TestShadowPipInstallIsNotCached(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	poisoned := e.mustExecute(context.Background(), e.request(withShadowPip(), pipInstall(""), pytestStep()))
	install := poisoned.result(0)
	if !strings.Contains(poisoned.output(0), "SHADOW-PIP") || poisoned.result(1).GetStatus() != glv1.StepStatus_STEP_STATUS_OK {
		t.Fatalf("the shadow pip did not poison the attacker's own run (install output %q, pytest %s): the test proves nothing",
			poisoned.output(0), statusOf(poisoned.result(1)))
	}
	if install.GetStatus() != glv1.StepStatus_STEP_STATUS_OK || install.GetCacheHit() || !strings.Contains(install.GetCacheNote(), "the workspace holds pip/") {
		t.Errorf("attacker install: %s cache_hit=%v cache_note %q", statusOf(install), install.GetCacheHit(), install.GetCacheNote())
	}
	if n := entries(t, e); n != 0 {
		t.Errorf("the attacker's install saved %d cache entries", n)
	}

	victim := e.mustExecute(context.Background(), e.request(victimFiles(), pipInstall(""), pytestStep()))
	if got := victim.result(0); got.GetCacheHit() {
		t.Errorf("the victim's install was restored from the attacker's tree")
	}
	if got := victim.result(1); got.GetStatus() != glv1.StepStatus_STEP_STATUS_FAILED {
		t.Errorf("the victim's failing suite ended %s: %q", statusOf(got), got.GetTail())
	}
	if n := entries(t, e); n != 1 {
		t.Errorf("the victim's clean install left %d cache entries, want 1", n)
	}
}

// Rows 44 and 45 with the commands discovery plans: pip and venv run with
// -P and pytest through the launcher, so neither a shadow pip nor a shadow
// pytest runs, and the failing test fails.
func TestPlannedCommandsIgnoreShadows(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	files := withShadowPip()
	files["pytest/__init__.py"] = testenv.File{Body: ""}
	files["pytest/__main__.py"] = testenv.File{Body: "print('SHADOW-PYTEST 1 passed')\nraise SystemExit(0)\n"}
	install := &glv1.Step{Name: "pip-install", Phase: glv1.Phase_PHASE_INSTALL,
		Command: pylaunch.Module("python3", "venv") + " --system-site-packages .venv && " +
			pylaunch.Module(".venv/bin/python", "pip") + " install -q -r requirements.txt",
		CacheKeyFiles: []string{"requirements.txt"}, CachePaths: []string{".venv"}}
	shadowed := sh("shadowed-pytest", "python3 -m pytest -q -p no:cacheprovider")
	launched := sh("pytest", pylaunch.Tool(".venv/bin/python", "pytest")+" -q -p no:cacheprovider")
	r := e.mustExecute(context.Background(), e.request(files, install, shadowed, launched))
	if strings.Contains(r.output(0), "SHADOW-PIP") || r.result(0).GetStatus() != glv1.StepStatus_STEP_STATUS_OK {
		t.Errorf("install %s ran the workspace's pip: %q", statusOf(r.result(0)), r.output(0))
	}
	if !strings.Contains(r.output(1), "SHADOW-PYTEST") {
		t.Fatalf("python3 -m pytest did not run the workspace's pytest (%q): the test proves nothing", r.output(1))
	}
	if got := r.result(2); got.GetStatus() != glv1.StepStatus_STEP_STATUS_FAILED || strings.Contains(r.output(2), "SHADOW") ||
		!strings.Contains(r.output(2), "1 failed") {
		t.Errorf("launched pytest %s, want the real pytest failing the test:\n%s", statusOf(got), r.output(2))
	}
}
