package detect_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/greenlight-dev/greenlight/services/discovery/internal/detect"
	"github.com/greenlight-dev/greenlight/services/discovery/internal/snapshot"
)

// tree writes files into a temporary directory and indexes it the way the
// service indexes a snapshot.
func tree(t *testing.T, files map[string]string) *snapshot.Index {
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
	return ix
}

// summary is the compact shape each case asserts: root, runtime, package
// manager, frameworks, has-tests.
func summary(r detect.Result) []string {
	var out []string
	for _, sp := range r.Subprojects {
		out = append(out, strings.Join([]string{sp.Root, sp.Runtime, sp.PackageManager, strings.Join(sp.TestFrameworks, "+"), map[bool]string{true: "tests", false: "no-tests"}[sp.HasTests]}, " "))
	}
	return out
}

func TestDetect(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  []string
		notes []string
	}{
		{name: "poetry by lockfile", files: map[string]string{
			"pyproject.toml": "[tool.poetry]\nname = \"p\"\n[tool.poetry.dependencies]\npython = \"^3.11\"\nrequests = \"*\"\n",
			"poetry.lock":    "", "tests/test_a.py": "",
		}, want: []string{". python poetry pytest tests"}},
		{name: "uv", files: map[string]string{"pyproject.toml": "[project]\nname = \"u\"\ndependencies = [\"x\"]\n", "uv.lock": "", "a_test.py": ""},
			want: []string{". python uv pytest tests"}},
		{name: "pipenv", files: map[string]string{"Pipfile": "[packages]\nflask = \"*\"\n[requires]\npython_version = \"3.12\"\n", "app.py": ""},
			want: []string{". python pipenv  no-tests"}},
		{name: "unittest when the project runs it", files: map[string]string{
			"setup.py": "", "Makefile": "test:\n\tpython -m unittest discover\n", "tests/test_x.py": "",
		}, want: []string{". python pip unittest tests"}},
		{name: "pytest by conftest even without test files", files: map[string]string{"requirements.txt": "", "conftest.py": ""},
			want: []string{". python pip pytest no-tests"}},
		{name: "setup.cfg with only tool settings is not a project", files: map[string]string{"setup.cfg": "[flake8]\nmax-line-length = 100\n", "go.mod": "module x\n\ngo 1.22\n"},
			want: []string{". go go  no-tests"}},
		{name: "loose python scripts", files: map[string]string{"tool.py": "print(1)\n", "test_tool.py": ""},
			want: []string{". python pip pytest tests"}},
		{name: "yarn berry and vitest", files: map[string]string{
			"package.json": `{"devDependencies": {"vitest": "1"}, "scripts": {"test": "vitest run"}}`, "yarn.lock": "", ".yarnrc.yml": "",
		}, want: []string{". node yarn vitest tests"}},
		{name: "npm placeholder test is no test", files: map[string]string{
			"package.json": `{"scripts": {"test": "echo \"Error: no test specified\" && exit 1"}}`,
		}, want: []string{". node npm  no-tests"}},
		{name: "mocha by config", files: map[string]string{"package.json": `{}`, ".mocharc.json": "{}", "test/a.spec.js": ""},
			want: []string{". node npm mocha tests"}},
		{name: "workspace members", files: map[string]string{
			"package.json": `{"private": true, "workspaces": ["packages/*"]}`, "package-lock.json": "{}",
			"packages/a/package.json": `{"scripts": {"build": "tsc"}}`, "packages/a/tsconfig.json": "{}",
		}, want: []string{". node npm  no-tests", "packages/a typescript npm  no-tests"}},
		{name: "cargo workspace members are one project", files: map[string]string{
			"Cargo.toml": "[workspace]\nmembers = [\"a\"]\n", "a/Cargo.toml": "[package]\nname = \"a\"\n[dependencies]\nserde = \"1\"\n", "a/tests/it.rs": "",
		}, want: []string{". rust cargo cargo test tests"}},
		{name: "maven modules are one project", files: map[string]string{
			"pom.xml": "<project><modules><module>core</module></modules></project>", "core/pom.xml": "<project/>", "core/src/test/java/T.java": "",
		}, want: []string{". java maven junit tests"}},
		{name: "gradle wrapper", files: map[string]string{
			"build.gradle.kts": "java { toolchain { languageVersion = JavaLanguageVersion.of(17) } }\ndependencies { testImplementation(\"org.junit.jupiter:junit-jupiter:5\") }\n", "gradlew": "",
		}, want: []string{". java gradle junit no-tests"}},
		{name: "ignored directories hold no projects", files: map[string]string{
			"go.mod": "module x\n\ngo 1.22\n", "node_modules/left-pad/package.json": "{}", "testdata/fixture/package.json": "{}",
			".venv/lib/pyproject.toml": "", "vendor/x/go.mod": "module y\n",
		}, want: []string{". go go  no-tests"}},
		{name: "bare Makefile", files: map[string]string{"Makefile": "check:\n\t./run-tests.sh\nall:\n\tsh build.sh\n", "build.sh": ""},
			want: []string{". make make  no-tests"}},
		// Issue 12: a Makefile next to C sources is a C/C++ project built
		// by make; nested Makefiles and CMakeLists.txt are part of it.
		{name: "C Makefile project", files: map[string]string{"Makefile": "check:\n\t./run-tests.sh\nall:\n\tcc main.c\n", "main.c": "",
			"third_party/unity/test/Makefile": "test:\n\tcc t.c\n", "third_party/unity/test/t.c": ""},
			want: []string{". cpp make  tests"}, notes: []string{"third_party/unity/test/Makefile: part of the C/C++ project ."}},
		{name: "CMake project with ctest", files: map[string]string{"CMakeLists.txt": "project(x C)\n", "src/x.c": "",
			"tests/CMakeLists.txt": "ADD_TEST(NAME t COMMAND t)\n", "fuzzing/CMakeLists.txt": "", "tests/unity/test/Makefile": "test:\n\tcc t.c\n", "tests/unity/test/t.c": ""},
			want: []string{". cpp cmake ctest tests"}, notes: []string{"tests/unity/test/Makefile: part of the C/C++ project ."}},
		{name: "clib header library tested by tests/Makefile", files: map[string]string{
			"package.json": `{"name": "uthash", "repo": "troydhanson/uthash", "src": ["src/uthash.h"]}`, "src/uthash.h": "",
			"tests/Makefile": "PROGS = test1\nall: $(PROGS) run_tests\nrun_tests: $(PROGS)\n\tperl ./do_tests\n", "tests/test1.c": ""},
			want: []string{". cpp make  tests"}, notes: []string{"tests/Makefile: the test suite of ., which has no build of its own: `make -C tests` is its test step"}},
		{name: "other runtimes by name", files: map[string]string{"Gemfile": "", "CMakeLists.txt": "", "lib/x.csproj": ""},
			want:  []string{". cpp cmake  no-tests", ". ruby   no-tests", "lib dotnet   no-tests"},
			notes: []string{". : ruby project detected (Gemfile)", "lib: dotnet project detected"}},
		// Helper directories are not subprojects (issue 11).
		{name: "docs, benchmarks and examples are not subprojects", files: map[string]string{
			"go.mod": "module x\n\ngo 1.22\n", "x_test.go": "",
			"docs/requirements.txt": "sphinx\n", "docs/Makefile": "build:\n\tsphinx-build . _build\n",
			"benchmarks/go.mod": "module x/bench\n\ngo 1.22\n", "benchmarks/b_test.go": "",
			"examples/web/package.json": `{"scripts": {"test": "jest"}}`,
		}, want: []string{". go go go test tests"}, notes: []string{"docs: an auxiliary directory", "benchmarks: an auxiliary directory", "examples/web: an auxiliary directory"}},
		{name: "a test-less tools module is not a subproject, one with tests is", files: map[string]string{
			"go.mod": "module x\n\ngo 1.22\n", "x_test.go": "",
			"tools/go.mod": "module x/tools\n\ngo 1.22\n", "tools/tools.go": "package tools\n",
			"sub/go.mod": "module x/sub\n\ngo 1.22\n", "sub/s_test.go": "",
		}, want: []string{". go go go test tests", "sub go go go test tests"}, notes: []string{"tools: helper module without tests"}},
		{name: "a scripts package without tests (a benchmark's native addon) is not a subproject", files: map[string]string{
			"package.json": `{"scripts": {"test": "tap"}}`, "package-lock.json": "{}", "test/a.ts": "",
			"scripts/package.json": `{"dependencies": {"heapdump": "^0.3.15"}}`, "scripts/package-lock.json": "{}", "scripts/build.sh": "",
		}, want: []string{". node npm  tests"}, notes: []string{"scripts: helper module without tests"}},
		{name: "fmt's support/ (doc scripts, an Android build) is not a subproject", files: map[string]string{
			"CMakeLists.txt": "project(fmt)\nenable_testing()\nadd_test(NAME t COMMAND t)\n", "test/CMakeLists.txt": "",
			"support/build.gradle": "apply plugin: 'com.android.library'\n", "support/requirements.txt": "mkdocs\n",
		}, want: []string{". cpp cmake ctest tests"}, notes: []string{"support: helper module without tests"}},
		{name: "tests/requirements.txt is the root's test dependencies", files: map[string]string{
			"setup.py": "", "tests/test_a.py": "", "tests/requirements.txt": "pytest\n",
		}, want: []string{". python pip pytest tests"}, notes: []string{"tests/requirements.txt: test requirements of ."}},
		{name: "requirements/ and test fixtures are not subprojects", files: map[string]string{
			"pyproject.toml": "[project]\nname = \"p\"\n", "p/__init__.py": "", "tests/test_p.py": "",
			"requirements/dev-requirements.txt": "pytest\n", "requirements/docs-requirements.txt": "sphinx\n",
			"tests/fixtures/proj/setup.py": "", "tests/fixtures/proj/pyproject.toml": "[project]\nname = \"f\"\n",
		}, want: []string{". python pip pytest tests"}, notes: []string{"tests/fixtures/proj: an auxiliary directory"}},
		{name: "package manifests below a tests directory are test data", files: map[string]string{
			"package.json": `{"name": "resolve", "scripts": {"test": "tape test/*.js"}}`, "test/resolver.js": "",
			"test/resolver/baz/package.json": `{"main": "quux.js"`, "test/resolver/malformed/package.json": "{",
		}, want: []string{". node npm  tests"}, notes: []string{"test/resolver/baz: an auxiliary directory", "test/resolver/malformed: an auxiliary directory"}},
		{name: "broken go.mod is a problem with a line", files: map[string]string{"go.mod": "module x\n\ngo 1.22\nbogus directive\n"},
			want: []string{". go go  no-tests"}, notes: []string{"go.mod:4: unknown directive: bogus"}},
		{name: "broken pyproject", files: map[string]string{"pyproject.toml": "[project]\nname = \n"},
			want: []string{". python pip  no-tests"}, notes: []string{"pyproject.toml:2: invalid TOML"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := detect.Detect(tree(t, tt.files))
			if err != nil {
				t.Fatal(err)
			}
			if got := summary(res); !slices.Equal(got, tt.want) {
				t.Fatalf("subprojects = %q\nwant          %q", got, tt.want)
			}
			for _, n := range tt.notes {
				n = strings.Replace(n, ". : ", ".: ", 1)
				if !slices.ContainsFunc(res.Notes, func(s string) bool { return strings.Contains(s, n) }) {
					t.Errorf("notes %q lack %q", res.Notes, n)
				}
			}
		})
	}
}

