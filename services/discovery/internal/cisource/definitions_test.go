package cisource

import (
	"slices"
	"testing"

	"github.com/greenlight-dev/greenlight/services/discovery/internal/command"
)

func TestMakefileTargets(t *testing.T) {
	mk := "GO ?= go\nPKGS := ./...\n\n.PHONY: test check\ncheck: lint test\n\nlint:\n\t@$(GO) vet $(PKGS)\n\ntest:\n\t$(GO) test \\\n\t  -race $(PKGS)\n\ndeploy:\n\tdocker push x\n"
	l := Read(mapTree{"Makefile": mk})
	test := find(t, l, "make test")
	if test.FromCI || test.Phase != command.PhaseTest || test.Source.Line != 10 || test.Source.Key != "target test" || !hasTool(test, "go test", ".") {
		t.Errorf("make test: %+v", test)
	}
	check := find(t, l, "make check")
	if !hasTool(check, "go vet", ".") || !hasTool(check, "go test", ".") || !hasTool(check, "make lint", ".") || hasTool(check, "docker push", ".") {
		t.Errorf("make check follows its prerequisites: %+v", check.Tools)
	}
	for _, tl := range check.Tools {
		if tl.Key == "go vet" && !slices.Equal(tl.Args, []string{"./..."}) {
			t.Errorf("variables substituted: %+v", tl)
		}
	}
}

func TestPackageJSONTest(t *testing.T) {
	pj := "{\n  \"name\": \"x\",\n  \"scripts\": {\n    \"lint\": \"eslint .\",\n    \"pretest\": \"npm run lint\",\n    \"test\": \"tsc --noEmit && vitest run\"\n  }\n}\n"
	l := Read(mapTree{"web/package.json": pj})
	c := find(t, l, "npm test")
	if c.Workdir != "web" || c.Source.Line != 6 || c.Source.Key != "scripts.test" || c.Phase != command.PhaseTest {
		t.Errorf("npm test: %+v", c)
	}
	for _, key := range []string{"script:test", "script:lint", "eslint", "tsc", "vitest"} {
		if !hasTool(c, key, "web") {
			t.Errorf("npm test runs %s (pretest included): %+v", key, c.Tools)
		}
	}
	if l := Read(mapTree{"package.json": `{"scripts": {"test": "echo \"Error: no test specified\" && exit 1"}}`}); len(l.Commands) != 0 {
		t.Errorf("npm's placeholder is no test: %+v", l.Commands)
	}
}

func TestToxDefaultEnvlist(t *testing.T) {
	ini := "[tox]\nenvlist = py3{11,12}, lint\n\n[testenv]\ncommands =\n    pytest {posargs:tests}\n    mypy: mypy src\n\n[testenv:lint]\ncommands = ruff check .\n\n[testenv:docs]\ncommands = sphinx-build docs out\n"
	l := Read(mapTree{"tox.ini": ini})
	c := find(t, l, "tox")
	if c.Source.Line != 2 || c.Source.File != "tox.ini" || c.Phase != command.PhaseTest {
		t.Errorf("tox: %+v", c)
	}
	if !hasTool(c, "pytest", ".") || !hasTool(c, "ruff check", ".") {
		t.Errorf("default envlist commands: %+v", c.Tools)
	}
	if hasTool(c, "sphinx-build", ".") || hasTool(c, "mypy", ".") {
		t.Errorf("docs is not in the envlist and no env has the mypy factor: %+v", c.Tools)
	}
}

func TestToxFromCI(t *testing.T) {
	ini := "[tox]\nenvlist = py\n\n[testenv]\ncommands =\n    tests: pytest\n    mypy: mypy typing_tests\n\n[testenv:lint-ruff]\ncommands = ruff check\n"
	wf := "jobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - run: tox run -e 3.12-mypy\n      - run: tox -f lint\n"
	l := Read(mapTree{"tox.ini": ini, ".github/workflows/t.yml": wf})
	if c := find(t, l, "tox run -e 3.12-mypy"); c.Phase != command.PhaseTypecheck || !hasTool(c, "mypy", ".") || hasTool(c, "pytest", ".") {
		t.Errorf("factor-conditional commands: %+v", c)
	}
	if c := find(t, l, "tox -f lint"); c.Phase != command.PhaseLint {
		t.Errorf("tox -f lint: %+v", c)
	}
}

