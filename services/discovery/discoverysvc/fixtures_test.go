package discoverysvc

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/greenlight-dev/greenlight/pkg/pylaunch"
	"github.com/greenlight-dev/greenlight/services/discovery/internal/capability"
	"github.com/greenlight-dev/greenlight/services/discovery/internal/plan"
)

// TestFixtures states, per fixture, the subprojects (root runtime package
// manager [frameworks]) and the default pipeline as "name: command" lines.
// The golden files hold the complete output; this table is the part a
// reviewer reads first.
func TestFixtures(t *testing.T) {
	// goTest is the default Go test step: go test -json teed into a report file.
	const goTest = `mkdir -p /tmp/greenlight/reports && rm -f /tmp/greenlight/reports/go-test.rc && { go test -json ./...; echo $? >/tmp/greenlight/reports/go-test.rc; } | tee /tmp/greenlight/reports/go-test.jsonl; exit "$(cat /tmp/greenlight/reports/go-test.rc 2>/dev/null || echo 1)"`
	const compileall = `python3 -P -m compileall -q -x '(^|/)(\.venv|\.tox|\.nox|node_modules)/' .`
	tests := []struct {
		fixture     string
		subprojects []string
		steps       []string
		maxLevel    string
	}{
		{"go-module", []string{". go go [go test]"},
			[]string{"go-build: go build ./...", "go-vet: go vet ./...", "go-test: " + goTest}, "L4"},
		{"python-pytest", []string{". python pip [pytest]"},
			[]string{"compileall: " + compileall, "pytest: python3 -m pytest -rA --junitxml=/tmp/greenlight/reports/pytest.xml"}, "L4"},
		{"python-failing", []string{". python pip [pytest]"},
			[]string{"compileall: " + compileall, "pytest: python3 -m pytest -rA --junitxml=/tmp/greenlight/reports/pytest.xml"}, "L4"},
		{"python-notests", []string{". python pip []"},
			[]string{"compileall: " + compileall, "import-greeter: python3 -c 'import greeter'",
				`cli-greeter-help: python3 -c 'import sys; from greeter.cli import main; sys.argv = ["greeter", "--help"]; sys.exit(main())'`}, "L3"},
		{"python-tools", []string{". python pip [pytest]"},
			[]string{pipInstall("-r requirements-dev.txt pytest -e '.[dev]'"), "pip-fallback",
				"compileall: .venv/bin/python" + strings.TrimPrefix(compileall, "python3"), "mypy: .venv/bin/python -m mypy .",
				"ruff: .venv/bin/python -m ruff check .", "pytest: .venv/bin/python -m pytest -rA --junitxml=/tmp/greenlight/reports/pytest.xml"}, "L4"},
		{"python-ci-typecheck", []string{". python pip [pytest]"},
			[]string{pipInstall("-e '.[tests]'"), "pip-fallback",
				"compileall: .venv/bin/python" + strings.TrimPrefix(compileall, "python3"), "mypy: .venv/bin/python -m mypy",
				"pytest: .venv/bin/python -m pytest -rA --junitxml=/tmp/greenlight/reports/pytest.xml"}, "L4"},
		{"node-jest", []string{". node npm [jest]"},
			[]string{"npm-install: npm ci --no-audit --no-fund", "npm-lint: npm run lint", "npm-test: npm test"}, "L4"},
		{"node-test", []string{". node npm [node:test]"},
			[]string{"npm-build: npm run build", "npm-test: npm test"}, "L4"},
		{"typescript", []string{". typescript pnpm []"},
			[]string{"pnpm-install: pnpm install --frozen-lockfile", "pnpm-build: pnpm run build", "tsc: npx --no tsc --noEmit", "pnpm-lint: pnpm run lint"}, "L3"},
		{"rust-crate", []string{". rust cargo [cargo test]"},
			[]string{"cargo-build: cargo build", "cargo-test: cargo test"}, "L4"},
		{"maven", []string{". java maven [junit]"},
			[]string{"mvn-dependencies: mvn -B -q -Dmaven.main.skip -Dmaven.test.skip=true test-compile", "mvn-compile: mvn -B -q test-compile", "mvn-test: mvn -B test"}, "L4"},
		{"monorepo", []string{". go go [go test]", "web node npm [node:test]"},
			[]string{"go-build: go build ./...", "web:npm-build: npm run build", "go-vet: go vet ./...", "go-test: " + goTest, "web:npm-test: npm test"}, "L4"},
		{"greenlight-yaml", []string{". python pip [pytest]"},
			[]string{"compile: python3 -P -m compileall -q app", "unit: python3 -m pytest -q tests"}, "L4"},
		{"agent-yaml", []string{". typescript npm [vitest]"},
			[]string{"install: npm ci", "typecheck: npm run typecheck", "lint: npm run lint", "build: npm run build", "test: npm test"}, "L4"},
		{"runr-config", []string{". node pnpm [node:test]"},
			[]string{"pnpm-lint: pnpm lint", "pnpm-build: pnpm build"}, "L3"},
		// A nested module with tests is tested; benchmark/ and examples/ are
		// helpers of the root, not subprojects.
		{"go-nested", []string{". go go [go test]", "tools go go [go test]"},
			[]string{"go-build: go build ./...", "tools:go-build: go build ./...", "go-vet: go vet ./...", "tools:go-vet: go vet ./...",
				"go-test: " + goTest, "tools:go-test: " + goTest}, "L4"},
		// Each nested module is tested in its own workdir and failure scope.
		{"go-nested-failing", []string{". go go [go test]", "alpha go go [go test]", "beta go go [go test]"},
			[]string{"go-build: go build ./...", "alpha:go-build: go build ./...", "beta:go-build: go build ./...",
				"go-vet: go vet ./...", "alpha:go-vet: go vet ./...", "beta:go-vet: go vet ./...",
				"go-test: " + goTest, "alpha:go-test: " + goTest, "beta:go-test: " + goTest}, "L4"},
		// src layout: the project itself is installed with its test extra;
		// tests/requirements.txt joins that install, docs/ and
		// requirements-docs.txt do not; tox's envlist is expanded.
		{"python-src-layout", []string{". python pip [pytest]"},
			[]string{pipInstall("-r tests/requirements.txt -e '.[test]'"), "pip-fallback",
				"compileall: .venv/bin/python" + strings.TrimPrefix(compileall, "python3"), "pytest: .venv/bin/python -m pytest -rA --junitxml=/tmp/greenlight/reports/pytest.xml"}, "L4"},
		// flit_core is not in the image: pip-install (advisory) may fail,
		// pip-fallback decides, the tests import src/ (PYTHONPATH=src).
		{"python-flit-src", []string{". python pip [pytest]"},
			[]string{pipInstall("-e '.[test]'"), "pip-fallback",
				"compileall: .venv/bin/python" + strings.TrimPrefix(compileall, "python3"), "pytest: .venv/bin/python -m pytest -rA --junitxml=/tmp/greenlight/reports/pytest.xml"}, "L4"},
		{"python-flit-src-failing", []string{". python pip [pytest]"},
			[]string{pipInstall("-e '.[test]'"), "pip-fallback",
				"compileall: .venv/bin/python" + strings.TrimPrefix(compileall, "python3"), "pytest: .venv/bin/python -m pytest -rA --junitxml=/tmp/greenlight/reports/pytest.xml"}, "L4"},
		{"python-pep639", []string{". python pip [pytest]"},
			[]string{pipInstall("-e ."), "pip-fallback",
				"compileall: .venv/bin/python" + strings.TrimPrefix(compileall, "python3"), "pytest: .venv/bin/python -m pytest -rA --junitxml=/tmp/greenlight/reports/pytest.xml"}, "L4"},
		// Only unittest is used: unittest discovery, not pytest.
		{"python-unittest", []string{". python pip [unittest]"},
			[]string{pipInstall("-e ."), "pip-fallback",
				"compileall: .venv/bin/python" + strings.TrimPrefix(compileall, "python3"), "unittest: .venv/bin/python -m unittest discover -v"}, "L4"},
		// uv.lock: the pip equivalent (uv is not in the image), with the
		// dependency groups that name tests (dev includes tests).
		{"python-uv", []string{". python uv [pytest]"},
			[]string{pipInstall("pytest ruff -e ."), "pip-fallback",
				"compileall: .venv/bin/python" + strings.TrimPrefix(compileall, "python3"), "pytest: .venv/bin/python -m pytest -rA --junitxml=/tmp/greenlight/reports/pytest.xml"}, "L4"},
		// No go.mod: reported as Go (Go image), its Makefile targets run.
		{"go-gopath", []string{". go make []"},
			[]string{"make-test: make test"}, "L4"},
		// No go.mod, an import comment: go commands in GOPATH mode with
		// the workspace linked at its import path.
		{"go-gopath-import", []string{". go go [go test]"},
			[]string{"go-build: " + gopathLink + "go build ./...", "go-vet: " + gopathLink + "go vet ./...",
				"go-test: " + gopathLink + "mkdir -p /tmp/greenlight/reports && rm -f /tmp/greenlight/reports/go-test.rc && " +
					"{ go test -vet=off -json ./...; echo $? >/tmp/greenlight/reports/go-test.rc; } | tee /tmp/greenlight/reports/go-test.jsonl; " +
					`exit "$(cat /tmp/greenlight/reports/go-test.rc 2>/dev/null || echo 1)"`}, "L4"},
		// The CI runs go vet: go-vet is planned as a required step (the
		// table shows steps; grpc_test checks required and sources).
		{"ci-workflow", []string{". go go [go test]"},
			[]string{"go-build: go build ./...", "go-vet: go vet ./...", "go-test: " + goTest}, "L4"},
		// The lockfile names the package manager; its scripts run with it
		// (bun's `bun test` is its own runner, so bun always says `run`).
		{"node-pnpm", []string{". node pnpm [node:test]"},
			[]string{"pnpm-install: pnpm install --frozen-lockfile", "pnpm-lint: pnpm run lint", "pnpm-test: pnpm test"}, "L4"},
		{"node-yarn", []string{". node yarn [mocha]"},
			[]string{"yarn-install: yarn install --frozen-lockfile", "yarn-build: yarn run build", "yarn-test: yarn test"}, "L4"},
		{"node-yarn-berry", []string{". node yarn [vitest]"},
			[]string{"yarn-install: yarn install --immutable", "yarn-test: yarn test"}, "L4"},
		{"node-bun", []string{". node bun []"},
			[]string{"bun-install: bun install --frozen-lockfile", "bun-test: bun run test"}, "L4"},
		// Workspaces: one install at the root; each member with a test
		// script is tested in its own directory, unless the root's test
		// script runs them all (pnpm -r test).
		{"node-npm-workspaces", []string{". node npm []", "packages/bad node npm [node:test]", "packages/good node npm [node:test]"},
			[]string{"npm-install: npm ci --no-audit --no-fund", "packages/bad:npm-test: npm test", "packages/good:npm-test: npm test"}, "L4"},
		{"node-pnpm-workspace", []string{". node pnpm []", "packages/a node pnpm [node:test]", "packages/b node pnpm [node:test]"},
			[]string{"pnpm-install: pnpm install --frozen-lockfile", "pnpm-test: pnpm test"}, "L4"},
		{"empty", nil, nil, "unspecified"},
		// Issue 12: shell steps of no runtime run in the generic image; C
		// and C++ plan make, CMake and ctest in the C/C++ image; each
		// subproject of a polyglot repository runs in its own runtime.
		{"agent-yaml-shell", nil, []string{"build: sh build.sh", "test: sh test.sh"}, "L4"},
		{"c-make", []string{". cpp make []"}, []string{"make: make", "make-test: make test"}, "L4"},
		{"cmake-ctest", []string{". cpp cmake [ctest]"},
			[]string{"cmake-configure: cmake -S . -B .greenlight-build", "cmake-build: cmake --build .greenlight-build --parallel 2",
				"ctest: ctest --test-dir .greenlight-build --output-on-failure"}, "L4"},
		{"c-header-tests", []string{". cpp make []"}, []string{"make-tests: make -C tests"}, "L4"},
		{"polyglot", []string{"api go go [go test]", "engine rust cargo [cargo test]", "native cpp make []", "py python pip [pytest]", "web node npm [node:test]"},
			[]string{"api:go-build: go build ./...", "engine:cargo-build: cargo build", "native:make: make",
				"py:compileall: python3 -P -m compileall -q -x '(^|/)(\\.venv|\\.tox|\\.nox|node_modules)/' .",
				"api:go-vet: go vet ./...", "api:go-test: " + goTest, "engine:cargo-test: cargo test", "native:make-test: make test",
				"py:pytest: python3 -m pytest -rA --junitxml=/tmp/greenlight/reports/py_pytest.xml", "web:npm-test: npm test"}, "L4"},
		{"malformed-package-json", []string{". node npm []"},
			[]string{`package-json: node -e 'JSON.parse(require("fs").readFileSync("package.json", "utf8"))'`}, "L3"},
	}
	seen := map[string]bool{}
	for _, tt := range tests {
		seen[tt.fixture] = true
		t.Run(tt.fixture, func(t *testing.T) {
			caps := discoverDir(t, filepath.Join(reposDir, tt.fixture), capability.Options{})
			var sps []string
			for _, sp := range caps.Subprojects {
				sps = append(sps, sp.Root+" "+sp.Runtime+" "+sp.PackageManager+" ["+strings.Join(sp.TestFrameworks, ",")+"]")
			}
			if !slices.Equal(sps, tt.subprojects) {
				t.Errorf("subprojects = %q\nwant          %q", sps, tt.subprojects)
			}
			p, err := plan.Make(caps, plan.Request{Security: plan.SecurityOff}) // scans: security_test.go
			if err != nil {
				t.Fatal(err)
			}
			var steps []string
			for _, s := range p.Steps {
				if strings.HasSuffix(s.Name, "pip-fallback") {
					steps = append(steps, s.Name) // its script: TestGolden, the integration tests
					continue
				}
				// The launcher reads as the `python -m TOOL` it runs.
				steps = append(steps, s.Name+": "+pylaunch.Readable(s.Command))
			}
			if !slices.Equal(steps, tt.steps) {
				t.Errorf("steps:\n  %s\nwant:\n  %s", strings.Join(steps, "\n  "), strings.Join(tt.steps, "\n  "))
			}
			if p.MaxLevel.String() != tt.maxLevel {
				t.Errorf("max level = %v, want %s", p.MaxLevel, tt.maxLevel)
			}
		})
	}
	for _, f := range fixtures(t) {
		if !seen[f] {
			t.Errorf("fixture %s has no row in this table", f)
		}
	}
}

// pipInstall is the pip-install step of a project installed with args.
func pipInstall(args string) string {
	return "pip-install: python3 -P -m venv --system-site-packages .venv && rm -f .venv/greenlight-installed && { { " +
		".venv/bin/python -P -m pip install --no-build-isolation " + args + " || .venv/bin/python -P -m pip install " + args +
		"; }; echo $? >.venv/greenlight-pip.rc; } 2>&1 | tee .venv/greenlight-pip.log && [ \"$(cat .venv/greenlight-pip.rc)\" = 0 ] && touch .venv/greenlight-installed"
}

// gopathLink is how a GOPATH-mode step puts the workspace at its import path.
const gopathLink = `mkdir -p /tmp/gopath/src/example.com/legacy && ln -sfn "$PWD" /tmp/gopath/src/example.com/legacy/calc && cd /tmp/gopath/src/example.com/legacy/calc && `
