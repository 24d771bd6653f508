package pylaunch

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// pluginProbe is a test module asserting which of the image's pytest
// plugins pytest loaded: want maps a plugin's registered name to whether
// it must be loaded.
func pluginProbe(want map[string]bool) string {
	var b strings.Builder
	b.WriteString("def test_plugins(request):\n    pm = request.config.pluginmanager\n")
	for name, loaded := range want {
		// Split ("as" "yncio"): the probe itself must not mention async
		// code, which would load the async plugins (launcher's async_used).
		lit := "\"" + name[:2] + "\" \"" + name[2:] + "\""
		if loaded {
			b.WriteString("    assert pm.has_plugin(" + lit + "), " + lit + "\n")
		} else {
			b.WriteString("    assert not pm.has_plugin(" + lit + "), " + lit + "\n")
		}
	}
	return b.String()
}

// runPytest runs the launcher's pytest of the Python sandbox image over
// files, as the sandbox user, and returns its output.
func runPytest(t *testing.T, files map[string]string, env ...string) (string, error) {
	t.Helper()
	if os.Getenv("GREENLIGHT_INTEGRATION") == "" {
		t.Skip("set GREENLIGHT_INTEGRATION=1 (needs Docker and greenlight/sandbox-python:latest)")
	}
	ws := t.TempDir()
	writeFiles(t, ws, files)
	if err := exec.Command("chmod", "-R", "a+rwX", ws).Run(); err != nil {
		t.Fatal(err)
	}
	args := []string{"run", "--rm", "--network", "none", "--user", "10001", "-e", "HOME=/tmp", "-v", ws + ":/w", "-w", "/w"}
	for _, e := range env {
		args = append(args, "-e", e)
	}
	args = append(args, "greenlight/sandbox-python:latest", "sh", "-c", Tool("python3", "pytest")+" -q -p no:cacheprovider")
	out, err := exec.Command("docker", args...).CombinedOutput()
	return string(out), err
}

// The image's plugins load only for the projects that depend on them, as
// in CI where only those are installed; the async ones load whenever the
// project has async code, declared or not (a missing one would skip async
// tests instead of running them).
func TestImagePluginsLoadOnlyWhenDeclared(t *testing.T) {
	out, err := runPytest(t, map[string]string{
		"pyproject.toml": "[project]\nname = \"p\"\n",
		"test_p.py":      pluginProbe(map[string]bool{"pytest_mock": false, "pytest_httpserver": false, "rerunfailures": false, "asyncio": false, "anyio": false}),
	})
	if err != nil || !strings.Contains(out, "1 passed") {
		t.Fatalf("undeclared plugins: %v\n%s", err, out)
	}
	if !strings.Contains(out, "were not loaded") || !strings.Contains(out, "pytest_mock") || !strings.Contains(out, "asyncio") {
		t.Errorf("the plugins left out are not named on stderr:\n%s", out)
	}
	// An undeclared async test (here in a subdirectory, with its marker)
	// runs instead of being skipped: the async plugins load for it.
	out, err = runPytest(t, map[string]string{
		"pyproject.toml":  "[project]\nname = \"p\"\n",
		"test_p.py":       pluginProbe(map[string]bool{"asyncio": true, "anyio": true, "pytest_mock": false}),
		"sub/test_a.py":   "import pytest\n\n\n@pytest.mark.asyncio\nasync def test_a():\n    assert True\n",
		"sub/conftest.py": "",
		"sub/__init__.py": "",
	})
	if err != nil || !strings.Contains(out, "2 passed") || strings.Contains(out, "skipped") {
		t.Errorf("an undeclared async test did not run: %v\n%s", err, out)
	}
	for _, decl := range []map[string]string{
		{"pyproject.toml": "[project]\nname = \"p\"\n[project.optional-dependencies]\ntest = [\"pytest-mock>=3\", \"pytest_httpserver\"]\n"},
		{"requirements/test.txt": "pytest\npytest-mock==3.8.2\npytest-httpserver\n"},
		{".github/workflows/ci.yml": "steps:\n  - run: pip install pytest pytest-mock PYTEST_HTTPSERVER\n"},
	} {
		files := map[string]string{"test_p.py": pluginProbe(map[string]bool{"pytest_mock": true, "pytest_httpserver": true, "rerunfailures": false})}
		for k, v := range decl {
			files[k] = v
		}
		if out, err := runPytest(t, files); err != nil || !strings.Contains(out, "1 passed") {
			t.Errorf("plugins declared in %v: %v\n%s", decl, err, out)
		}
	}
}

// A plugin required by a distribution the project installed itself (here
// one in the user site) loads, transitively, as pip would have installed
// it; `-p NAME` in the project's options loads any plugin.
func TestImagePluginsFollowRequirementsAndExplicitNames(t *testing.T) {
	files := map[string]string{
		".ub/lib/python3.11/site-packages/wrapper-1.0.dist-info/METADATA": "Metadata-Version: 2.1\nName: wrapper\nVersion: 1.0\nRequires-Dist: pytest-mock\n",
		".ub/lib/python3.11/site-packages/wrapper-1.0.dist-info/RECORD":   "",
		"pytest.ini": "[pytest]\naddopts = -p rerunfailures\n",
		"test_p.py":  pluginProbe(map[string]bool{"pytest_mock": true, "rerunfailures": true, "pytest_httpserver": false}),
	}
	if out, err := runPytest(t, files, "PYTHONUSERBASE=/w/.ub"); err != nil || !strings.Contains(out, "1 passed") {
		t.Fatalf("%v\n%s", err, out)
	}
}

// A project whose pytest options need a plugin it does not declare (CI
// would fail at the usage error) is run again with every plugin of the
// image rather than failing on it.
func TestUndeclaredPluginOptionRunsWithEveryPlugin(t *testing.T) {
	files := map[string]string{
		"pytest.ini": "[pytest]\naddopts = -n 2 --timeout 30\n",
		"test_p.py":  pluginProbe(map[string]bool{"xdist": true, "timeout": true, "pytest_mock": true}),
	}
	out, err := runPytest(t, files)
	if err != nil || !strings.Contains(out, "1 passed") {
		t.Fatalf("%v\n%s", err, out)
	}
	if !strings.Contains(out, "running again with every plugin") || strings.Count(out, "1 passed") != 1 {
		t.Errorf("the second run is not announced, or the tests ran twice:\n%s", out)
	}
}
