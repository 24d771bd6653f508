package command

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/greenlight-dev/greenlight/pkg/pylaunch"
	"github.com/greenlight-dev/greenlight/services/discovery/internal/detect"
)

// pyEnv is how a Python subproject's commands find their interpreter.
type pyEnv struct {
	// python runs the interpreter with the project's dependencies.
	python string
	env    map[string]string
}

// pythonEnv picks the interpreter: the system python3 when nothing must be
// installed, else the virtualenv the install step creates in .venv
// (--system-site-packages so tools shipped in the sandbox image, such as
// pytest, stay visible).
func (e *extractor) pythonEnv() pyEnv {
	info := e.sp.Python
	if !info.HasDeps {
		return pyEnv{python: "python3"}
	}
	switch e.sp.PackageManager {
	case "poetry":
		return pyEnv{python: "poetry run python", env: map[string]string{"POETRY_VIRTUALENVS_IN_PROJECT": "true"}}
	case "pipenv":
		return pyEnv{python: "pipenv run python", env: map[string]string{"PIPENV_VENV_IN_PROJECT": "1"}}
	}
	return pyEnv{python: ".venv/bin/python"}
}

func (e *extractor) python() {
	info := e.sp.Python
	py := e.pythonEnv()
	e.pythonInstall(py)
	marker := e.sp.Markers[0]
	def := Source{File: marker, Origin: OriginDefault}
	e.add(Command{Name: "compileall", Phase: PhaseBuild, Env: clone(py.env), Source: def,
		Command: pylaunch.CompileAll(py.python)})
	if info.Invalid {
		e.add(Command{Name: "pyproject-toml", Phase: PhaseBuild, Source: Source{File: e.file("pyproject.toml"), Origin: OriginDefault},
			Command: `python3 -P -c 'import tomllib; tomllib.load(open("pyproject.toml", "rb"))'`})
	}
	e.pythonLint(py)
	e.pythonTests(py)
	e.pythonSmoke(py)
	for _, env := range info.ToxEnvs {
		if safeWord.MatchString(env.Name) {
			e.add(Command{Name: "tox-" + env.Name, Phase: envPhase(env.Name), Tier: Tier2, Command: "tox -e " + env.Name, Source: located(env.Source)})
		}
	}
	for _, s := range info.Nox {
		if safeWord.MatchString(s.Name) {
			e.add(Command{Name: "nox-" + s.Name, Phase: envPhase(s.Name), Tier: Tier2, Command: "nox -s " + s.Name, Source: located(s.Source)})
		}
	}
}

// envPhase classifies a tox env or nox session by its name ("lint",
// "type-check"); anything else ("py311", "tests") runs the test suite.
func envPhase(name string) Phase {
	switch p := Classify(name, ""); p {
	case PhaseLint, PhaseTypecheck, PhaseBuild, PhaseSecurity, PhaseSmoke:
		return p
	}
	return PhaseTest
}

// pythonInstall adds the dependency install step, if anything is declared.
func (e *extractor) pythonInstall(py pyEnv) {
	info := e.sp.Python
	if !info.HasDeps {
		return
	}
	c := Command{Name: e.sp.PackageManager + "-install", Phase: PhaseInstall, Env: clone(py.env),
		CacheKeyFiles: info.LockFiles, CachePaths: []string{".venv"}}
	switch e.sp.PackageManager {
	case "poetry":
		c.Command = "poetry install --no-interaction"
		c.Source = Source{File: e.file("pyproject.toml"), Key: "tool.poetry", Origin: OriginDefault}
	case "pipenv":
		c.Command = "pipenv install --dev"
		if contains(info.LockFiles, e.file("Pipfile.lock")) {
			c.Command += " --deploy"
		}
		c.Source = Source{File: e.file("Pipfile"), Origin: OriginDefault}
	default:
		e.pipInstall(c)
		return
	}
	e.add(c)
}

// pythonLint adds ruff and mypy when the project configures them.
func (e *extractor) pythonLint(py pyEnv) {
	tools := e.sp.Python.Tools
	if loc, ok := tools["ruff"]; ok {
		e.add(pyTool(Command{Name: "ruff", Phase: PhaseLint, Env: clone(py.env), Source: located(loc)}, py.python, "ruff", "check ."))
	}
	if loc, ok := tools["mypy"]; ok {
		args := ""
		if !e.sp.Python.MypyFiles {
			args = "."
		}
		e.add(pyTool(Command{Name: "mypy", Phase: PhaseTypecheck, Env: clone(py.env), Source: located(loc)}, py.python, "mypy", args))
	}
}

