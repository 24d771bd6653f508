package command_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/greenlight-dev/greenlight/pkg/display"
	"github.com/greenlight-dev/greenlight/services/discovery/internal/command"
)

// flitSrc is a src layout built by flit_core (absent from the offline
// image), with a test extra.
var flitSrc = map[string]string{
	"pyproject.toml": "[build-system]\nrequires = [\"flit_core>=3.4\"]\nbuild-backend = \"flit_core.buildapi\"\n" +
		"[project]\nname = \"f\"\nversion = \"1\"\n[project.optional-dependencies]\ntest = [\"pytest\"]\n",
	"src/f/__init__.py": "", "tests/test_f.py": "",
}

func named(t *testing.T, cmds []command.Command, name string) command.Command {
	t.Helper()
	for _, c := range cmds {
		if c.Name == name {
			return c
		}
	}
	t.Fatalf("no command %q", name)
	return command.Command{}
}

// TestPipInstallSteps: pip-install is advisory and cached; pip-fallback is
// required and never cached; the tests import src/.
func TestPipInstallSteps(t *testing.T) {
	_, _, cmds := extract(t, flitSrc)
	install := named(t, cmds, "pip-install")
	if !install.Optional || !install.ContinueOnFailure || len(install.CachePaths) == 0 || len(install.CacheKeyFiles) == 0 {
		t.Errorf("pip-install optional=%v continue=%v cache=%v keys=%v, want an advisory cached install",
			install.Optional, install.ContinueOnFailure, install.CachePaths, install.CacheKeyFiles)
	}
	fb := named(t, cmds, "pip-fallback")
	if fb.Optional || fb.Phase != command.PhaseInstall || len(fb.CachePaths) != 0 || len(fb.CacheKeyFiles) != 0 {
		t.Errorf("pip-fallback optional=%v phase=%v cache=%v keys=%v, want a required uncached install step",
			fb.Optional, fb.Phase, fb.CachePaths, fb.CacheKeyFiles)
	}
	for _, want := range []string{"flit_core.buildapi", "PYTHONPATH=src", "--no-deps --no-build-isolation -e ."} {
		if !strings.Contains(fb.Command, want) {
			t.Errorf("pip-fallback lacks %q: %s", want, fb.Command)
		}
	}
	// src reaches sys.path through the launcher, after pytest is imported,
	// not through the interpreter's environment.
	py := named(t, cmds, "pytest")
	if _, ok := py.Env["PYTHONPATH"]; ok || !strings.Contains(py.Command, `paths = sys.argv[1], ["src"]`) ||
		py.Display != "PYTHONPATH=src .venv/bin/python -m pytest -rA --junitxml=/tmp/greenlight/reports/pytest.xml" {
		t.Errorf("pytest env %v display %q command %q, want src handed to the launcher", py.Env, py.Display, py.Command)
	}
}

