package command

import (
	"strings"
	"unicode"

	"github.com/greenlight-dev/greenlight/pkg/toolchain"
	"github.com/greenlight-dev/greenlight/pkg/toolchain/packs"
)

// installers are command prefixes that install dependencies. A step of a
// format that only names steps (agent.yaml, runr.config.json) whose command
// starts with one of them is the install phase, the only one with network.
var installers = append([]string{
	"npm ci", "npm install", "npm i", "pnpm install", "pnpm i", "yarn install",
	"bun install", "pip install", "pip3 install", "python -m pip install",
	"python3 -m pip install", "poetry install", "uv sync", "uv pip install",
	"pipenv install", "pipenv sync", "go mod download", "go get", "cargo fetch",
	"mvn dependency:go-offline", "mvn dependency:resolve", "gradle dependencies",
	"./gradlew dependencies", "bundle install", "composer install",
}, packs.Registry.Collect(func(s *toolchain.Spec) []string { return s.Words.Install })...)

// commandRules classify a command by the words it contains, first match
// wins (so "tsc --noemit" is a typecheck before "tsc" is a build).
var commandRules = withPackWords([]phaseWords{
	{PhaseTest, []string{"go test", "pytest", "unittest", "jest", "vitest", "mocha", "node --test",
		"mvn test", "mvn verify", "gradle test", "gradlew test", "npm test",
		"npm run test", "yarn test", "yarn run test", "pnpm test", "pnpm run test", "bun test",
		"tox", "nox", "make test", "make check", "ctest"}},
	{PhaseTypecheck, []string{"tsc --noemit", "mypy", "pyright", "run typecheck", "run type-check", "vue-tsc"}},
	{PhaseLint, []string{"go vet", "golangci-lint", "eslint", "ruff", "flake8", "pylint",
		"prettier", "gofmt", "black --check", "run lint", "make lint", "staticcheck", "biome"}},
	{PhaseSecurity, []string{"npm audit", "pip-audit", "govulncheck", "bandit"}},
	{PhaseBuild, []string{"go build", "mvn package", "mvn compile", "mvn install",
		"gradle build", "gradlew build", "gradle assemble", "gradlew assemble", "tsc", "run build",
		"make build", "make", "compileall", "py_compile", "webpack", "vite build", "next build"}},
	{PhaseSmoke, []string{"--help", "--version"}},
}, false)

// phaseWords are the words that classify a command or a name as a phase.
type phaseWords struct {
	phase Phase
	words []string
}

// withPackWords adds the toolchain packs' words to their phases' rules:
// whole commands, or for names (single) only the one-word ones ("clippy").
func withPackWords(rules []phaseWords, single bool) []phaseWords {
	for _, p := range packs.Registry.All() {
		w := p.Spec().Words
		for phase, words := range map[Phase][]string{PhaseTest: w.Test, PhaseLint: w.Lint,
			PhaseSecurity: w.Security, PhaseBuild: w.Build, PhaseInstall: w.Install} {
			for i := range rules {
				if rules[i].phase != phase {
					continue
				}
				for _, word := range words {
					if !single || !strings.Contains(word, " ") {
						rules[i].words = append(rules[i].words, word)
					}
				}
			}
		}
	}
	return rules
}

// nameRules classify a step by a word of its name.
var nameRules = withPackWords([]phaseWords{
	{PhaseInstall, []string{"install", "deps", "dependencies", "bootstrap"}},
	{PhaseTest, []string{"test", "tests", "spec", "unit", "integration", "e2e", "pytest", "jest", "vitest"}},
	{PhaseTypecheck, []string{"typecheck", "types", "type", "tsc", "mypy", "pyright"}},
	{PhaseLint, []string{"lint", "eslint", "ruff", "flake8", "vet", "fmt", "format", "style", "prettier"}},
	{PhaseSecurity, []string{"security", "audit", "vuln", "vulncheck"}},
	{PhaseBuild, []string{"build", "compile", "package", "assemble"}},
	{PhaseSmoke, []string{"smoke", "startup", "help"}},
}, true)

// IsInstaller reports whether any part of a shell command (split at &&, ||
// and ;) is a known dependency installer.
func IsInstaller(cmd string) bool {
	for _, part := range shellParts(cmd) {
		if part == "yarn" { // bare yarn installs; "yarn test" does not
			return true
		}
		for _, inst := range installers {
			if part == inst || strings.HasPrefix(part, inst+" ") {
				return true
			}
		}
	}
	return false
}

// Classify infers the phase of a step that only has a name and a command:
// a known installer command or a step named "install" is PhaseInstall, then
// the words of the name decide, then the command. It returns
// PhaseUnspecified when nothing matches.
func Classify(name, cmd string) Phase {
	if IsInstaller(cmd) {
		return PhaseInstall
	}
	words := nameWords(name)
	for _, r := range nameRules {
		for _, w := range r.words {
			if words[w] {
				return r.phase
			}
		}
	}
	norm := " " + strings.Join(strings.Fields(strings.ToLower(cmd)), " ") + " "
	for _, r := range commandRules {
		for _, w := range r.words {
			if strings.Contains(norm, " "+w+" ") || strings.Contains(norm, "/"+w+" ") {
				return r.phase
			}
		}
	}
	return PhaseUnspecified
}

// nameWords splits a step name like "test:unit" or "typeCheck" into its
// lower-case words.
func nameWords(name string) map[string]bool {
	words := map[string]bool{}
	for _, w := range strings.FieldsFunc(name, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		words[strings.ToLower(w)] = true
	}
	words[strings.ToLower(name)] = true
	return words
}

// shellParts splits a command list at &&, || and ; and normalizes spaces.
func shellParts(cmd string) []string {
	r := strings.NewReplacer("&&", ";", "||", ";")
	var parts []string
	for _, p := range strings.Split(r.Replace(cmd), ";") {
		if f := strings.Fields(p); len(f) > 0 {
			parts = append(parts, strings.Join(f, " "))
		}
	}
	return parts
}