// pythonTests adds pytest (with a JUnit report and the -rA summary the
// parser reads) or unittest, only when tests exist: pytest without tests
// exits 5, which is not a verdict on the code.
func (e *extractor) pythonTests(py pyEnv) {
	if !e.sp.HasTests || len(e.sp.TestFrameworks) == 0 {
		if !e.sp.HasTests {
			e.note("%s: no Python tests found; verification relies on compileall, imports and entry-point smoke runs", e.sp.Root)
		}
		return
	}
	info := e.sp.Python
	src := Source{File: e.sp.Markers[0], Origin: OriginDefault}
	if loc, ok := info.Tools["pytest"]; ok {
		src = located(loc)
	}
	var paths []string
	if info.SrcLayout {
		paths = []string{"src"}
	}
	switch e.sp.TestFrameworks[0] {
	case "unittest":
		args := "discover -v"
		if info.TestsDir != "" && !info.TestsDirIsPackage {
			args += " -s " + info.TestsDir
		}
		e.add(pyTool(Command{Name: "unittest", Phase: PhaseTest, Env: clone(py.env), Source: src}, py.python, "unittest", args, paths...))
	default:
		e.add(Command{Name: "pytest", Phase: PhaseTest, Env: clone(py.env), Source: src})
		c := &e.out.Commands[len(e.out.Commands)-1]
		report := ReportDir + "/" + fileName(c.Name) + ".xml"
		args := "-rA --junitxml=" + report
		if d := info.Doctests; d != nil {
			// the maintainers' tox command collects doctests too
			args += " " + d.Args
			c.Source = located(d.Source)
		}
		*c = pyTool(*c, py.python, "pytest", args, paths...)
		c.ReportFiles = []string{report}
	}
}

// pyTool sets c to run the Python tool through pylaunch's launcher (the
// workspace cannot replace the tool, nor add pytest plugins), with args;
// paths are the PYTHONPATH entries the tool's run needs (src in a src
// layout), handed to the launcher instead of the interpreter's
// environment. The display is the `python -m tool args` a person types.
func pyTool(c Command, python, tool, args string, paths ...string) Command {
	c.Command = pylaunch.Tool(python, tool, paths...)
	c.Display = python + " -m " + tool
	if args != "" {
		c.Command += " " + args
		c.Display += " " + args
	}
	if len(paths) > 0 {
		c.Display = "PYTHONPATH=" + strings.Join(paths, ":") + " " + c.Display
	}
	return c
}

var dottedIdent = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$`)

// pythonSmoke imports each package and runs each console script with
// --help. They are the tier0 fallback when there are no tests, and tier1
// extras otherwise.
func (e *extractor) pythonSmoke(py pyEnv) {
	info := e.sp.Python
	tier := Tier1
	if !e.sp.HasTests {
		tier = Tier0
	}
	env := checkoutEnv(py.env, info.SrcLayout)
	for _, pkg := range info.Packages {
		e.add(Command{Name: "import-" + pkg, Phase: PhaseSmoke, Tier: tier, Env: clone(env),
			Command: fmt.Sprintf("%s -c 'import %s'", py.python, pkg), Source: Source{File: e.sp.Markers[0], Key: pkg, Origin: OriginDefault}})
	}
	for _, ep := range info.Scripts {
		if !dottedIdent.MatchString(ep.Module) || !dottedIdent.MatchString(ep.Func) || !safeWord.MatchString(ep.Name) {
			e.note("%s: entry point %q skipped: %q is not a module:function reference", ep.Source.File, ep.Name, ep.Module+":"+ep.Func)
			continue
		}
		first, rest, _ := strings.Cut(ep.Func, ".")
		call := first
		if rest != "" {
			call += "." + rest
		}
		cmd := fmt.Sprintf(`%s -c 'import sys; from %s import %s; sys.argv = ["%s", "--help"]; sys.exit(%s())'`,
			py.python, ep.Module, first, ep.Name, call)
		e.add(Command{Name: "cli-" + ep.Name + "-help", Phase: PhaseSmoke, Tier: tier, Env: clone(env), Command: cmd, Source: located(ep.Source)})
	}
	if !e.sp.HasTests && len(info.Packages) == 0 && len(info.Scripts) == 0 {
		e.note("%s: no importable package or entry point found for a smoke run", e.sp.Root)
	}
}

// checkoutEnv is the environment of a step that imports the project: a
// src layout's src/ goes first on the path, so its tests and smoke runs
// import the checkout whether or not pip-install could install the
// project (an editable install imports from src/ all the same).
func checkoutEnv(base map[string]string, srcLayout bool) map[string]string {
	env := clone(base)
	if srcLayout {
		if env == nil {
			env = map[string]string{}
		}
		env["PYTHONPATH"] = "src"
	}
	return env
}

func located(l detect.Located) Source {
	return Source{File: l.File, Key: l.Key, Line: l.Line, Origin: OriginDiscovered}
}

func clone(m map[string]string) map[string]string {
	if m == nil {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// ShellQuote quotes a word for /bin/sh when it is not plainly safe.
func ShellQuote(s string) string {
	if safeWord.MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