// TestPipFallbackScript runs pip-fallback's script with /bin/sh against
// the log pip-install leaves: a complete install passes untouched, an
// install that failed with the package index reachable fails, one that
// failed offline falls back to the checkout and says so, a venv made by a
// configured install is left alone and a missing venv fails.
func TestPipFallbackScript(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no /bin/sh")
	}
	_, _, cmds := extract(t, flitSrc)
	script := named(t, cmds, "pip-fallback").Command
	offline := "WARNING: Retrying (Retry(total=4)) after connection broken by 'NewConnectionError(" +
		"'<HTTPSConnection>: Failed to establish a new connection: [Errno -3] Temporary failure in name resolution')': /simple/flit-core/\n" +
		"ERROR: Could not find a version that satisfies the requirement flit_core>=3.4 (from versions: none)\n" +
		"ERROR: No matching distribution found for flit_core>=3.4\n"
	broken := "error: subprocess-exited-with-error\n  × Getting requirements to build editable did not run successfully.\n"
	tests := []struct {
		name    string
		done    bool
		log     string
		pipOK   bool
		noVenv  bool
		wantErr bool
		want    []string
	}{
		{name: "complete install", done: true, want: []string{"pip-install installed everything"}},
		{name: "broken install", log: broken, wantErr: true, want: []string{"shows no unreachable package index", "did not run successfully"}},
		{name: "no venv", noVenv: true, wantErr: true, want: []string{"pip-install did not create .venv"}},
		{name: "a configured install replaced pip-install", want: []string{"not made by greenlight's pip-install"}},
		{name: "offline, backend missing", log: offline, want: []string{
			"package index is unreachable", "No matching distribution found for flit_core>=3.4",
			"No module named 'flit_core'", "tests run from the checkout with PYTHONPATH=src", "the tests decide the verdict",
		}},
		{name: "offline, project installs without deps", log: offline, pipOK: true, want: []string{"installed the project without its dependencies"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			venv := filepath.Join(dir, ".venv")
			if err := os.MkdirAll(filepath.Join(venv, "bin"), 0o755); err != nil {
				t.Fatal(err)
			}
			if tt.done {
				write(t, filepath.Join(venv, "greenlight-installed"), "")
			}
			if tt.log != "" {
				write(t, filepath.Join(venv, "greenlight-pip.log"), tt.log)
			}
			// A stand-in interpreter: "pip install --no-deps" either works
			// or fails as pip does without the backend.
			python := "#!/bin/sh\necho \"Traceback (most recent call last):\"\necho \"ModuleNotFoundError: No module named 'flit_core'\"\necho\nexit 1\n"
			if tt.pipOK {
				python = "#!/bin/sh\nexit 0\n"
			}
			write(t, filepath.Join(venv, "bin", "python"), python)
			if err := os.Chmod(filepath.Join(venv, "bin", "python"), 0o755); err != nil {
				t.Fatal(err)
			}
			if tt.noVenv {
				if err := os.RemoveAll(venv); err != nil {
					t.Fatal(err)
				}
			}
			cmd := exec.Command("sh", "-c", script)
			cmd.Dir = dir
			out, err := cmd.CombinedOutput()
			if (err != nil) != tt.wantErr {
				t.Fatalf("exit error %v, want error %v:\n%s", err, tt.wantErr, out)
			}
			for _, w := range tt.want {
				if !strings.Contains(string(out), w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
		})
	}
}

// TestPipStepsShowWhatTheyDo: progress lines and the report page show a
// step's display, so each generated pip script has one that fits on a line
// and says what it does (the install as a person would type it; what the
// fallback checks), while the step still runs the whole script.
func TestPipStepsShowWhatTheyDo(t *testing.T) {
	tests := []struct {
		name                      string
		files                     map[string]string
		wantInstall, wantFallback string
	}{
		{name: "project with a test extra", files: flitSrc,
			wantInstall:  "python3 -m venv .venv && .venv/bin/python -m pip install -e '.[test]'",
			wantFallback: "greenlight checks pip-install: a failed install fails here; offline, installs the project without its dependencies"},
		{name: "requirements file only", files: map[string]string{"requirements.txt": "requests\n", "test_x.py": "def test_x(): pass\n"},
			wantInstall:  "python3 -m venv .venv && .venv/bin/python -m pip install -r requirements.txt",
			wantFallback: "greenlight checks pip-install: a failed install fails here; offline, lets the tests decide"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, cmds := extract(t, tt.files)
			for _, c := range []struct {
				step command.Command
				want string
			}{{named(t, cmds, "pip-install"), tt.wantInstall}, {named(t, cmds, "pip-fallback"), tt.wantFallback}} {
				if c.step.Display != c.want {
					t.Errorf("%s display = %q, want %q", c.step.Name, c.step.Display, c.want)
				}
				if n := utf8.RuneCountInString(c.step.Display); n > display.BriefMax || strings.Contains(c.step.Display, "\n") {
					t.Errorf("%s display is not one short line (%d characters): %q", c.step.Name, n, c.step.Display)
				}
				if len(c.step.Command) < 2*len(c.step.Display) || !strings.Contains(c.step.Command, ".venv/greenlight-") {
					t.Errorf("%s runs %q: want the whole script, not its display", c.step.Name, c.step.Command)
				}
			}
		})
	}
}

