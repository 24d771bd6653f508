package command

import (
	"fmt"
	"sort"
	"strings"

	"github.com/greenlight-dev/greenlight/services/discovery/internal/detect"
)

// scriptRole says whether a package.json script verifies something, and
// how. Scripts that serve, watch, fix, release or deploy are never offered.
func scriptRole(name string) (Phase, Tier, bool) {
	lower := strings.ToLower(name)
	for _, bad := range []string{"watch", "dev", "serve", "start", "fix", "update", "release", "publish", "deploy", "prepare", "install", "clean", "format:write"} {
		if strings.Contains(lower, bad) {
			return 0, 0, false
		}
	}
	switch lower {
	case "test":
		return PhaseTest, Tier0, true
	case "lint":
		return PhaseLint, Tier0, true
	case "build":
		return PhaseBuild, Tier0, true
	case "typecheck", "type-check", "types", "check-types", "tsc", "check":
		return PhaseTypecheck, Tier0, true
	case "smoke":
		return PhaseSmoke, Tier0, true
	case "e2e", "integration", "test:e2e", "test:integration", "cypress", "playwright":
		return PhaseTest, Tier2, true
	case "format:check", "fmt:check", "prettier:check", "check-format", "format-check", "lint:check":
		return PhaseLint, Tier1, true
	}
	for _, p := range []struct {
		prefix string
		phase  Phase
	}{{"test:", PhaseTest}, {"lint:", PhaseLint}, {"build:", PhaseBuild}, {"typecheck:", PhaseTypecheck}} {
		if strings.HasPrefix(lower, p.prefix) {
			if strings.Contains(lower, "e2e") || strings.Contains(lower, "integration") {
				return PhaseTest, Tier2, true
			}
			return p.phase, Tier1, true
		}
	}
	return 0, 0, false
}

func (e *extractor) node() {
	info := e.sp.Node
	pm := e.sp.PackageManager
	if info.Invalid {
		e.add(Command{Name: "package-json", Phase: PhaseBuild, Source: Source{File: info.File, Origin: OriginDefault},
			Command: `node -e 'JSON.parse(require("fs").readFileSync("package.json", "utf8"))'`})
		return
	}
	e.nodeVersionNote()
	e.nodeInstall()
	e.nodeWorkspaceNotes()
	if info.ManagerNote != "" {
		e.note("%s", info.ManagerNote)
	}
	scripts := info.Manifest.Scripts
	names := make([]string, 0, len(scripts))
	for n := range scripts {
		names = append(names, n)
	}
	sort.Strings(names)
	have := map[Phase]bool{}
	for _, n := range names {
		phase, tier, ok := scriptRole(n)
		if !ok {
			continue
		}
		if n == "test" && strings.Contains(scripts[n], detect.PlaceholderTest) {
			e.note("%s: scripts.test is npm's placeholder (%q); not a test", info.File, scripts[n])
			continue
		}
		if !safeWord.MatchString(n) {
			e.note("%s: script %q skipped: its name needs shell quoting", info.File, n)
			continue
		}
		if phase == PhaseTest && n == "test" && info.TestedByRoot != "" {
			e.note("%s: scripts.test runs as part of the workspace root's test script (%s); no separate step", info.File, info.TestedByRoot)
			continue
		}
		cmd := scriptCommand(pm, n)
		if pm == "npm" && n == "test" {
			var left string
			if cmd, left = npmTestCommand(scripts); left != "" {
				e.note("%s: the test step runs the tests without the %s: lint runs as its own step, and the test step has no network", info.File, left)
			}
		}
		have[phase] = have[phase] || tier == Tier0
		e.add(Command{Name: pm + "-" + strings.ReplaceAll(n, ":", "-"), Phase: phase, Tier: tier, Command: cmd, Env: e.nodeEnv(),
			Source: Source{File: info.File, Key: "scripts." + n, Line: info.ScriptLines[n], Origin: OriginDiscovered}})
	}
	e.nodeDefaults(have)
}

// scriptCommand runs a package.json script with the project's package
// manager. bun's own `bun test` is its test runner, not the script, so bun
// always says `run`.
func scriptCommand(pm, script string) string {
	if script == "test" && pm != "bun" {
		return pm + " test"
	}
	return pm + " run " + script
}