func TestVersionHints(t *testing.T) {
	res, err := detect.Detect(tree(t, map[string]string{
		".tool-versions":      "nodejs 20.11.0\npython 3.12.1\n",
		"web/package.json":    `{"engines": {"node": ">=20"}, "volta": {"node": "20.11.0"}}`,
		"web/.node-version":   "20.10\n",
		"api/pyproject.toml":  "[project]\nname = \"api\"\nrequires-python = \">=3.11\"\n",
		"api/.python-version": "3.12\n",
		"rs/Cargo.toml":       "[package]\nname = \"r\"\n", "rs/rust-toolchain": "stable\n",
	}))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]string{}
	for _, sp := range res.Subprojects {
		for _, v := range sp.Versions {
			got[sp.Root] = append(got[sp.Root], v.Version+"@"+v.Source)
		}
	}
	want := map[string][]string{
		"api": {">=3.11@api/pyproject.toml:project.requires-python", "3.12@api/.python-version", "3.12.1@.tool-versions:python"},
		"rs":  {"stable@rs/rust-toolchain"},
		"web": {"20.10@web/.node-version", ">=20@web/package.json:engines.node", "20.11.0@web/package.json:volta.node", "20.11.0@.tool-versions:nodejs"},
	}
	for root, w := range want {
		if !slices.Equal(got[root], w) {
			t.Errorf("%s versions = %q, want %q", root, got[root], w)
		}
	}
}

