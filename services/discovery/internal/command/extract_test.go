package command_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/greenlight-dev/greenlight/pkg/pylaunch"
	"github.com/greenlight-dev/greenlight/services/discovery/internal/command"
	"github.com/greenlight-dev/greenlight/services/discovery/internal/detect"
	"github.com/greenlight-dev/greenlight/services/discovery/internal/snapshot"
)

// extract writes a tree, detects it and extracts every subproject's
// commands, rendered as "name|tier|command" lines.
func extract(t *testing.T, files map[string]string) ([]string, []string, []command.Command) {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ix, err := snapshot.FromFS(os.DirFS(dir), detect.WantContent, snapshot.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := detect.Detect(ix)
	if err != nil {
		t.Fatal(err)
	}
	var lines, notes []string
	var all []command.Command
	for _, sp := range res.Subprojects {
		ex := command.Extract(sp)
		for _, c := range ex.Commands {
			// The launcher's code reads as the `python -m TOOL` it runs
			// (pylaunch's own tests run it).
			lines = append(lines, c.Name+"|"+c.Tier.String()+"|"+pylaunch.Readable(c.Command))
		}
		all = append(all, ex.Commands...)
		notes = append(notes, ex.Notes...)
	}
	return lines, notes, all
}

func TestExtract(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  []string
		notes []string
	}{
		{name: "poetry", files: map[string]string{
			"pyproject.toml": "[tool.poetry]\nname = \"p\"\n[tool.poetry.dependencies]\npython = \"^3.11\"\nx = \"*\"\n", "poetry.lock": "", "tests/test_a.py": "",
		}, want: []string{
			"poetry-install|tier0|poetry install --no-interaction",
			"compileall|tier0|poetry run python -P -m compileall -q -x '(^|/)(\\.venv|\\.tox|\\.nox|node_modules)/' .",
			"pytest|tier0|poetry run python -m pytest -rA --junitxml=/tmp/greenlight/reports/pytest.xml",
		}},
		{name: "uv and pipenv", files: map[string]string{
			"a/pyproject.toml": "[project]\nname = \"a\"\ndependencies = [\"x\"]\n", "a/uv.lock": "",
			"b/Pipfile": "[packages]\nx = \"*\"\n", "b/Pipfile.lock": "{}",
		}, notes: []string{"a: uv.lock: installed with pip into .venv"}, want: []string{
			"a:" + pipProject("-e ."), "a:pip-fallback",
			"a:compileall|tier0|.venv/bin/python -P -m compileall -q -x '(^|/)(\\.venv|\\.tox|\\.nox|node_modules)/' .",
			"b:pipenv-install|tier0|pipenv install --dev --deploy",
			"b:compileall|tier0|pipenv run python -P -m compileall -q -x '(^|/)(\\.venv|\\.tox|\\.nox|node_modules)/' .",
		}},
		{name: "unittest with a non-package tests dir", files: map[string]string{
			"setup.py": "", "tox.ini": "[testenv]\ncommands = python -m unittest\n", "tests/test_x.py": "",
		}, want: []string{
			pipProject("-e ."), "pip-fallback",
			"compileall|tier0|.venv/bin/python -P -m compileall -q -x '(^|/)(\\.venv|\\.tox|\\.nox|node_modules)/' .",
			"unittest|tier0|.venv/bin/python -m unittest discover -v -s tests",
		}},
		{name: "unittest starts where the test files are (typing_extensions' src/)", files: map[string]string{
			"pyproject.toml":           "[build-system]\nrequires = [\"flit_core\"]\nbuild-backend = \"flit_core.buildapi\"\n[project]\nname = \"typing_extensions\"\n",
			"tox.ini":                  "[testenv]\nchangedir = src\ncommands = python -m unittest discover\n",
			"src/typing_extensions.py": "", "src/test_typing_extensions.py": "",
		}, want: []string{
			pipProject("-e ."), "pip-fallback",
			"compileall|tier0|.venv/bin/python -P -m compileall -q -x '(^|/)(\\.venv|\\.tox|\\.nox|node_modules)/' .",
			"unittest|tier0|.venv/bin/python -m unittest discover -v -s src",
		}},
		{name: "a CMake option that builds the tests is turned on", files: map[string]string{
			"CMakeLists.txt": "project(y C)\noption(Y_BUILD_TESTS \"Build all tests\" OFF)\noption(Y_ENABLE_VALGRIND \"v\" OFF)\n" +
				"if(Y_BUILD_TESTS)\n  enable_testing()\n  add_test(NAME t COMMAND t)\nendif()\n", "src/y.c": "",
		}, want: []string{
			"cmake-configure|tier0|cmake -S . -B .greenlight-build -DY_BUILD_TESTS=ON",
			"cmake-build|tier0|cmake --build .greenlight-build --parallel 2",
			"ctest|tier0|ctest --test-dir .greenlight-build --output-on-failure",
		}},
		// PEP 735: the test groups' requirements (include-group followed)
		// go to pip as such (the image's pip has no --group); docs do not.
		{name: "dependency groups that name tests", files: map[string]string{
			"pyproject.toml": "[build-system]\nrequires = [\"hatchling\"]\nbuild-backend = \"hatchling.build\"\n[project]\nname = \"g\"\n" +
				"[dependency-groups]\ntest = [\"pytest>=8\", {include-group = \"typing\"}]\ntyping = [\"mypy\"]\ndocs = [\"sphinx\"]\n",
			"g/__init__.py": "", "tests/test_g.py": "",
		}, want: []string{
			pipProject("'pytest>=8' mypy -e ."), "pip-fallback",
			"compileall|tier0|.venv/bin/python -P -m compileall -q -x '(^|/)(\\.venv|\\.tox|\\.nox|node_modules)/' .",
			"pytest|tier0|.venv/bin/python -m pytest -rA --junitxml=/tmp/greenlight/reports/pytest.xml",
			"import-g|tier1|.venv/bin/python -c 'import g'",
		}},
		// setup.py is code: its extras_require keys that name tests are
		// found by pattern, and the project is installed with them.
		{name: "setup.py with a test extra", files: map[string]string{
			"setup.py":        "from setuptools import setup\nsetup(name='s', extras_require={\n    'test': ['pytest'],\n    'docs': ['sphinx'],\n})\n",
			"tests/test_s.py": "",
		}, want: []string{
			pipProject("-e '.[test]'"), "pip-fallback",
			"compileall|tier0|.venv/bin/python -P -m compileall -q -x '(^|/)(\\.venv|\\.tox|\\.nox|node_modules)/' .",
			"pytest|tier0|.venv/bin/python -m pytest -rA --junitxml=/tmp/greenlight/reports/pytest.xml",
		}},
		{name: "src layout smoke and a bad entry point", files: map[string]string{
			"pyproject.toml":    "[project]\nname = \"s\"\n[project.scripts]\nok = \"s.cli:main\"\nbad = \"s.cli:main; rm -rf /\"\n",
			"src/s/__init__.py": "", "src/s/cli.py": "",
		}, want: []string{
			pipProject("-e ."), "pip-fallback",
			"compileall|tier0|.venv/bin/python -P -m compileall -q -x '(^|/)(\\.venv|\\.tox|\\.nox|node_modules)/' .",
			"import-s|tier0|.venv/bin/python -c 'import s'",
			`cli-ok-help|tier0|.venv/bin/python -c 'import sys; from s.cli import main; sys.argv = ["ok", "--help"]; sys.exit(main())'`,
		}, notes: []string{`entry point "bad" skipped`, "no Python tests found"}},
		{name: "yarn classic, bun, scripts by role", files: map[string]string{
			"a/package.json": `{"scripts": {"test": "jest", "test:unit": "jest unit", "test:watch": "jest --watch", "lint": "eslint .", "format:check": "prettier -c .", "dev": "vite", "e2e": "playwright test", "lint:my files": "x"}, "dependencies": {"x": "1"}}`,
			"a/yarn.lock":    "",
			"b/package.json": `{"scripts": {"build": "bun build ./index.ts"}, "dependencies": {"y": "1"}}`, "b/bun.lockb": "",
		}, want: []string{
			"a:yarn-install|tier0|yarn install --frozen-lockfile",
			"a:yarn-e2e|tier2|yarn run e2e",
			"a:yarn-format-check|tier1|yarn run format:check",
			"a:yarn-lint|tier0|yarn run lint",
			"a:yarn-test|tier0|yarn test",
			"a:yarn-test-unit|tier1|yarn run test:unit",
			"b:bun-install|tier0|bun install --frozen-lockfile",
			"b:bun-build|tier0|bun run build",
		}, notes: []string{`script "lint:my files" skipped`}},
		{name: "workspace child installs through the root", files: map[string]string{
			"package.json": `{"workspaces": ["pkg/*"]}`, "pnpm-lock.yaml": "", "pnpm-workspace.yaml": "",
			"pkg/a/package.json": `{"scripts": {"test": "vitest run"}, "devDependencies": {"vitest": "1"}}`,
		}, want: []string{
			"pnpm-install|tier0|pnpm install --frozen-lockfile",
			"pkg/a:pnpm-test|tier0|pnpm test",
		}, notes: []string{"pkg/a: dependencies are installed by the workspace root ."}},
		{name: "node without scripts falls back to a syntax check", files: map[string]string{
			"package.json": `{"main": "lib/main.js"}`, "lib/main.js": "",
		}, want: []string{"node-check|tier0|node --check lib/main.js"}},
		{name: "tsconfig without typescript", files: map[string]string{"package.json": `{}`, "tsconfig.json": "{}"},
			want: nil, notes: []string{"typescript is not a dependency"}},
		{name: "go with dependencies", files: map[string]string{
			"go.mod": "module x\n\ngo 1.22\n\nrequire example.com/y v1.0.0\n", "go.sum": "", "x_test.go": "",
		}, want: []string{
			"go-mod-download|tier0|go mod download", "go-build|tier0|go build ./...", "go-vet|tier0|go vet ./...", "go-test|tier0|mkdir -p /tmp/greenlight/reports && rm -f /tmp/greenlight/reports/go-test.rc && { go test -json ./...; echo $? >/tmp/greenlight/reports/go-test.rc; } | tee /tmp/greenlight/reports/go-test.jsonl; exit \"$(cat /tmp/greenlight/reports/go-test.rc 2>/dev/null || echo 1)\"",
		}},
		{name: "vendored go needs no download", files: map[string]string{
			"go.mod": "module x\n\ngo 1.22\n\nrequire example.com/y v1.0.0\n", "vendor/modules.txt": "",
		}, want: []string{"go-build|tier0|go build ./...", "go-vet|tier0|go vet ./..."}},
		{name: "makefile test is promoted when nothing else tests", files: map[string]string{
			"pyproject.toml": "[project]\nname = \"m\"\n", "Makefile": "test:\n\t./scripts/test.sh\nlint:\n\truff .\n",
		}, want: []string{
			"compileall|tier0|python3 -P -m compileall -q -x '(^|/)(\\.venv|\\.tox|\\.nox|node_modules)/' .",
			"make-lint|tier1|make lint", "make-test|tier0|make test",
		}},
		{name: "bare makefile is tier0", files: map[string]string{"Makefile": "check:\n\t./t.sh\nintegration:\n\t./it.sh\n"},
			want: []string{"make-check|tier0|make check", "make-integration|tier2|make integration"}},
		{name: "gradle", files: map[string]string{"build.gradle": "", "gradlew": "", "src/test/java/T.java": ""},
			want: []string{
				"gradle-dependencies|tier0|./gradlew --no-daemon dependencies", "gradle-assemble|tier0|./gradlew --no-daemon --offline assemble",
				"gradle-test|tier0|./gradlew --no-daemon --offline test",
			}},
		{name: "rust workspace root", files: map[string]string{"Cargo.toml": "[package]\nname = \"r\"\n[workspace]\nmembers = [\"m\"]\n", "m/Cargo.toml": "[package]\nname = \"m\"\n"},
			want: []string{"cargo-build|tier0|cargo build --workspace", "cargo-test|tier0|cargo test --workspace"}},
		{name: "rust with dependencies", files: map[string]string{"Cargo.toml": "[package]\nname = \"r\"\n[dependencies]\nserde = \"1\"\n", "Cargo.lock": ""},
			want: []string{"cargo-fetch|tier0|cargo fetch", "cargo-build|tier0|cargo build", "cargo-test|tier0|cargo test"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, notes, _ := extract(t, tt.files)
			got = shortFallback(got)
			if !slices.Equal(got, tt.want) {
				t.Fatalf("commands:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(tt.want, "\n  "))
			}
			for _, n := range tt.notes {
				if !slices.ContainsFunc(notes, func(s string) bool { return strings.Contains(s, n) }) {
					t.Errorf("notes %q lack %q", notes, n)
				}
			}
		})
	}
}

func TestExtractedCommandShape(t *testing.T) {
	_, _, cmds := extract(t, map[string]string{
		"web/package.json": `{"scripts": {"lint": "eslint ."}, "devDependencies": {"eslint": "9"}}`, "web/package-lock.json": "{}",
	})
	install, lint := cmds[0], cmds[1]
	if !install.Network || install.Phase != command.PhaseInstall || install.Workdir != "web" ||
		!slices.Equal(install.CacheKeyFiles, []string{"web/package-lock.json", "web/package.json"}) || !slices.Equal(install.CachePaths, []string{"node_modules"}) {
		t.Fatalf("install = %+v", install)
	}
	if lint.Network || lint.Level != command.LevelL2 || !lint.ContinueOnFailure || lint.Source.Line != 1 || lint.Source.Key != "scripts.lint" || lint.Subproject != "web" {
		t.Fatalf("lint = %+v", lint)
	}
}

// pipProject is the pip-install line of a project installed with args.
func pipProject(args string) string {
	return "pip-install|tier0|python3 -P -m venv --system-site-packages .venv && rm -f .venv/greenlight-installed && { { " +
		".venv/bin/python -P -m pip install --no-build-isolation " + args + " || .venv/bin/python -P -m pip install " + args +
		"; }; echo $? >.venv/greenlight-pip.rc; } 2>&1 | tee .venv/greenlight-pip.log && [ \"$(cat .venv/greenlight-pip.rc)\" = 0 ] && touch .venv/greenlight-installed"
}

// shortFallback names the pip-fallback step without its script (which
// TestPipFallback and the integration tests check).
func shortFallback(lines []string) []string {
	out := slices.Clone(lines)
	for i, l := range out {
		if prefix, _, ok := strings.Cut(l, "pip-fallback|"); ok {
			out[i] = prefix + "pip-fallback"
		}
	}
	return out
}

// Java test steps name their JUnit XML reports as file-name patterns: the
// Surefire directory of the project and of each <module> (in a subproject
// directory, under its absolute sandbox path), Gradle's test-results.
func TestJavaReportFiles(t *testing.T) {
	_, _, cmds := extract(t, map[string]string{
		"svc/pom.xml":                   "<project><modules><module>core</module><module> api </module><module>../x</module></modules></project>",
		"svc/core/src/test/java/T.java": "",
		"app/build.gradle":              "", "app/src/test/java/T.java": "",
	})
	got := map[string][]string{}
	for _, c := range cmds {
		got[c.Name] = c.ReportFiles
	}
	want := map[string][]string{
		"svc:mvn-test": {"/workspace/svc/target/surefire-reports/TEST-*.xml", "/workspace/svc/core/target/surefire-reports/TEST-*.xml",
			"/workspace/svc/api/target/surefire-reports/TEST-*.xml"},
		"app:gradle-test": {"/workspace/app/build/test-results/test/TEST-*.xml"},
	}
	for name, w := range want {
		if !slices.Equal(got[name], w) {
			t.Errorf("%s report files = %q, want %q", name, got[name], w)
		}
	}
}
