package e2e_test

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"strings"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// The tests of ADVERSARIAL rows 44 and 45 through discovery, loop and
// executor with the real Python image: a workspace module named like a tool
// greenlight runs never runs in its place, an install that could have run
// one is never cached, and pytest loads plugins only from installed
// dependencies.

// shadowPytestMain is a pytest/__main__.py that reports success: a JUnit
// report with the failing test passed, pytest's summary line, exit 0.
const shadowPytestMain = `import sys
for a in sys.argv[1:]:
    if a.startswith("--junitxml="):
        with open(a.split("=", 1)[1], "w") as f:
            f.write('<?xml version="1.0"?><testsuites><testsuite name="pytest" tests="1" failures="0" errors="0" skipped="0">'
                    '<testcase classname="tests.test_calc" name="test_add" file="tests/test_calc.py" time="0.001"/></testsuite></testsuites>')
print("tests/test_calc.py::test_add PASSED")
print("SHADOW-PYTEST 1 passed in 0.01s")
sys.exit(0)
`

// shadowPipMain is a pip/__main__.py that plants a .pth in the venv it
// runs in (every later interpreter start there loads a plugin turning
// failures into passes), then runs the real pip, so the install looks
// normal.
const shadowPipMain = `import os, runpy, sys, sysconfig
site = sysconfig.get_paths()["purelib"]
with open(os.path.join(site, "zz_evil.pth"), "w") as f:
    f.write("import os; os.environ['PYTEST_PLUGINS'] = 'zz_evil_plugin'\n")
with open(os.path.join(site, "zz_evil_plugin.py"), "w") as f:
    f.write(open(os.path.join(os.path.dirname(__file__), "plugin.txt")).read())
print("SHADOW-PIP planted a plugin")
sys.path[:] = [p for p in sys.path if p not in ("", os.getcwd())]
for m in [m for m in sys.modules if m == "pip" or m.startswith("pip.")]:
    del sys.modules[m]
runpy.run_module("pip", run_name="__main__", alter_sys=True)
`

// pytestStepOf returns the result of the pipeline's pytest step.
func pytestStepOf(t *testing.T, res *glv1.Result) *glv1.StepResult {
	t.Helper()
	for _, st := range res.GetSteps() {
		if st.GetName() == "pytest" {
			return st
		}
	}
	t.Fatalf("no pytest step: %v", stepNames(res))
	return nil
}

// installOf returns the result of the pipeline's pip-install step.
func installOf(t *testing.T, res *glv1.Result) *glv1.StepResult {
	t.Helper()
	for _, st := range res.GetSteps() {
		if st.GetName() == "pip-install" {
			return st
		}
	}
	t.Fatalf("no pip-install step: %v", stepNames(res))
	return nil
}

// logSteps logs each step of a result.
func logSteps(t *testing.T, who string, res *glv1.Result) {
	t.Helper()
	t.Logf("%s: %s %s", who, res.GetStatus(), res.GetSummary())
	for _, st := range res.GetSteps() {
		t.Logf("%s step %-14s %-22s exit %3d cache_hit %v note %q", who, st.GetName(), st.GetStatus(), st.GetExitCode(), st.GetCacheHit(), st.GetCacheNote())
	}
}

// A snapshot holding pytest/__main__.py (and __init__.py) that
// writes a passing report: the real pytest runs, the failing test fails,
// the verdict is FAIL, and the install next to it is not cached.
func TestWorkspacePytestNeverRunsInstead(t *testing.T) {
	integration(t)
	s := newStack(t)
	files := buggyProject()
	files["pytest/__init__.py"] = ""
	files["pytest/__main__.py"] = shadowPytestMain
	res := finished(s.verify(&glv1.VerifyRequest{Snapshot: s.rawSnapshot(files)})).GetResult()
	logSteps(t, "shadow", res)
	py := pytestStepOf(t, res)
	if strings.Contains(py.GetTail(), "SHADOW-PYTEST") {
		t.Errorf("the workspace's pytest ran:\n%s", py.GetTail())
	}
	if res.GetStatus() != glv1.Verdict_VERDICT_FAIL || py.GetStatus() != glv1.StepStatus_STEP_STATUS_FAILED || res.GetCounts().GetFailed() != 1 {
		t.Errorf("verdict %s, pytest %s, counts %v; want FAIL with the failing test failed:\n%s", res.GetStatus(), py.GetStatus(), res.GetCounts(), py.GetTail())
	}
	if install := installOf(t, res); install.GetCacheHit() || !strings.Contains(install.GetCacheNote(), "pytest/") {
		t.Errorf("pip-install cache_hit=%v note %q, want the cache refused for pytest/", install.GetCacheHit(), install.GetCacheNote())
	}
}