func TestParseMakefile(t *testing.T) {
	mf := detect.ParseMakefile("Makefile", []byte("X := 1\nY ?= 2\n.PHONY: test lint\n\nbuild lint: deps\n\tgo build ./...\ntest::\n\tgo test\ndeploy:\n\t./ship\ncheck: ; true\n"))
	want := map[string]int{"build": 5, "lint": 5, "test": 7, "check": 11}
	if len(mf.Targets) != len(want) {
		t.Fatalf("targets = %v, want %v", mf.Targets, want)
	}
	for k, v := range want {
		if mf.Targets[k] != v {
			t.Errorf("target %s at line %d, want %d", k, mf.Targets[k], v)
		}
	}
}

func TestIgnored(t *testing.T) {
	for name, want := range map[string]bool{
		"src/a.go": false, ".nvmrc": false, "web/.nvmrc": false, "node_modules/x/package.json": true,
		".venv/pyvenv.cfg": true, "a/testdata/go.mod": true, ".github/workflows/ci.yml": true, "dist/package.json": true,
	} {
		if got := detect.Ignored(name); got != want {
			t.Errorf("Ignored(%q) = %v, want %v", name, got, want)
		}
	}
}

// TestToxEnvsFromIni: the envlist and testenv sections of tox.ini give
// whole environment names, generative lists expanded (issue 11: "py3{11,12}"
// became "tox -e 12").
func TestToxEnvsFromIni(t *testing.T) {
	res, err := detect.Detect(tree(t, map[string]string{
		"setup.py": "", "tests/test_a.py": "",
		"tox.ini": "[tox]\nenvlist = py3{11,12}, lint\n\n[testenv:py{38,39}-django{40,41}]\ndeps = pytest\n",
	}))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range res.Subprojects[0].Python.ToxEnvs {
		names = append(names, e.Name)
	}
	want := []string{"py311", "py312", "lint", "py38-django40", "py38-django41", "py39-django40", "py39-django41"}
	if !slices.Equal(names, want) {
		t.Errorf("tox envs = %q, want %q", names, want)
	}
}