func TestToxTOML(t *testing.T) {
	py := "[project]\nname = \"x\"\n\n[tool.tox]\nenv_list = [\"py3.12\", \"typing\"]\n\n[tool.tox.env_run_base]\ncommands = [[\"pytest\", \"-v\", { replace = \"posargs\", default = [], extend = true }]]\n\n[tool.tox.env.typing]\ncommands = [[\"mypy\"]]\n"
	l := Read(mapTree{"pyproject.toml": py})
	c := find(t, l, "tox")
	if c.Source.Line != 5 || !hasTool(c, "pytest", ".") || !hasTool(c, "mypy", ".") {
		t.Errorf("[tool.tox]: %+v", c)
	}
}

func TestNoxfile(t *testing.T) {
	nox := "import nox\n\nnox.options.sessions = [\"tests\", \"lint\"]\n\n@nox.session(python=[\"3.12\"])\ndef tests(session):\n    session.install(\".\")\n    session.run(\"pytest\", \"-q\", *session.posargs)\n\n@nox.session(name=\"lint\")\ndef run_lint(session):\n    session.run(\"ruff\", \"check\", \".\")\n\n@nox.session\ndef docs(session):\n    session.run(\"sphinx-build\", \"docs\", \"out\")\n"
	l := Read(mapTree{"noxfile.py": nox})
	c := find(t, l, "nox")
	if c.Source.Line != 5 || !hasTool(c, "pytest", ".") || !hasTool(c, "ruff check", ".") || hasTool(c, "sphinx-build", ".") {
		t.Errorf("nox default sessions: %+v", c)
	}
}

func TestParse(t *testing.T) {
	for in, want := range map[string]string{
		"go vet ./...":                          "go vet",
		"GOFLAGS=-mod=mod go test -race ./...":  "go test",
		".venv/bin/python -m ruff check .":      "ruff check",
		"ruff .":                                "ruff check",
		"uv run --group dev mypy src":           "mypy",
		"poetry run pytest -q":                  "pytest",
		"npx --no tsc --noEmit":                 "tsc",
		"npm test":                              "script:test",
		"npm run lint -- --max-warnings 0":      "script:lint",
		"yarn lint":                             "script:lint",
		"yarn":                                  "yarn install",
		"pnpm install --frozen-lockfile":        "pnpm install",
		"bun test":                              "bun test",
		"make -C tests EXTRA=1":                 "make",
		"make -j4 check":                        "make check",
		"coverage run -m pytest":                "pytest",
		"python3 -m unittest discover -v":       "unittest",
		"./node_modules/.bin/eslint src":        "eslint",
		"timeout 60 go test ./...":              "go test",
		"cargo clippy --all-targets -- -D warn": "cargo clippy",
	} {
		inv, ok := Parse(in)
		if !ok || inv.Key != want {
			t.Errorf("Parse(%q).Key = %q, want %q", in, inv.Key, want)
		}
	}
	if inv, _ := Parse("make -C tests EXTRA=1"); inv.Dir != "tests" {
		t.Errorf("make -C: dir %q", inv.Dir)
	}
	if inv, _ := Parse("npm --prefix web run lint"); inv.Dir != "web" || inv.Key != "script:lint" {
		t.Errorf("npm --prefix: %+v", inv)
	}
}

func TestSplitParts(t *testing.T) {
	got := splitParts(`(cd a && go test ./...) || echo "x && y" ; make $(echo t) | tee out`)
	want := []string{"cd a", "go test ./...", `echo "x && y"`, "make $(echo t)", "tee out"}
	if !slices.Equal(got, want) {
		t.Errorf("splitParts = %q, want %q", got, want)
	}
}

func TestUnclassifiedScriptStillCounts(t *testing.T) {
	pj := `{"scripts": {"ci-all": "eslint . && node --test"}}`
	wf := "jobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - run: npm run ci-all\n"
	l := Read(mapTree{"package.json": pj, ".github/workflows/t.yml": wf})
	if c := find(t, l, "npm run ci-all"); !hasTool(c, "eslint", ".") {
		t.Errorf("a script whose name says nothing still runs eslint: %+v", c)
	}
}