// managerEnv is the environment a package manager's steps run with. pnpm
// 9+ switches to the version package.json's packageManager names by
// downloading it, which fails in an offline step (and when a cached
// install skipped the install step): the image's pnpm runs them all. The
// variable is upper case because pnpm overwrites the lower-case npm_config_
// ones of the scripts it runs (a root script calling `pnpm -r test`).
func managerEnv(pm string) map[string]string {
	if pm != "pnpm" {
		return nil
	}
	return map[string]string{"NPM_CONFIG_MANAGE_PACKAGE_MANAGER_VERSIONS": "false"}
}

// nodeWorkspaceNotes says how a workspace root's members are installed and
// tested.
func (e *extractor) nodeWorkspaceNotes() {
	ws := e.sp.Node.Workspace
	if ws == nil || len(ws.Members) == 0 {
		return
	}
	how := "each member's test script is its own step and failure scope"
	if ws.TestsAll != "" {
		how = fmt.Sprintf("its test script (%s) runs the members' tests", ws.TestsAll)
	}
	e.note("%s: workspace root of %d member(s) (%s): one install here; %s", e.sp.Root, len(ws.Members), ws.Source, how)
}

// nodeInstall adds the install step unless an ancestor workspace installs.
func (e *extractor) nodeInstall() {
	info := e.sp.Node
	if info.InstallRoot != "" {
		e.note("%s: dependencies are installed by the workspace root %s", e.sp.Root, info.InstallRoot)
		return
	}
	if !info.HasDeps && !info.WorkspaceRoot {
		return
	}
	locked := info.Lockfile != ""
	var cmd string
	switch e.sp.PackageManager {
	case "pnpm":
		cmd = "pnpm install" + when(locked, " --frozen-lockfile")
	case "yarn":
		cmd = "yarn install" + when(locked && info.YarnBerry, " --immutable") + when(locked && !info.YarnBerry, " --frozen-lockfile")
		if info.YarnBerry && !info.YarnRelease {
			e.note("%s: Yarn 2+ project without its release in .yarn/releases: the image's yarn must be that major version (corepack cannot download one offline)", e.sp.Root)
		}
	case "bun":
		cmd = "bun install" + when(locked, " --frozen-lockfile")
	default:
		cmd = "npm install --no-audit --no-fund"
		if locked {
			cmd = "npm ci --no-audit --no-fund"
		}
	}
	keys := []string{info.File}
	if locked {
		keys = append([]string{info.Lockfile}, keys...)
	}
	e.add(Command{Name: e.sp.PackageManager + "-install", Phase: PhaseInstall, Command: cmd, Env: e.nodeEnv(), CacheKeyFiles: keys,
		CachePaths: e.nodeModules(), Source: Source{File: firstNonEmpty(info.Lockfile, info.File), Origin: OriginDefault}})
}

// nodeModules are the directories an install fills: the root's
// node_modules and, in a workspace, each member's (pnpm always links a
// member's dependencies there, npm and yarn when versions conflict), so a
// restored cache gives the members what a cold install would.
func (e *extractor) nodeModules() []string {
	paths := []string{"node_modules"}
	if ws := e.sp.Node.Workspace; ws != nil {
		for _, m := range ws.Members {
			paths = append(paths, e.rel(m)+"/node_modules")
		}
	}
	return paths
}

// nodeDefaults adds tsc --noEmit when a tsconfig exists and no script
// typechecks, and a syntax check of the entry file when nothing else can
// fail at L3.
func (e *extractor) nodeDefaults(have map[Phase]bool) {
	info := e.sp.Node
	if info.TSConfig && !have[PhaseTypecheck] {
		if info.TypeScript {
			e.add(Command{Name: "tsc", Phase: PhaseTypecheck, Command: "npx --no tsc --noEmit", Env: e.nodeEnv(),
				Source: Source{File: e.file("tsconfig.json"), Origin: OriginDefault}})
		} else {
			e.note("%s: tsconfig.json found but typescript is not a dependency; no tsc step", e.sp.Root)
		}
	}
	if !have[PhaseBuild] && !have[PhaseTest] && info.MainFile != "" && safeWord.MatchString(info.MainFile) {
		e.add(Command{Name: "node-check", Phase: PhaseBuild, Command: "node --check " + info.MainFile, Env: e.nodeEnv(),
			Source: Source{File: info.File, Key: "main", Origin: OriginDefault}})
	}
}

func when(ok bool, s string) string {
	if ok {
		return s
	}
	return ""
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
