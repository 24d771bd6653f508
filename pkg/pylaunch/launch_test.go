package pylaunch

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The launcher travels inside single quotes: one quote in it would end the
// shell word.
func TestLauncherCodeFitsInSingleQuotes(t *testing.T) {
	if strings.Contains(launcherCode, "'") {
		t.Fatalf("the launcher code contains a single quote")
	}
	if !strings.HasPrefix(launcherCode, marker+"\n") {
		t.Fatalf("the launcher code does not start with its marker %s", marker)
	}
	if !strings.Contains(launcherCode, pathsLine) {
		t.Fatalf("the launcher code lost the line Tool fills in: %q", pathsLine)
	}
	if strings.Contains(launcherCode, "\n#") || strings.Contains(launcherCode, "\n\n") {
		t.Errorf("comment or blank lines left in the -c argument")
	}
}

func TestFindAndReadable(t *testing.T) {
	tests := []struct {
		name, command        string
		wantPython, wantTool string
		wantReadable         string
	}{
		{"venv pytest", Tool(".venv/bin/python", "pytest") + " -rA --junitxml=r.xml",
			".venv/bin/python", "pytest", ".venv/bin/python -m pytest -rA --junitxml=r.xml"},
		{"src layout", Tool("python3", "pytest", "src") + " -rA",
			"python3", "pytest", "python3 -m pytest -rA"},
		{"behind a cd", "cd sub && " + Tool("python3", "unittest") + " discover -v",
			"python3", "unittest", "cd sub && python3 -m unittest discover -v"},
		{"poetry", Tool("poetry run python", "mypy") + " .",
			"python", "mypy", "poetry run python -m mypy ."},
		{"plain -m is not the launcher", "python3 -m pytest -rA", "", "", "python3 -m pytest -rA"},
		{"another -c program is not the launcher", `python3 -P -c 'print(1)' pytest`, "", "", `python3 -P -c 'print(1)' pytest`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, ok := Find(tt.command)
			if ok != (tt.wantTool != "") || f.Python != tt.wantPython || f.Tool != tt.wantTool {
				t.Errorf("Find = %+v, %v; want python %q tool %q", f, ok, tt.wantPython, tt.wantTool)
			}
			if ok && !strings.HasSuffix(tt.command[f.Start:f.End], " "+tt.wantTool) {
				t.Errorf("Find's span %q does not end at the tool", tt.command[f.Start:f.End])
			}
			if got := Readable(tt.command); got != tt.wantReadable {
				t.Errorf("Readable = %q, want %q", got, tt.wantReadable)
			}
		})
	}
}

func TestToolKeepsOnlyPlainRelativePaths(t *testing.T) {
	cmd := Tool("python3", "pytest", "src", "../up", "/abs", `a"b`, "lib/py")
	if !strings.Contains(cmd, `paths = sys.argv[1], ["src", "lib/py"]`) {
		t.Errorf("paths line not as expected in %q", cmd)
	}
}

// pythonAtLeast311 returns a python3 that supports -P, or skips.
func pythonAtLeast311(t *testing.T) string {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3 on this machine")
	}
	if err := exec.Command(py, "-c", "import sys; sys.exit(sys.version_info < (3, 11))").Run(); err != nil {
		t.Skip("python3 here is older than 3.11 (no -P)")
	}
	return py
}

// newVenv makes a venv without pip (skipping without Python 3.11) and
// returns its directory and its site-packages (in a one-element slice).
func newVenv(t *testing.T) (venv string, sitePackages []string) {
	t.Helper()
	py := pythonAtLeast311(t)
	venv = filepath.Join(t.TempDir(), "venv")
	if out, err := exec.Command(py, "-m", "venv", "--without-pip", venv).CombinedOutput(); err != nil {
		t.Fatalf("python3 -m venv: %v\n%s", err, out)
	}
	sitePackages, err := filepath.Glob(filepath.Join(venv, "lib", "python3*", "site-packages"))
	if err != nil || len(sitePackages) != 1 {
		t.Fatalf("venv site-packages: %v %v", sitePackages, err)
	}
	return venv, sitePackages
}