// Repository 1 ships pip/__main__.py that plants a plugin in the
// fresh .venv; repository 2 of the same owner has the same
// requirements.txt. pip runs with -P, so the shadow never runs (repository
// 1's own failing test fails too), the install is not cached (the note
// says why), and repository 2's failing test fails.
func TestWorkspacePipPoisonsNoCache(t *testing.T) {
	integration(t)
	s := newStack(t)
	attacker := buggyProject()
	attacker["pip/__init__.py"] = ""
	attacker["pip/__main__.py"] = shadowPipMain
	attacker["pip/plugin.txt"] = evilPlugin
	first := finished(s.verify(&glv1.VerifyRequest{Snapshot: s.rawSnapshot(attacker)})).GetResult()
	logSteps(t, "attacker", first)
	install := installOf(t, first)
	if strings.Contains(install.GetTail(), "SHADOW-PIP") {
		t.Errorf("the workspace's pip ran:\n%s", install.GetTail())
	}
	if install.GetStatus() != glv1.StepStatus_STEP_STATUS_OK || install.GetCacheHit() || !strings.Contains(install.GetCacheNote(), "pip/") {
		t.Errorf("attacker's pip-install %s cache_hit=%v note %q, want OK, not cached because of pip/", install.GetStatus(), install.GetCacheHit(), install.GetCacheNote())
	}
	if first.GetStatus() != glv1.Verdict_VERDICT_FAIL || first.GetCounts().GetFailed() != 1 {
		t.Errorf("the attacker's own failing test ended %s with counts %v", first.GetStatus(), first.GetCounts())
	}

	victim := finished(s.verify(&glv1.VerifyRequest{Snapshot: s.rawSnapshot(buggyProject())})).GetResult()
	logSteps(t, "victim", victim)
	if got := installOf(t, victim); got.GetCacheHit() {
		t.Errorf("the victim's install was restored from the cache: note %q", got.GetCacheNote())
	}
	if victim.GetStatus() != glv1.Verdict_VERDICT_FAIL || victim.GetCounts().GetFailed() != 1 {
		t.Errorf("the victim's failing suite ended %s with counts %v: %s", victim.GetStatus(), victim.GetCounts(), victim.GetSummary())
	}
}

// A pytest11 entry point the project's own setup.py declares (installed
// editable by pip-install) never loads, not even in pytest-xdist workers
// the repository's addopts ask for (the tests run in the launched
// process); the plugin of an installed dependency (a vendored wheel
// installed from --find-links, as from an index) still does.
// tests/test_plugins.py proves both the entry point is installed (the
// attack surface exists) and the dependency's fixture works.
func TestProjectEntryPointPluginDoesNotLoad(t *testing.T) {
	integration(t)
	s := newStack(t)
	files := buggyProject()
	files["requirements.txt"] = "--no-index\n--find-links vendor\ngoodplug==1.0\n"
	files["vendor/goodplug-1.0-py3-none-any.whl"] = pluginWheel("goodplug", "import pytest\n\n\n@pytest.fixture\ndef goodplug_value():\n    return 42\n")
	files["setup.py"] = "from setuptools import setup\n\nsetup(name=\"calcproj\", version=\"0.1\", py_modules=[\"calc\", \"evilplug\"],\n" +
		"      entry_points={\"pytest11\": [\"evilplug = evilplug\"]})\n"
	files["evilplug.py"] = evilPlugin
	// pytest-xdist's workers would autoload every entry point on their own.
	files["pytest.ini"] = "[pytest]\naddopts = -n 2\n"
	files["tests/test_plugins.py"] = "from importlib import metadata\n\n\n" +
		"def test_project_entry_point_is_installed():\n    assert \"evilplug\" in [e.name for e in metadata.entry_points(group=\"pytest11\")]\n\n\n" +
		"def test_dependency_plugin_loaded(goodplug_value):\n    assert goodplug_value == 42\n"
	res := finished(s.verify(&glv1.VerifyRequest{Snapshot: s.rawSnapshot(files)})).GetResult()
	logSteps(t, "plugins", res)
	py := pytestStepOf(t, res)
	var passed []string
	for _, tr := range res.GetTests() {
		if tr.GetStatus() == glv1.TestStatus_TEST_STATUS_PASSED {
			passed = append(passed, tr.GetName())
		}
	}
	if res.GetStatus() != glv1.Verdict_VERDICT_FAIL || res.GetCounts().GetFailed() != 1 || res.GetCounts().GetPassed() != 2 {
		t.Errorf("verdict %s counts %v (passed %v), want FAIL with test_add failed and both plugin tests passed:\n%s",
			res.GetStatus(), res.GetCounts(), passed, py.GetTail())
	}
	if !strings.Contains(py.GetTail(), "pytest-xdist workers not started") {
		t.Errorf("the pytest step does not say xdist's workers were not started:\n%s", py.GetTail())
	}
}

// pluginWheel is a pure-Python wheel of module name (source src) that
// declares it as a pytest11 plugin.
func pluginWheel(name, src string) string {
	var buf bytes.Buffer
	z := zip.NewWriter(&buf)
	var record []string
	add := func(path, body string) {
		w, err := z.Create(path)
		if err != nil {
			panic(err)
		}
		if _, err := w.Write([]byte(body)); err != nil {
			panic(err)
		}
		sum := sha256.Sum256([]byte(body))
		record = append(record, fmt.Sprintf("%s,sha256=%s,%d", path, base64.RawURLEncoding.EncodeToString(sum[:]), len(body)))
	}
	add(name+".py", src)
	info := name + "-1.0.dist-info/"
	add(info+"METADATA", "Metadata-Version: 2.1\nName: "+name+"\nVersion: 1.0\n")
	add(info+"WHEEL", "Wheel-Version: 1.0\nGenerator: greenlight-test\nRoot-Is-Purelib: true\nTag: py3-none-any\n")
	add(info+"entry_points.txt", "[pytest11]\n"+name+" = "+name+"\n")
	record = append(record, info+"RECORD,,")
	w, err := z.Create(info + "RECORD")
	if err == nil {
		_, err = w.Write([]byte(strings.Join(record, "\n") + "\n"))
	}
	if err == nil {
		err = z.Close()
	}
	if err != nil {
		panic(err)
	}
	return buf.String()
}
