package capability_test

import (
	"strings"
	"testing"

	"github.com/greenlight-dev/greenlight/services/discovery/internal/capability"
	"github.com/greenlight-dev/greenlight/services/discovery/internal/cisource"
	"github.com/greenlight-dev/greenlight/services/discovery/internal/command"
	"github.com/greenlight-dev/greenlight/services/discovery/internal/plan"
)

// goWithWeb is a Go module whose CI runs go vet, next to a web/ package
// whose lint script CI does not run.
func goWithWeb() map[string]string {
	return map[string]string{
		"go.mod":           "module example.com/app\n\ngo 1.22\n",
		"main.go":          "package main\n\nfunc main() {}\n",
		"main_test.go":     "package main\n\nimport \"testing\"\n\nfunc TestX(t *testing.T) {}\n",
		"web/package.json": `{"name": "web", "scripts": {"lint": "eslint .", "test": "node --test"}}`,
		".github/workflows/ci.yml": "jobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n" +
			"      - uses: actions/checkout@v4\n      - run: go test -race ./...\n      - name: Vet\n        run: go vet ./...\n",
	}
}

func TestCIRunLintIsRequiredOtherLintAdvisory(t *testing.T) {
	c, err := build(t, goWithWeb(), capability.Options{})
	if err != nil {
		t.Fatal(err)
	}
	p, err := plan.Make(c, plan.Request{})
	if err != nil {
		t.Fatal(err)
	}
	steps := map[string]command.Command{}
	for _, s := range p.Steps {
		steps[s.Name] = s
	}
	vet, ok := steps["go-vet"]
	if !ok || vet.Optional {
		t.Errorf("go-vet (run by CI) must be a required step: %+v", vet)
	}
	if rb := vet.RequiredBy; rb == nil || rb.Origin != "ci" || rb.File != ".github/workflows/ci.yml" || rb.Line != 8 {
		t.Errorf("go-vet's RequiredBy = %+v, want the CI line .github/workflows/ci.yml:8", rb)
	}
	lint, ok := steps["web:npm-lint"]
	if !ok || !lint.Optional || !lint.ContinueOnFailure {
		t.Errorf("web:npm-lint (not run by CI) must stay advisory: %+v", lint)
	}
	if !hasNote(c.Notes, `go-vet is required: the maintainers run it (.github/workflows/ci.yml:8 `+"`go vet ./...`)") {
		t.Errorf("no note says why go-vet is required: %q", c.Notes)
	}
	ci, ok := c.Lookup("ci:test-steps-1")
	if !ok || ci.Source.Origin != cisource.Origin || ci.Source.Line != 6 || c.Default[ci.Name] || ci.Tier != command.Tier2 {
		t.Errorf("the CI test command joins the whitelist, not the default pipeline: %+v (found %v)", ci, ok)
	}
	if _, ok := c.Lookup("ci:test-vet"); ok {
		t.Errorf("a CI command identical to a discovered one is not whitelisted twice")
	}
	if _, err := plan.Make(c, plan.Request{Selection: []plan.Selection{{Command: "go test -race ./..."}}}); err != nil {
		t.Errorf("a model may select the maintainers' command: %v", err)
	}
}

