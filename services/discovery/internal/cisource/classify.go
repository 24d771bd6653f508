package cisource

import (
	"path"
	"strings"

	"github.com/greenlight-dev/greenlight/services/discovery/internal/command"
)

// makeGoals classify make targets (and -C directories) by name.
var makeGoals = map[string]command.Phase{
	"test": command.PhaseTest, "tests": command.PhaseTest, "check": command.PhaseTest, "cover": command.PhaseTest,
	"coverage": command.PhaseTest, "unit": command.PhaseTest, "unittest": command.PhaseTest, "t": command.PhaseTest,
	"pedantic": command.PhaseTest, "integration": command.PhaseTest,
	"lint": command.PhaseLint, "vet": command.PhaseLint, "fmt-check": command.PhaseLint, "format-check": command.PhaseLint,
	"typecheck": command.PhaseTypecheck, "mypy": command.PhaseTypecheck,
	"build": command.PhaseBuild, "all": command.PhaseBuild,
}

// classify gives one invocation its phase with the command classification
// discovery uses everywhere (command.Classify); make, tox and nox are read
// by their targets and environments, and a step name classifies a command
// its own words do not (a script "./ci/run.sh" in a step named "Tests").
func classify(inv Invocation, part, stepName string) command.Phase {
	prog, sub, _ := strings.Cut(inv.Key, " ")
	switch prog {
	case "make", "gmake":
		if p, ok := makeGoals[sub]; ok {
			return p
		}
		if p, ok := makeGoals[path.Base(inv.Dir)]; ok && sub == "" {
			return p
		}
		if p := command.Classify(stepName, ""); p != command.PhaseUnspecified && p != command.PhaseInstall {
			return p
		}
		if sub == "" {
			return command.PhaseBuild
		}
		return command.PhaseUnspecified
	case "tox", "nox":
		for _, env := range envArgs(inv.Args, prog) {
			return envPhase(env)
		}
		return command.PhaseTest
	}
	if p := command.Classify("", part); p != command.PhaseUnspecified {
		return p
	}
	if strings.HasPrefix(inv.Key, "script:") {
		return command.Classify(strings.TrimPrefix(inv.Key, "script:"), "")
	}
	if !projectScript(part) || skipReason(inv) != "" {
		return command.PhaseUnspecified
	}
	if p := command.Classify(stepName, ""); p != command.PhaseInstall {
		return p
	}
	return command.PhaseUnspecified
}

// envPhase classifies a tox environment or nox session by its name.
func envPhase(env string) command.Phase {
	lower := strings.ToLower(env)
	switch {
	case strings.Contains(lower, "typ") || strings.Contains(lower, "mypy") || strings.Contains(lower, "pyright"):
		return command.PhaseTypecheck
	case strings.Contains(lower, "lint") || strings.Contains(lower, "style") || strings.Contains(lower, "pre-commit") ||
		strings.Contains(lower, "flake8") || strings.Contains(lower, "ruff") || strings.Contains(lower, "format"):
		return command.PhaseLint
	case strings.Contains(lower, "doc") || strings.Contains(lower, "build") || strings.Contains(lower, "pkg"):
		return command.PhaseBuild
	}
	return command.PhaseTest
}

// envArgs returns the environments a tox or nox command line names
// (tox -e a,b / tox run -e a / nox -s a b / nox --session a).
func envArgs(args []string, prog string) []string {
	flags := map[string]bool{"-e": true, "--env": true, "-f": true, "--factors": true}
	if prog == "nox" {
		flags = map[string]bool{"-s": true, "--session": true, "--sessions": true, "-e": true}
	}
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, val, hasVal := strings.Cut(a, "=")
		prefix := ""
		if prog == "tox" && (name == "-f" || name == "--factors") {
			prefix = "factor:" // every envlist env with this factor
		}
		switch {
		case flags[name] && hasVal:
			out = append(out, prefixed(prefix, splitList(val))...)
		case flags[a]:
			for i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
				i++
				out = append(out, prefixed(prefix, splitList(args[i]))...)
				if prog == "tox" {
					break
				}
			}
		}
	}
	return out
}

func splitList(v string) []string {
	var out []string
	for _, f := range strings.Split(v, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

func prefixed(prefix string, list []string) []string {
	for i := range list {
		list[i] = prefix + list[i]
	}
	return list
}

// projectScript reports whether a command runs one of the repository's
// own scripts (./ci/test.sh, bash scripts/lint.sh), whose name says
// nothing: only those take their phase from the step's name, never a
// known tool ("go version" in a job named "unit" is no test).
func projectScript(part string) bool {
	w := words(part)
	for len(w) > 0 && isAssignment(w[0]) {
		w = w[1:]
	}
	if len(w) > 1 && (w[0] == "bash" || w[0] == "sh") {
		w = w[1:]
	}
	if len(w) == 0 {
		return false
	}
	prog := w[0]
	return strings.Contains(prog, "/") || strings.HasSuffix(prog, ".sh") || strings.HasSuffix(prog, ".py")
}