// fakeTool is a tool installed in a venv: its __main__ says it is the real
// one, shows its arguments, and imports the project's module, which must
// still come from the workspace.
var fakeTool = map[string]string{
	"gltool/__init__.py": "",
	"gltool/__main__.py": "import sys\nimport projmod\nprint('REAL gltool', sys.argv[1:], projmod.WHERE)\n",
}

// shadowTool is a workspace module named like the tool.
const shadowTool = "print('SHADOW gltool')\n"

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// A workspace module named like the tool, wherever the workspace reaches
// sys.path (the working directory, a src directory, a .pth line of an
// editable install), never replaces the installed tool; `python -m` without
// the launcher runs the shadow, so each case is a real attack.
func TestToolRunsTheInstalledTool(t *testing.T) {
	venv, sitePackages := newVenv(t)
	// The tool lives in a directory of the venv that a .pth file adds
	// after site-packages, as the image's system site-packages come after
	// an editable install's .pth lines.
	writeFiles(t, filepath.Join(venv, "tools"), fakeTool)
	writeFiles(t, sitePackages[0], map[string]string{"zzz_tools.pth": filepath.Join(venv, "tools") + "\n"})
	python := filepath.Join(venv, "bin", "python")

	tests := []struct {
		name  string
		files map[string]string
		paths []string
		pth   string // a .pth line in the venv pointing into the workspace (relative to it)
		where string // where projmod must come from
	}{
		{"package in the working directory", map[string]string{
			"gltool/__init__.py": "", "gltool/__main__.py": shadowTool, "projmod.py": "WHERE = 'root'\n"}, nil, "", "root"},
		{"module in the working directory", map[string]string{
			"gltool.py": shadowTool, "projmod.py": "WHERE = 'root'\n"}, nil, "", "root"},
		{"package in src on PYTHONPATH", map[string]string{
			"src/gltool/__init__.py": "", "src/gltool/__main__.py": shadowTool, "src/projmod.py": "WHERE = 'src'\n"}, []string{"src"}, "", "src"},
		{"package in src reached by an editable .pth", map[string]string{
			"src/gltool/__init__.py": "", "src/gltool/__main__.py": shadowTool, "src/projmod.py": "WHERE = 'src'\n"}, nil, "src", "src"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ws := t.TempDir()
			writeFiles(t, ws, tt.files)
			pth := filepath.Join(sitePackages[0], "zz_editable.pth")
			_ = os.Remove(pth)
			if tt.pth != "" {
				writeFiles(t, sitePackages[0], map[string]string{"zz_editable.pth": filepath.Join(ws, tt.pth) + "\n"})
				t.Cleanup(func() { _ = os.Remove(pth) })
			}
			run := func(command string) string {
				t.Helper()
				cmd := exec.Command("/bin/sh", "-c", command)
				cmd.Dir = ws
				cmd.Env = []string{"PATH=/usr/bin:/bin"}
				if len(tt.paths) > 0 {
					cmd.Env = append(cmd.Env, "PYTHONPATH="+strings.Join(tt.paths, ":"))
				}
				out, err := cmd.CombinedOutput()
				if err != nil {
					t.Fatalf("%s: %v\n%s", command, err, out)
				}
				return string(out)
			}
			if out := run(python + " -m gltool"); !strings.Contains(out, "SHADOW") {
				t.Fatalf("python -m gltool ran %q: the shadow is not reachable, the case proves nothing", out)
			}
			// The launcher is given the paths itself; PYTHONPATH is not set.
			cmd := exec.Command("/bin/sh", "-c", Tool(python, "gltool", tt.paths...)+" --flag arg")
			cmd.Dir = ws
			cmd.Env = []string{"PATH=/usr/bin:/bin"}
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("launcher: %v\n%s", err, out)
			}
			want := "REAL gltool ['--flag', 'arg'] " + tt.where
			if strings.TrimSpace(string(out)) != want {
				t.Errorf("launcher printed %q, want %q", out, want)
			}
		})
	}
}

