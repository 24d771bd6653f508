package plan

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/greenlight-dev/greenlight/services/discovery/internal/capability"
	"github.com/greenlight-dev/greenlight/services/discovery/internal/command"
	"github.com/greenlight-dev/greenlight/services/discovery/internal/detect"
	"github.com/greenlight-dev/greenlight/services/discovery/internal/snapshot"
)

// planTree writes files into a temporary directory, discovers it the way
// the service does and plans its default pipeline.
func planTree(t *testing.T, files map[string]string) (*capability.Capabilities, *Pipeline) {
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
	caps, err := capability.Build(ix, capability.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// Greenlight's own scans (planned by default) have their own tests
	// (security_test.go): these read what discovery found.
	p, err := Make(caps, Request{Security: SecurityOff})
	if err != nil {
		t.Fatal(err)
	}
	return caps, p
}

// stepLines renders a pipeline as "name: command @workdir [scope]".
func stepLines(p *Pipeline) []string {
	var out []string
	for _, s := range p.Steps {
		out = append(out, s.Name+": "+s.Command+" @"+s.Workdir+" ["+s.FailureScope+"]")
	}
	return out
}

const nodeTest = `{"scripts": {"test": "node --test"}}`

// TestNodePackageManagers: the lockfile names the package manager, then
// package.json's packageManager; install and scripts use it.
func TestNodePackageManagers(t *testing.T) {
	dev := `"devDependencies": {"x": "1"}`
	tests := []struct {
		name  string
		files map[string]string
		want  []string
		note  string
	}{
		{"pnpm lockfile", map[string]string{"package.json": `{"scripts": {"test": "t"}, ` + dev + `}`, "pnpm-lock.yaml": ""},
			[]string{"pnpm-install: pnpm install --frozen-lockfile @. []", "pnpm-test: pnpm test @. []"}, ""},
		{"yarn 1 lockfile", map[string]string{"package.json": `{"scripts": {"test": "t", "lint": "l"}, ` + dev + `}`, "yarn.lock": "# yarn lockfile v1\n"},
			[]string{"yarn-install: yarn install --frozen-lockfile @. []", "yarn-lint: yarn run lint @. []", "yarn-test: yarn test @. []"}, ""},
		{"yarn 1 by packageManager despite nothing else", map[string]string{"package.json": `{"packageManager": "yarn@1.22.22", "scripts": {"test": "t"}, ` + dev + `}`, "yarn.lock": ""},
			[]string{"yarn-install: yarn install --frozen-lockfile @. []", "yarn-test: yarn test @. []"}, ""},
		{"yarn berry by packageManager", map[string]string{"package.json": `{"packageManager": "yarn@4.5.0", "scripts": {"test": "t"}, ` + dev + `}`, "yarn.lock": ""},
			[]string{"yarn-install: yarn install --immutable @. []", "yarn-test: yarn test @. []"}, "corepack cannot download"},
		{"yarn berry with its release in the repository", map[string]string{"package.json": `{"scripts": {"test": "t"}, ` + dev + `}`, "yarn.lock": "",
			".yarnrc.yml": "yarnPath: .yarn/releases/yarn-4.5.0.cjs\n", ".yarn/releases/yarn-4.5.0.cjs": "//"},
			[]string{"yarn-install: yarn install --immutable @. []", "yarn-test: yarn test @. []"}, ""},
		{"bun lockfile runs scripts with run", map[string]string{"package.json": `{"scripts": {"test": "bun test"}, ` + dev + `}`, "bun.lockb": ""},
			[]string{"bun-install: bun install --frozen-lockfile @. []", "bun-test: bun run test @. []"}, ""},
		{"packageManager without a lockfile", map[string]string{"package.json": `{"packageManager": "pnpm@9.1.0", "scripts": {"test": "t"}, ` + dev + `}`},
			[]string{"pnpm-install: pnpm install @. []", "pnpm-test: pnpm test @. []"}, ""},
		{"lockfile wins over a disagreeing packageManager", map[string]string{"package.json": `{"packageManager": "pnpm@9.1.0", "scripts": {"test": "t"}, ` + dev + `}`, "package-lock.json": "{}"},
			[]string{"npm-install: npm ci --no-audit --no-fund @. []", "npm-test: npm test @. []"}, "packageManager names pnpm but the lockfile package-lock.json is npm's"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			caps, p := planTree(t, tt.files)
			if got := stepLines(p); !slices.Equal(got, tt.want) {
				t.Errorf("steps:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(tt.want, "\n  "))
			}
			if tt.note != "" && !slices.ContainsFunc(caps.Notes, func(n string) bool { return strings.Contains(n, tt.note) }) {
				t.Errorf("notes %q lack %q", caps.Notes, tt.note)
			}
		})
	}
}

// TestNodeInstallKeysOnItsLockfile: the dependency cache of an install is
// keyed on the lockfile its package manager reads, first.
func TestNodeInstallKeysOnItsLockfile(t *testing.T) {
	for lock, pm := range map[string]string{"pnpm-lock.yaml": "pnpm", "yarn.lock": "yarn", "bun.lock": "bun", "npm-shrinkwrap.json": "npm"} {
		_, p := planTree(t, map[string]string{"package.json": `{"scripts": {"test": "t"}, "dependencies": {"x": "1"}}`, lock: ""})
		s := p.Steps[0]
		if s.Name != pm+"-install" || len(s.CacheKeyFiles) < 2 || s.CacheKeyFiles[0] != lock || !slices.Contains(s.CacheKeyFiles, "package.json") ||
			!slices.Equal(s.CachePaths, []string{"node_modules"}) {
			t.Errorf("%s: install %s keys %q paths %q", lock, s.Name, s.CacheKeyFiles, s.CachePaths)
		}
	}
}

// TestNodeWorkspaces: one install at the workspace root; each member with
// a test script is its own step and failure scope; the root's test script
// replaces them when it runs them all.
func TestNodeWorkspaces(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  []string
	}{
		{"npm workspaces without a lockfile: the root installs, members are tested in their own scopes", map[string]string{
			"package.json":            `{"private": true, "workspaces": ["packages/*"]}`,
			"packages/a/package.json": nodeTest, "packages/b/package.json": nodeTest, "packages/c/package.json": `{"name": "c"}`,
		}, []string{"npm-install: npm install --no-audit --no-fund @. []", "packages/a:npm-test: npm test @packages/a [packages/a]",
			"packages/b:npm-test: npm test @packages/b [packages/b]"}},
		{"yarn workspaces object form with an exclusion, berry by packageManager of the root", map[string]string{
			"package.json":        `{"private": true, "packageManager": "yarn@4.1.0", "workspaces": {"packages": ["libs/**", "!libs/legacy"]}}`,
			"libs/x/package.json": nodeTest, "libs/deep/y/package.json": nodeTest, "libs/legacy/package.json": nodeTest,
			".yarnrc.yml": "", "yarn.lock": "",
		}, []string{"yarn-install: yarn install --immutable @. []", "libs/deep/y:yarn-test: yarn test @libs/deep/y [libs/deep/y]",
			"libs/legacy:yarn-test: yarn test @libs/legacy [.]", "libs/x:yarn-test: yarn test @libs/x [libs/x]"}},
		{"pnpm workspace whose root runs every member's tests", map[string]string{
			"package.json": `{"private": true, "scripts": {"test": "pnpm -r --parallel test"}}`, "pnpm-workspace.yaml": "packages:\n  - 'packages/*'\n",
			"pnpm-lock.yaml": "", "packages/a/package.json": nodeTest, "packages/b/package.json": nodeTest,
		}, []string{"pnpm-install: pnpm install --frozen-lockfile @. []", "pnpm-test: pnpm test @. []"}},
		{"pnpm workspace whose root does not test: members with the root's manager", map[string]string{
			"package.json": `{"private": true, "scripts": {"lint": "eslint ."}}`, "pnpm-workspace.yaml": "packages:\n  - packages/*\n",
			"pnpm-lock.yaml": "", "packages/a/package.json": nodeTest, "packages/b/package.json": `{"scripts": {"test": "node --test", "build": "tsc"}}`,
		}, []string{"pnpm-install: pnpm install --frozen-lockfile @. []", "packages/b:pnpm-build: pnpm run build @packages/b [packages/b]",
			"pnpm-lint: pnpm run lint @. [.]", "packages/a:pnpm-test: pnpm test @packages/a [packages/a]", "packages/b:pnpm-test: pnpm test @packages/b [packages/b]"}},
		{"a workspace next to a Go module keeps its install scoped", map[string]string{
			"go.mod": "module x\n\ngo 1.22\n", "x_test.go": "package x\n",
			"web/package.json": `{"private": true, "workspaces": ["pkgs/*"]}`, "web/package-lock.json": "{}",
			"web/pkgs/a/package.json": nodeTest,
		}, []string{"web:npm-install: npm ci --no-audit --no-fund @web [web]", "go-build: go build ./... @. [.]", "go-vet: go vet ./... @. [.]",
			"go-test: " + goTestReport + " @. [.]", "web/pkgs/a:npm-test: npm test @web/pkgs/a [web/pkgs/a]"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, p := planTree(t, tt.files)
			if got := stepLines(p); !slices.Equal(got, tt.want) {
				t.Errorf("steps:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(tt.want, "\n  "))
			}
		})
	}
}

// TestRunsAllWorkspaces: root test scripts that already run the members'.
func TestRunsAllWorkspaces(t *testing.T) {
	yes := []string{"npm test --workspaces", "npm run test -ws --if-present", "pnpm -r test", "pnpm --recursive run test",
		"pnpm run -r test", "yarn workspaces run test", "yarn workspaces foreach -A run test", "turbo run test", "turbo test --filter=...",
		"npx nx run-many -t test", "lerna run test --stream", "tsc -b && pnpm -r test"}
	no := []string{"node --test", "jest", "npm test --workspace=a", "turbo run build", "pnpm --filter a test", "vitest run", ""}
	for _, s := range yes {
		_, p := planTree(t, map[string]string{"package.json": `{"workspaces": ["p/*"], "scripts": {"test": "` + s + `"}}`, "p/a/package.json": nodeTest})
		if slices.ContainsFunc(p.Steps, func(c command.Command) bool { return c.Name == "p/a:npm-test" }) {
			t.Errorf("%q runs every member's tests, but the member has a step of its own", s)
		}
	}
	for _, s := range no {
		_, p := planTree(t, map[string]string{"package.json": `{"workspaces": ["p/*"], "scripts": {"test": "` + s + `"}}`, "p/a/package.json": nodeTest})
		if !slices.ContainsFunc(p.Steps, func(c command.Command) bool { return c.Name == "p/a:npm-test" }) {
			t.Errorf("%q does not run the member's tests, but the member has no step", s)
		}
	}
}

// TestSelectedMemberGetsTheRootInstall: a model selecting one workspace
// member's tests gets the workspace root's install step with them.
func TestSelectedMemberGetsTheRootInstall(t *testing.T) {
	caps, _ := planTree(t, map[string]string{
		"package.json": `{"private": true, "workspaces": ["packages/*"]}`, "package-lock.json": "{}",
		"packages/a/package.json": nodeTest, "packages/b/package.json": nodeTest,
	})
	p, err := Make(caps, Request{Selection: []Selection{{Name: "packages/a:npm-test"}}})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"npm-install: npm ci --no-audit --no-fund @. []", "packages/a:npm-test: npm test @packages/a []"}
	if got := stepLines(p); !slices.Equal(got, want) {
		t.Errorf("steps:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

// TestWorkspaceInstallCachesMembersNodeModules: a cache hit restores what
// the workspace install made for every member, not only the root's.
func TestWorkspaceInstallCachesMembersNodeModules(t *testing.T) {
	_, p := planTree(t, map[string]string{
		"web/package.json": `{"private": true, "workspaces": ["packages/*"]}`, "web/pnpm-lock.yaml": "",
		"web/packages/a/package.json": nodeTest, "web/packages/b/package.json": nodeTest,
	})
	s := p.Steps[0]
	want := []string{"node_modules", "packages/a/node_modules", "packages/b/node_modules"}
	if s.Name != "web:pnpm-install" || s.Workdir != "web" || !slices.Equal(s.CachePaths, want) || s.CacheKeyFiles[0] != "web/pnpm-lock.yaml" {
		t.Errorf("install %s in %s caches %q keyed on %q, want %q keyed on web/pnpm-lock.yaml first", s.Name, s.Workdir, s.CachePaths, s.CacheKeyFiles, want)
	}
}

// TestPnpmUsesTheImagesPnpm: pnpm steps never download the pnpm version
// packageManager names (offline steps cannot).
func TestPnpmUsesTheImagesPnpm(t *testing.T) {
	_, p := planTree(t, map[string]string{"package.json": `{"packageManager": "pnpm@9.15.0", "scripts": {"test": "t"}, "dependencies": {"x": "1"}}`, "pnpm-lock.yaml": ""})
	for _, s := range p.Steps {
		if s.Env["NPM_CONFIG_MANAGE_PACKAGE_MANAGER_VERSIONS"] != "false" {
			t.Errorf("%s: env %v, want NPM_CONFIG_MANAGE_PACKAGE_MANAGER_VERSIONS=false", s.Name, s.Env)
		}
	}
	_, p = planTree(t, map[string]string{"package.json": `{"scripts": {"test": "t"}, "dependencies": {"x": "1"}}`, "package-lock.json": ""})
	for _, s := range p.Steps {
		if len(s.Env) != 0 {
			t.Errorf("%s: env %v for npm", s.Name, s.Env)
		}
	}
}

// goTestReport is the Go test step's command: go test -json teed into the
// report file the loop counts from.
const goTestReport = `mkdir -p /tmp/greenlight/reports && rm -f /tmp/greenlight/reports/go-test.rc && { go test -json ./...; echo $? >/tmp/greenlight/reports/go-test.rc; } | tee /tmp/greenlight/reports/go-test.jsonl; exit "$(cat /tmp/greenlight/reports/go-test.rc 2>/dev/null || echo 1)"`
