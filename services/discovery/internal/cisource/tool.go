package cisource

import (
	"path"
	"strings"

	"github.com/greenlight-dev/greenlight/pkg/toolchain"
	"github.com/greenlight-dev/greenlight/pkg/toolchain/packs"
)

// Invocation is one simple command reduced to what it runs: the program
// (launchers such as "python -m", "uv run", "npx" and "poetry run" peeled
// off) and its arguments.
type Invocation struct {
	// Key names the tool and, for tools with subcommands, the subcommand:
	// "go vet", "ruff check", "mypy", "make lint", "script:lint" (a
	// package.json script, whichever package manager runs it), "tox".
	Key string
	// Args are the words after the program (and its subcommand, if any).
	Args []string
	// Dir is set when the command changes directory itself (make -C,
	// npm --prefix).
	Dir string
}

// launcherOptions are options of launchers that take a value.
var launcherOptions = map[string]bool{
	"--group": true, "--with": true, "--extra": true, "--python": true, "-p": true, "--package": true,
	"--env-file": true, "--only-group": true, "--directory": true, "--project": true, "-e": true,
}

// subcommandTools key on their first non-option argument too.
var subcommandTools = withPackSubcommands(map[string]bool{
	"go": true, "dotnet": true, "git": true, "docker": true, "gh": true, "uv": true,
	"poetry": true, "pip": true, "pip3": true, "hatch": true, "pdm": true, "deno": true, "bun": true,
	"mvn": true, "gradle": true, "gradlew": true, "mvnw": true, "cmake": true, "twine": true,
})

// withPackSubcommands adds the toolchain packs' subcommand tools.
func withPackSubcommands(tools map[string]bool) map[string]bool {
	for _, t := range packs.Registry.Collect(func(s *toolchain.Spec) []string { return s.Words.SubcommandTools }) {
		tools[t] = true
	}
	return tools
}

// ruffCommands are ruff's subcommands; anything else ("ruff .") is the
// pre-0.5 spelling of "ruff check".
var ruffCommands = map[string]bool{"check": true, "format": true, "rule": true, "config": true, "linter": true, "clean": true, "server": true, "analyze": true}

// packageManagerBuiltins are yarn/pnpm subcommands that are not scripts.
var packageManagerBuiltins = map[string]bool{
	"install": true, "i": true, "add": true, "remove": true, "ci": true, "exec": true, "dlx": true,
	"publish": true, "pack": true, "link": true, "why": true, "info": true, "upgrade": true, "up": true,
	"audit": true, "outdated": true, "config": true, "set": true, "version": true, "workspace": true,
	"workspaces": true, "dedupe": true, "init": true, "create": true, "cache": true, "rebuild": true,
}

// Parse reduces a simple command (one part of a command line) to an
// Invocation; ok is false for an empty command.
func Parse(part string) (Invocation, bool) {
	w := words(part)
	for len(w) > 0 && (isAssignment(w[0]) || w[0] == "time" || w[0] == "command" || w[0] == "exec" || w[0] == "!") {
		w = w[1:]
	}
	w = unwrap(w)
	if len(w) == 0 {
		return Invocation{}, false
	}
	prog := path.Base(w[0])
	if strings.HasPrefix(w[0], "$") {
		prog = w[0]
	}
	args := w[1:]
	switch {
	case prog == "make" || prog == "gmake":
		return makeInvocation(args), true
	case prog == "npm" || prog == "yarn" || prog == "pnpm" || prog == "bun":
		if inv, ok := scriptInvocation(prog, args); ok {
			return inv, true
		}
	case prog == "ruff":
		if len(args) == 0 || !ruffCommands[args[0]] {
			return Invocation{Key: "ruff check", Args: args}, true
		}
		return Invocation{Key: "ruff " + args[0], Args: args[1:]}, true
	case prog == "tox" || prog == "nox":
		return Invocation{Key: prog, Args: args}, true
	}
	if subcommandTools[strings.TrimSuffix(prog, ".cmd")] {
		for i, a := range args {
			if !strings.HasPrefix(a, "-") {
				return Invocation{Key: prog + " " + a, Args: args[i+1:]}, true
			}
		}
	}
	return Invocation{Key: prog, Args: args}, true
}

