// Package pylaunch builds the commands that run the Python tools greenlight
// invokes (pytest, unittest, mypy, ruff, pip, venv, compileall) so that the
// workspace under verification cannot replace them, and recognizes those
// commands again (the loop narrows a test command to the failing tests and
// names a tool missing from the image).
//
// `python -m pytest` puts the working directory first on sys.path, so a
// checkout holding pytest/__main__.py runs that instead of pytest. Every
// command here starts the interpreter with -P (Python 3.11+: no working
// directory or script directory on sys.path). Tools that need nothing from
// the workspace on sys.path (pip, venv, compileall) run as `python -P -m
// TOOL`; tools that run the project's code (pytest, unittest, mypy, ruff)
// run through a fixed launcher (launcher.py) that imports the tool before
// any workspace directory is on sys.path, then puts the workspace first as
// `python -m` would and runs the tool's __main__. For pytest the launcher
// also loads plugins only from installed dependencies (see launcher.py).
package pylaunch

import (
	_ "embed"
	"regexp"
	"strings"
)

//go:embed launcher.py
var launcherSource string

// CoverageEnv names the LCOV file the launcher writes pytest's coverage to
// (coverage.py, from the installed packages); unset, nothing is measured.
const CoverageEnv = "GREENLIGHT_COVERAGE_LCOV"

// marker is the launcher's first line: what Find looks for.
const marker = `"greenlight tool launcher"`

// pathsLine is the line of launcher.py that Tool fills in.
const pathsLine = "tool, paths = sys.argv[1], []"

// launcherCode is launcher.py without its comment lines: the argument of
// -c (the comments stay in the source for people).
var launcherCode = func() string {
	var b strings.Builder
	for _, ln := range strings.Split(launcherSource, "\n") {
		if t := strings.TrimSpace(ln); t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		b.WriteString(ln)
		b.WriteByte('\n')
	}
	return strings.TrimSuffix(b.String(), "\n")
}()

// safePath is a PYTHONPATH entry Tool embeds: relative, plain characters.
var safePath = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9._/-]*$`)

// Tool is the command that runs tool (a module name, as in `python -m
// tool`) with the interpreter python ("python3", ".venv/bin/python",
// "poetry run python") through the launcher; the caller appends the
// tool's arguments. paths are PYTHONPATH entries relative to the working
// directory (a src layout's "src"): they go on sys.path after the tool is
// imported, and into PYTHONPATH for the processes the tool starts, instead
// of being in the interpreter's environment at start-up (where a
// sitecustomize.py in them would run first). Entries that are not plain
// relative paths are left out.
func Tool(python, tool string, paths ...string) string {
	var quoted []string
	for _, p := range paths {
		if safePath.MatchString(p) && !strings.Contains(p, "..") {
			quoted = append(quoted, `"`+p+`"`)
		}
	}
	code := strings.Replace(launcherCode, pathsLine, "tool, paths = sys.argv[1], ["+strings.Join(quoted, ", ")+"]", 1)
	return python + " -P -c '" + code + "' " + tool
}

// Module is `python -P -m module`: for the tools that need no workspace
// directory on sys.path (pip, venv, compileall), -P alone keeps the
// workspace from replacing them.
func Module(python, module string) string {
	return python + " -P -m " + module
}

// reLaunch finds a launcher invocation: the interpreter, the quoted
// launcher (marked by its first line) and the tool.
var reLaunch = regexp.MustCompile(`(\S*python[0-9.]*)\s+-P\s+-c\s+'` + regexp.QuoteMeta(marker) + `[^']*'\s+([A-Za-z_][A-Za-z0-9_.]*)`)

// Found is a launcher invocation inside a shell command.
type Found struct {
	// Start and End delimit "python -P -c '...' TOOL" in the command.
	Start, End int
	// Python is the interpreter word (".venv/bin/python").
	Python string
	// Tool is the module the launcher runs ("pytest").
	Tool string
}

// Find locates the first launcher invocation in command; ok is false when
// there is none.
func Find(command string) (f Found, ok bool) {
	m := reLaunch.FindStringSubmatchIndex(command)
	if m == nil {
		return Found{}, false
	}
	return Found{Start: m[0], End: m[1], Python: command[m[2]:m[3]], Tool: command[m[4]:m[5]]}, true
}

// Readable rewrites every launcher invocation in command as the `python
// -m TOOL` a person would type, for display.
func Readable(command string) string {
	return reLaunch.ReplaceAllString(command, "$1 -m $2")
}

// compileAllArgs byte-compiles the working directory's tree, leaving out
// virtual environments and node_modules.
const compileAllArgs = ` -q -x '(^|/)(\.venv|\.tox|\.nox|node_modules)/' .`

// CompileAll is the build check discovery plans for Python: every module
// of the tree byte-compiles (a syntax error fails it).
func CompileAll(python string) string { return Module(python, "compileall") + compileAllArgs }

// plainInterpreter is an interpreter invocation with nothing the shell would act
// on ("python3", ".venv/bin/python", "poetry run python").
var plainInterpreter = regexp.MustCompile(`^[A-Za-z0-9_./ -]+$`)

// IsCompileAll says whether command is exactly CompileAll of some
// interpreter: it reads the tree and writes only __pycache__, so nothing
// else in a pipeline depends on it having run.
func IsCompileAll(command string) bool {
	python, ok := strings.CutSuffix(command, " -P -m compileall"+compileAllArgs)
	return ok && plainInterpreter.MatchString(python)
}