// TestRequirementFilesOfTheRoot: test and dev requirement files (in the
// root, requirements/ or tests/) are the root project's install; those for
// documentation or benchmarks are not installed at all.
func TestRequirementFilesOfTheRoot(t *testing.T) {
	res, err := detect.Detect(tree(t, map[string]string{
		"setup.py": "", "tests/test_a.py": "",
		"requirements.txt": "six\n", "requirements-test.txt": "pytest\n", "requirements-docs.txt": "sphinx\n",
		"requirements/dev.txt": "black\n", "requirements/docs.txt": "sphinx\n",
		"tests/requirements.txt": "pytest-mock\n", "docs/requirements.txt": "sphinx\n",
	}))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Subprojects) != 1 {
		t.Fatalf("subprojects %q, want the root only", summary(res))
	}
	got := res.Subprojects[0].Python.Requirements
	want := []string{"requirements-test.txt", "requirements.txt", "requirements/dev.txt", "tests/requirements.txt"}
	if !slices.Equal(got, want) {
		t.Errorf("requirements = %q, want %q", got, want)
	}
}

// GOPATH-era Go code: the import path comes from what the maintainers' CI
// used (Travis's go_import_path, AppVeyor's clone folder under a GOPATH)
// or a canonical import comment; without one, no go command is planned.
func TestGopathImportPath(t *testing.T) {
	for _, c := range []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"travis", map[string]string{".travis.yml": "language: go\ngo_import_path: github.com/pkg/errors\n", "errors.go": "package errors\n", "errors_test.go": "package errors\n"}, "github.com/pkg/errors"},
		{"appveyor", map[string]string{"appveyor.yml": "clone_folder: C:\\gopath\\src\\github.com\\pkg\\errors\n", "errors.go": "package errors\n"}, "github.com/pkg/errors"},
		{"import comment", map[string]string{"calc.go": "// Package calc.\npackage calc // import \"example.com/legacy/calc\"\n"}, "example.com/legacy/calc"},
		{"nothing names it", map[string]string{"calc.go": "package calc\n"}, ""},
		{"a path escaping GOPATH is refused", map[string]string{".travis.yml": "go_import_path: example.com/../../etc\n", "calc.go": "package calc\n"}, ""},
		{"not host-qualified", map[string]string{"calc.go": "package calc // import \"calc/x\"\n"}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, err := detect.Detect(tree(t, c.files))
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Subprojects) != 1 || res.Subprojects[0].Runtime != detect.RuntimeGo {
				t.Fatalf("subprojects %v, want one Go subproject", summary(res))
			}
			got := ""
			if g := res.Subprojects[0].Go; g != nil {
				got = g.GopathImport
			}
			if got != c.want {
				t.Fatalf("import path %q, want %q (notes %q)", got, c.want, res.Notes)
			}
		})
	}
}