func TestConfigWinsOverCI(t *testing.T) {
	files := goWithWeb()
	files["greenlight.yaml"] = "advisory: [go-vet, ci:test-steps-1]\nrequired: [web:npm-lint]\n"
	c, err := build(t, files, capability.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cmds := commandsByName(c)
	if !cmds["go-vet"].Optional {
		t.Errorf("greenlight.yaml advisory: wins over CI: %+v", cmds["go-vet"])
	}
	if cmds["web:npm-lint"].Optional {
		t.Errorf("greenlight.yaml required: promotes a lint CI does not run: %+v", cmds["web:npm-lint"])
	}
	if !cmds["ci:test-steps-1"].Optional {
		t.Errorf("greenlight.yaml names a CI command like any other: %+v", cmds["ci:test-steps-1"])
	}
}

func TestCIScopeNarrowerStaysAdvisory(t *testing.T) {
	files := map[string]string{}
	for k, v := range pyLinted {
		files[k] = v
	}
	files[".gitlab-ci.yml"] = "lint:\n  script:\n    - mypy typing_tests\n    - ruff check\n"
	c, err := build(t, files, capability.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cmds := commandsByName(c)
	if !cmds["mypy"].Optional {
		t.Errorf("CI runs mypy on typing_tests only; the discovered mypy stays advisory: %+v", cmds["mypy"])
	}
	if cmds["ruff"].Optional {
		t.Errorf("CI runs ruff check on the project: ruff is required: %+v", cmds["ruff"])
	}
}

// cTests is a C library whose only tests are CI's make -C tests, next to
// a package.json without scripts (as uthash).
func cTests() map[string]string {
	return map[string]string{
		"package.json":   `{"name": "lib", "version": "1.0.0"}`,
		"src/lib.h":      "#define X 1\n",
		"tests/Makefile": "all:\n\tcc -o t t.c && ./t\n",
		"tests/t.c":      "int main(void) { return 0; }\n",
		".github/workflows/build.yml": "jobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n" +
			"      - run: make -C tests EXTRA_CFLAGS=\"-Wall\"\n      - run: make -C tests clean ; make -C tests pedantic\n" +
			"      - run: tox -e py\n      - run: docker build .\n",
	}
}

func TestCITestAddedWhereDiscoveryHasNone(t *testing.T) {
	c, err := build(t, cTests(), capability.Options{})
	if err != nil {
		t.Fatal(err)
	}
	p, err := plan.Make(c, plan.Request{})
	if err != nil {
		t.Fatal(err)
	}
	// Discovery plans tests/Makefile as a build of its own (C runtime);
	// CI adds its first test command, and only that one.
	var ci []command.Command
	for _, s := range p.Steps {
		if s.Source.Origin == "ci" {
			ci = append(ci, s)
		}
	}
	if len(ci) != 1 {
		t.Fatalf("want the first CI test command only, got %d CI steps: %+v", len(ci), p.Steps)
	}
	s := ci[0]
	if s.Command != `make -C tests EXTRA_CFLAGS="-Wall"` || s.Phase != command.PhaseTest || s.Optional || s.Workdir != "." ||
		s.Source.File != ".github/workflows/build.yml" || s.Source.Line != 6 || s.Source.Origin != "ci" || s.Network {
		t.Errorf("added CI step: %+v", s)
	}
	if !hasNote(c.Notes, "added the maintainers' test command ci:build-steps-1") || !hasNote(c.Notes, "docker build", "skipped") {
		t.Errorf("notes: %q", c.Notes)
	}
	if tox, ok := c.Lookup("ci:build-steps-3"); !ok || c.Default[tox.Name] {
		t.Errorf("tox needs the network: whitelisted, not added: %+v", tox)
	}
}

func TestCITestNotAddedToConfiguredPipeline(t *testing.T) {
	files := cTests()
	files["greenlight.yaml"] = "steps:\n  - name: unit\n    command: make -C tests\n"
	c, err := build(t, files, capability.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, cmd := range c.Commands {
		if cmd.Source.Origin == cisource.Origin && c.Default[cmd.Name] {
			t.Errorf("%s joined a configured pipeline", cmd.Name)
		}
	}
}

func hasNote(notes []string, parts ...string) bool {
	for _, n := range notes {
		ok := true
		for _, p := range parts {
			ok = ok && strings.Contains(n, p)
		}
		if ok {
			return true
		}
	}
	return false
}

func TestCovers(t *testing.T) {
	for _, tt := range []struct {
		key      string
		ci, disc []string
		want     bool
	}{
		{"go vet", []string{"./..."}, []string{"./..."}, true},
		{"go vet", []string{"-tags", "purego", "./..."}, []string{"./..."}, true},
		{"go vet", []string{"."}, []string{"./..."}, false},
		{"ruff check", nil, []string{"."}, true},
		{"ruff check", []string{"src", "tests"}, []string{"."}, false},
		{"mypy", []string{"typing_tests"}, nil, false},
		{"mypy", []string{"src"}, []string{"src"}, true},
		{"script:lint", []string{"--fix"}, nil, true},
		{"make lint", []string{"extra"}, nil, true},
	} {
		if got := capability.Covers(cisource.Tool{Key: tt.key, Args: tt.ci}, tt.disc); got != tt.want {
			t.Errorf("covers(%s %q, discovered %q) = %v, want %v", tt.key, tt.ci, tt.disc, got, tt.want)
		}
	}
}

// TestCIInstallDoesNotPromoteTheAdvisoryInstall: CI's own `pip install`
// does not make the offline pip-install required: pip-fallback (required)
// decides whether the project is usable, as on tomli.
func TestCIInstallDoesNotPromoteTheAdvisoryInstall(t *testing.T) {
	c, err := build(t, map[string]string{
		"pyproject.toml":       "[project]\nname = \"calc\"\nversion = \"1\"\n[build-system]\nrequires = [\"flit_core\"]\nbuild-backend = \"flit_core.buildapi\"\n",
		"src/calc/__init__.py": "def add(a, b):\n    return a + b\n",
		"tests/test_calc.py":   "import unittest\n",
		".github/workflows/tests.yml": "jobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n" +
			"      - uses: actions/checkout@v4\n      - run: pip install .\n      - run: python -m unittest\n",
	}, capability.Options{})
	if err != nil {
		t.Fatal(err)
	}
	p, err := plan.Make(c, plan.Request{})
	if err != nil {
		t.Fatal(err)
	}
	var saw bool
	for _, s := range p.Steps {
		if s.Name == "pip-install" {
			saw = true
			if !s.Optional {
				t.Errorf("pip-install became required through CI's pip install: %+v (notes %q)", s, c.Notes)
			}
		}
	}
	if !saw {
		t.Fatalf("no pip-install step: %+v", p.Steps)
	}
}

// node-semver's shape: CI runs `npm test --ignore-scripts` and lints in a
// step of its own, so the planned npm-test skips posttest (lint, then
// template-oss-check against a git remote a snapshot does not have); a
// different script or package manager in CI changes nothing.
func TestCIIgnoreScriptsIsAdopted(t *testing.T) {
	// posttest also checks the repository against a template (no lint or
	// network word): discovery alone would keep the hook; CI's line drops it.
	pkg := `{"name":"x","version":"1.0.0","scripts":{"test":"tap","posttest":"npm run lint && template-oss-check","lint":"eslint ."}}`
	workflow := "jobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n" +
		"      - run: npm i --ignore-scripts\n      - run: npm test --ignore-scripts\n      - run: yarn lint --ignore-scripts\n"
	c, err := build(t, map[string]string{"package.json": pkg, "package-lock.json": "{}", "test/a.js": "",
		".github/workflows/ci.yml": workflow}, capability.Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, cmd := range c.Commands {
		got[cmd.Name] = cmd.Command
	}
	if got["npm-test"] != "npm test --ignore-scripts" {
		t.Errorf("npm-test = %q, want the maintainers' `npm test --ignore-scripts` (notes %q)", got["npm-test"], c.Notes)
	}
	if got["npm-lint"] != "npm run lint" {
		t.Errorf("npm-lint = %q: CI lints with yarn, not npm", got["npm-lint"])
	}
	if !strings.Contains(strings.Join(c.Notes, "\n"), "npm-test runs with --ignore-scripts as the maintainers' CI does (.github/workflows/ci.yml:7") {
		t.Errorf("no note names the CI line: %q", c.Notes)
	}
	for _, cmd := range c.Commands {
		if cmd.Source.Origin == "ci" && strings.Contains(cmd.Command, "npm test") {
			t.Errorf("the adopted CI line is whitelisted twice: %+v", cmd)
		}
	}
}