// -P alone keeps a stdlib tool or pip from being replaced by the working
// directory.
func TestModuleIgnoresTheWorkingDirectory(t *testing.T) {
	py := pythonAtLeast311(t)
	ws := t.TempDir()
	writeFiles(t, ws, map[string]string{"compileall.py": "print('SHADOW compileall')\n", "ok.py": "x = 1\n"})
	cmd := exec.Command("/bin/sh", "-c", Module(py, "compileall")+" -q ok.py")
	cmd.Dir = ws
	out, err := cmd.CombinedOutput()
	if err != nil || strings.Contains(string(out), "SHADOW") {
		t.Fatalf("%s: %v %q", Module(py, "compileall"), err, out)
	}
	plain, _ := exec.Command("/bin/sh", "-c", "cd "+ws+" && "+py+" -m compileall -q ok.py").CombinedOutput()
	if !strings.Contains(string(plain), "SHADOW") {
		t.Fatalf("python -m compileall did not run the shadow (%q): the case proves nothing", plain)
	}
}

// A tool that is not installed reads as `python -m` says it, so the loop
// names it as a tool missing from the image.
func TestToolMissingReadsLikePythonM(t *testing.T) {
	py := pythonAtLeast311(t)
	cmd := exec.Command("/bin/sh", "-c", Tool(py, "gl_no_such_tool"))
	cmd.Dir = t.TempDir()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 1 {
		t.Fatalf("exit %v, want status 1", err)
	}
	if want := ": No module named gl_no_such_tool\n"; !strings.HasSuffix(stderr.String(), want) {
		t.Errorf("stderr %q, want it to end with %q", stderr.String(), want)
	}
}

// A project that is one of the tool's own dependencies (attrs is pytest
// 7's) is tested as the workspace's code, as in CI where installing it
// replaces the runner's copy, while the tool keeps the copy it imported;
// the pytest machinery (iniconfig here) only when the project is named
// like it, so a directory named like it in another project changes
// nothing.
func TestProjectThatIsTheToolsDependency(t *testing.T) {
	venv, sitePackages := newVenv(t)
	writeFiles(t, sitePackages[0], map[string]string{
		"gldep/__init__.py":     "WHERE = 'installed'\n",
		"iniconfig/__init__.py": "WHERE = 'installed'\n",
		"gltool/__init__.py":    "import gldep, iniconfig\n",
		"gltool/__main__.py": "import gltool, projtest\n" +
			"print('tool=' + gltool.gldep.WHERE + '/' + gltool.iniconfig.WHERE, 'project=' + projtest.GLDEP + '/' + projtest.INICONFIG)\n",
	})
	python := filepath.Join(venv, "bin", "python")
	tests := []struct {
		name, project, want string
	}{
		{"the project ships a dependency of the tool", "other-project", "tool=installed/installed project=workspace/installed"},
		{"the project is the pytest machinery it ships", "iniconfig", "tool=installed/installed project=workspace/workspace"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ws := t.TempDir()
			writeFiles(t, ws, map[string]string{
				"pyproject.toml":            "[project]\nname = \"" + tt.project + "\"\n",
				"src/gldep/__init__.py":     "WHERE = 'workspace'\n",
				"src/iniconfig/__init__.py": "WHERE = 'workspace'\n",
				"projtest.py":               "import gldep, iniconfig\nGLDEP, INICONFIG = gldep.WHERE, iniconfig.WHERE\n",
			})
			cmd := exec.Command("/bin/sh", "-c", Tool(python, "gltool", "src"))
			cmd.Dir = ws
			cmd.Env = []string{"PATH=/usr/bin:/bin"}
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("launcher: %v\n%s", err, out)
			}
			if got := strings.TrimSpace(string(out)); got != tt.want {
				t.Errorf("launcher printed %q, want %q", got, tt.want)
			}
		})
	}
}
