package discoverysvc

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/greenlight-dev/greenlight/services/discovery/internal/capability"
	"github.com/greenlight-dev/greenlight/services/discovery/internal/plan"
)

// TestFixtures states, per fixture, the subprojects (root runtime package
// manager [frameworks]) and the default pipeline as "name: command" lines.
// The golden files hold the complete output; this table is the part a
// reviewer reads first.
func TestFixtures(t *testing.T) {
	const compileall = `python3 -m compileall -q -x '(^|/)(\.venv|\.tox|\.nox|node_modules)/' .`
	tests := []struct {
		fixture     string
		subprojects []string
		steps       []string
		maxLevel    string
	}{
		{"go-module", []string{". go go [go test]"},
			[]string{"go-build: go build ./...", "go-vet: go vet ./...", "go-test: go test -json ./..."}, "L4"},
		{"python-pytest", []string{". python pip [pytest]"},
			[]string{"compileall: " + compileall, "pytest: python3 -m pytest -rA --junitxml=/tmp/greenlight/reports/pytest.xml"}, "L4"},
		{"python-failing", []string{". python pip [pytest]"},
			[]string{"compileall: " + compileall, "pytest: python3 -m pytest -rA --junitxml=/tmp/greenlight/reports/pytest.xml"}, "L4"},
		{"python-notests", []string{". python pip []"},
			[]string{"compileall: " + compileall, "import-greeter: python3 -c 'import greeter'",
				`cli-greeter-help: python3 -c 'import sys; from greeter.cli import main; sys.argv = ["greeter", "--help"]; sys.exit(main())'`}, "L3"},
		{"python-tools", []string{". python pip [pytest]"},
			[]string{"pip-install: python3 -m venv --system-site-packages .venv && { .venv/bin/python -m pip install --no-build-isolation -r requirements-dev.txt -e '.[dev]' || .venv/bin/python -m pip install -r requirements-dev.txt -e '.[dev]'; }",
				"compileall: .venv/bin/python" + strings.TrimPrefix(compileall, "python3"), "mypy: .venv/bin/python -m mypy .",
				"ruff: .venv/bin/python -m ruff check .", "pytest: .venv/bin/python -m pytest -rA --junitxml=/tmp/greenlight/reports/pytest.xml"}, "L4"},
		{"node-jest", []string{". node npm [jest]"},
			[]string{"npm-install: npm ci --no-audit --no-fund", "npm-lint: npm run lint", "npm-test: npm test"}, "L4"},
		{"node-test", []string{". node npm [node:test]"},
			[]string{"npm-build: npm run build", "npm-test: npm test"}, "L4"},
		{"typescript", []string{". typescript pnpm []"},
			[]string{"pnpm-install: pnpm install --frozen-lockfile", "pnpm-build: pnpm run build", "tsc: npx --no tsc --noEmit", "pnpm-lint: pnpm run lint"}, "L3"},
		{"rust-crate", []string{". rust cargo [cargo test]"},
			[]string{"cargo-build: cargo build", "cargo-test: cargo test"}, "L4"},
		{"maven", []string{". java maven [junit]"},
			[]string{"mvn-dependencies: mvn -B -q dependency:go-offline", "mvn-package: mvn -B -q -DskipTests package", "mvn-test: mvn -B test"}, "L4"},
		{"monorepo", []string{". go go [go test]", "web node npm [node:test]"},
			[]string{"go-build: go build ./...", "web:npm-build: npm run build", "go-vet: go vet ./...", "go-test: go test -json ./...", "web:npm-test: npm test"}, "L4"},
		{"greenlight-yaml", []string{". python pip [pytest]"},
			[]string{"compile: python3 -m compileall -q app", "unit: python3 -m pytest -q tests"}, "L4"},
		{"agent-yaml", []string{". typescript npm [vitest]"},
			[]string{"install: npm ci", "typecheck: npm run typecheck", "lint: npm run lint", "build: npm run build", "test: npm test"}, "L4"},
		{"runr-config", []string{". node pnpm [node:test]"},
			[]string{"pnpm-lint: pnpm lint", "pnpm-build: pnpm build"}, "L3"},
		// A nested module with tests is tested; benchmark/ and examples/ are
		// helpers of the root, not subprojects.
		{"go-nested", []string{". go go [go test]", "tools go go [go test]"},
			[]string{"go-build: go build ./...", "tools:go-build: go build ./...", "go-vet: go vet ./...", "tools:go-vet: go vet ./...",
				"go-test: go test -json ./...", "tools:go-test: go test -json ./..."}, "L4"},
		// Each nested module is tested in its own workdir and failure scope.
		{"go-nested-failing", []string{". go go [go test]", "alpha go go [go test]", "beta go go [go test]"},
			[]string{"go-build: go build ./...", "alpha:go-build: go build ./...", "beta:go-build: go build ./...",
				"go-vet: go vet ./...", "alpha:go-vet: go vet ./...", "beta:go-vet: go vet ./...",
				"go-test: go test -json ./...", "alpha:go-test: go test -json ./...", "beta:go-test: go test -json ./..."}, "L4"},
		// src layout: the project itself is installed with its test extra;
		// tests/requirements.txt joins that install, docs/ and
		// requirements-docs.txt do not; tox's envlist is expanded.
		{"python-src-layout", []string{". python pip [pytest]"},
			[]string{"pip-install: python3 -m venv --system-site-packages .venv && { .venv/bin/python -m pip install --no-build-isolation -r tests/requirements.txt -e '.[test]' || .venv/bin/python -m pip install -r tests/requirements.txt -e '.[test]'; }",
				"compileall: .venv/bin/python" + strings.TrimPrefix(compileall, "python3"), "pytest: .venv/bin/python -m pytest -rA --junitxml=/tmp/greenlight/reports/pytest.xml"}, "L4"},
		// No go.mod: reported as Go (Go image), its Makefile targets run.
		{"go-gopath", []string{". go make []"},
			[]string{"make-test: make test"}, "L4"},
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
			p, err := plan.Make(caps, plan.Request{})
			if err != nil {
				t.Fatal(err)
			}
			var steps []string
			for _, s := range p.Steps {
				steps = append(steps, s.Name+": "+s.Command)
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