// TestUvProjectPlansPip: uv is not in the sandbox image, so a uv.lock
// project is installed with pip (its test dependency groups included) and
// a note says why.
func TestUvProjectPlansPip(t *testing.T) {
	_, notes, cmds := extract(t, map[string]string{
		"pyproject.toml": "[project]\nname = \"u\"\nversion = \"1\"\n[dependency-groups]\ndev = [\"pytest>=8\"]\ndocs = [\"sphinx\"]\n",
		"uv.lock":        "", "src/u/__init__.py": "", "tests/test_u.py": "",
	})
	install := named(t, cmds, "pip-install")
	if !strings.Contains(install.Command, "'pytest>=8' -e .") || strings.Contains(install.Command, "sphinx") || strings.Contains(install.Command, "uv ") {
		t.Errorf("pip-install = %s, want pytest>=8 and the project, not sphinx, no uv", install.Command)
	}
	if py := named(t, cmds, "pytest").Command; !strings.HasPrefix(py, ".venv/bin/python -P -c ") {
		t.Errorf("pytest = %s, want the venv's interpreter", py)
	}
	if len(notes) == 0 || !strings.Contains(strings.Join(notes, "\n"), "uv is not in the sandbox image") {
		t.Errorf("notes %q do not say why pip was chosen", notes)
	}
}

// TestToxDepsJoinTheInstall: tox's [testenv] deps are installed.
func TestToxDepsJoinTheInstall(t *testing.T) {
	_, _, cmds := extract(t, map[string]string{
		"setup.py": "", "tox.ini": "[testenv]\ndeps =\n    pytest\n    py38: mock\ncommands = pytest\n", "tests/test_x.py": "",
	})
	if c := named(t, cmds, "pip-install").Command; !strings.Contains(c, "install --no-build-isolation pytest -e .") || strings.Contains(c, "mock") {
		t.Errorf("pip-install = %s, want tox's plain deps", c)
	}
}

func write(t *testing.T, name, body string) {
	t.Helper()
	if err := os.WriteFile(name, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestPythonRunnerChoice: pytest when the project uses it, unittest when
// its files name only unittest, pytest when nothing names a runner.
func TestPythonRunnerChoice(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"unittest in pyproject's tox table", map[string]string{
			"pyproject.toml":    "[project]\nname = \"t\"\n[tool.tox.env_run_base]\ncommands = [[\"python\", \"-m\", \"unittest\"]]\n",
			"tests/__init__.py": "", "tests/test_t.py": "",
		}, "unittest"},
		{"hidden .pytest.ini beats a unittest Makefile", map[string]string{
			"setup.py": "", ".pytest.ini": "[pytest]\n", "Makefile": "test:\n\tpython -m unittest\n", "tests/test_t.py": "",
		}, "pytest"},
		{"pytest in a dependency group", map[string]string{
			"pyproject.toml": "[project]\nname = \"t\"\n[dependency-groups]\ntests = [\"pytest\"]\n[tool.tox]\nx = \"unittest\"\n", "tests/test_t.py": "",
		}, "pytest"},
		{"nothing names a runner", map[string]string{"setup.py": "", "tests/test_t.py": ""}, "pytest"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, cmds := extract(t, tt.files)
			var runner string
			for _, c := range cmds {
				if c.Name == "pytest" || c.Name == "unittest" {
					runner = c.Name
				}
			}
			if runner != tt.want {
				t.Errorf("test step %q, want %q", runner, tt.want)
			}
		})
	}
}