// unwrap peels launchers off a command's words: python -m MOD, uv run,
// poetry run, pipenv run, pdm run, hatch run, npx, pnpm exec, coverage run
// -m, xvfb-run, timeout N.
func unwrap(w []string) []string {
	for len(w) > 0 {
		prog := path.Base(w[0])
		switch {
		case isPython(prog) && len(w) > 2 && w[1] == "-m":
			w = w[2:]
		case (prog == "uv" || prog == "poetry" || prog == "pipenv" || prog == "pdm" || prog == "hatch" || prog == "rye") && len(w) > 2 && w[1] == "run":
			w = skipOptions(w[2:])
		case prog == "npx" || prog == "bunx" || prog == "pnpx":
			w = skipOptions(w[1:])
		case (prog == "pnpm" || prog == "yarn" || prog == "npm") && len(w) > 2 && w[1] == "exec":
			w = skipOptions(w[2:])
		case prog == "coverage" && len(w) > 2 && w[1] == "run":
			w = skipOptions(w[2:])
			if len(w) > 1 && w[0] == "-m" {
				w = w[1:]
			}
		case prog == "xvfb-run" || prog == "nice" || prog == "env":
			w = skipOptions(w[1:])
			for len(w) > 0 && isAssignment(w[0]) {
				w = w[1:]
			}
		case prog == "timeout" && len(w) > 2:
			w = skipOptions(w[1:])
			if len(w) > 0 {
				w = w[1:] // the duration
			}
		default:
			return w
		}
	}
	return w
}

// skipOptions drops leading options (and the values of those that take one).
func skipOptions(w []string) []string {
	for len(w) > 0 && strings.HasPrefix(w[0], "-") {
		if launcherOptions[w[0]] && len(w) > 1 {
			w = w[1:]
		}
		w = w[1:]
	}
	return w
}

func isPython(prog string) bool {
	return prog == "python" || prog == "python3" || prog == "py" || prog == "pypy3" ||
		strings.HasPrefix(prog, "python3.") || strings.HasPrefix(prog, "python2")
}

// makeInvocation reads make [-C dir] [-f file] [VAR=value] [target...].
// A target-less make keys as "make" (the default goal).
func makeInvocation(args []string) Invocation {
	inv := Invocation{}
	var targets []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-C" || a == "--directory":
			if i+1 < len(args) {
				inv.Dir = path.Join(inv.Dir, args[i+1])
				i++
			}
		case strings.HasPrefix(a, "-C") && len(a) > 2:
			inv.Dir = path.Join(inv.Dir, a[2:])
		case strings.HasPrefix(a, "--directory="):
			inv.Dir = path.Join(inv.Dir, strings.TrimPrefix(a, "--directory="))
		case a == "-f" || a == "--file" || a == "-j" || a == "-l" || a == "-o" || a == "-W":
			i++
		case strings.HasPrefix(a, "-"), isAssignment(a):
		default:
			targets = append(targets, a)
		}
	}
	inv.Key = "make"
	if len(targets) > 0 {
		inv.Key = "make " + targets[0]
		inv.Args = targets[1:]
	}
	return inv
}

// scriptInvocation reads npm test, npm run X, yarn X, pnpm X, bun run X
// (with --prefix/-C/--dir changing directory) as "script:X". Installs key
// as "npm install" and the like; bun test is bun's own test runner.
func scriptInvocation(pm string, args []string) (Invocation, bool) {
	inv := Invocation{}
	var rest []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case (a == "--prefix" || a == "-C" || a == "--dir" || a == "--cwd") && i+1 < len(args):
			inv.Dir = path.Join(inv.Dir, args[i+1])
			i++
		case strings.HasPrefix(a, "--prefix=") || strings.HasPrefix(a, "--dir=") || strings.HasPrefix(a, "--cwd="):
			inv.Dir = path.Join(inv.Dir, a[strings.IndexByte(a, '=')+1:])
		case strings.HasPrefix(a, "-") && len(rest) == 0:
		default:
			rest = append(rest, a)
		}
	}
	if len(rest) == 0 {
		if pm == "yarn" {
			inv.Key = "yarn install"
			return inv, true
		}
		return Invocation{}, false
	}
	sub := rest[0]
	switch {
	case sub == "test" || sub == "t" || sub == "tst":
		if pm == "bun" {
			inv.Key = "bun test"
		} else {
			inv.Key = "script:test"
		}
	case (sub == "run" || sub == "run-script") && len(rest) > 1:
		inv.Key = "script:" + rest[1]
		rest = rest[1:]
	case sub == "install" || sub == "i" || sub == "ci" || sub == "add":
		inv.Key = pm + " install"
	case pm == "npm" || pm == "bun" || packageManagerBuiltins[sub]:
		inv.Key = pm + " " + sub
	default:
		inv.Key = "script:" + sub
	}
	inv.Args = rest[1:]
	return inv, true
}
