package detect

import (
	"encoding/json"
	"fmt"
	"path"
	"sort"
	"strings"
)

// PackageJSON is the part of package.json detection reads.
type PackageJSON struct {
	Name                 string            `json:"name"`
	Main                 string            `json:"main"`
	Bin                  json.RawMessage   `json:"bin"`
	Scripts              map[string]string `json:"scripts"`
	Dependencies         map[string]string `json:"dependencies"`
	DevDependencies      map[string]string `json:"devDependencies"`
	OptionalDependencies map[string]string `json:"optionalDependencies"`
	Engines              map[string]any    `json:"engines"`
	Volta                map[string]any    `json:"volta"`
	Workspaces           json.RawMessage   `json:"workspaces"`
	PackageManager       string            `json:"packageManager"`
	Jest                 json.RawMessage   `json:"jest"`
}

// NodeInfo holds what command extraction needs about a Node package.
type NodeInfo struct {
	// File is the workspace-relative package.json.
	File     string
	Manifest *PackageJSON
	// Invalid is true when package.json could not be parsed.
	Invalid bool
	// ScriptLines maps script names to their line in package.json.
	ScriptLines map[string]int
	// Lockfile is the workspace-relative lockfile, possibly an ancestor's.
	Lockfile string
	// InstallRoot is the ancestor workspace root whose install covers this
	// package; empty when the package installs itself.
	InstallRoot string
	HasDeps     bool
	// WorkspaceRoot is true for an npm/yarn/pnpm workspace root, whose
	// install covers its member packages.
	WorkspaceRoot bool
	// Workspace lists a workspace root's members; nil for other packages.
	Workspace *Workspace
	// MemberOf is the root of the workspace this package is a member of:
	// that root installs it, and its tests are its own failure scope.
	MemberOf string
	// TestedByRoot is the workspace root's test script when it runs this
	// member's tests itself; the member then has no test step of its own.
	TestedByRoot string
	YarnBerry    bool
	// ManagerNote says that packageManager disagrees with the lockfile.
	ManagerNote string
	// YarnRelease is true when the repository carries its Yarn release
	// (.yarn/releases), so a Yarn 2+ project needs no corepack download.
	YarnRelease bool
	TSConfig    bool
	// TypeScript is true when typescript is a dependency (tsc is runnable
	// after install).
	TypeScript bool
	// MainFile is the entry file relative to the root, when it exists.
	MainFile string
}

// PlaceholderTest is what "npm init" writes as the test script.
const PlaceholderTest = "no test specified"

var lockfiles = []struct{ name, pm string }{
	{"pnpm-lock.yaml", "pnpm"}, {"yarn.lock", "yarn"}, {"package-lock.json", "npm"},
	{"npm-shrinkwrap.json", "npm"}, {"bun.lockb", "bun"}, {"bun.lock", "bun"},
}

var nodeFrameworkDeps = map[string]string{
	"jest": "jest", "ts-jest": "jest", "@jest/core": "jest", "vitest": "vitest", "mocha": "mocha",
	"ava": "ava", "jasmine": "jasmine", "@playwright/test": "playwright", "cypress": "cypress",
}

var nodeLinterDeps = map[string]string{
	"eslint": "eslint", "prettier": "prettier", "@biomejs/biome": "biome", "typescript": "tsc",
}

var nodeConfigPrefixes = map[string]string{
	"jest.config.": "jest", "vitest.config.": "vitest", ".mocharc": "mocha", ".eslintrc": "eslint",
	"eslint.config.": "eslint", ".prettierrc": "prettier", "biome.json": "biome", "playwright.config.": "playwright",
}

func detectNode(v *view, sp *Subproject, nested []string) error {
	file := join(sp.Root, "package.json")
	info := &NodeInfo{File: file, ScriptLines: map[string]int{}}
	sp.Node = info
	data, err := v.read(file)
	if err != nil {
		sp.Problems = append(sp.Problems, Problem{File: file, Msg: fmt.Sprintf("not read: %v", err)})
		info.Invalid = true
		return nil
	}
	pj := &PackageJSON{}
	if err := json.Unmarshal(data, pj); err != nil {
		info.Invalid = true
		sp.Problems = append(sp.Problems, jsonProblem(file, data, err))
		pj = &PackageJSON{}
	} else {
		info.ScriptLines = jsonKeyLines(data, "scripts")
	}
	info.Manifest = pj
	if v.has(sp.Root, "tsconfig.json") {
		info.TSConfig = true
		sp.Runtime = RuntimeTypeScript
		sp.Markers = append(sp.Markers, join(sp.Root, "tsconfig.json"))
	}
	deps := allDeps(pj)
	info.HasDeps = len(pj.Dependencies)+len(pj.DevDependencies)+len(pj.OptionalDependencies) > 0
	_, info.TypeScript = deps["typescript"]
	info.WorkspaceRoot = len(pj.Workspaces) > 0 || v.has(sp.Root, "pnpm-workspace.yaml")
	nodeWorkspace(v, sp, nested)
	nodeInstall(v, sp, nested)
	nodeVersions(v, sp, pj)
	nodeTools(v, sp, pj, deps, nested)
	if pj.Main != "" && v.has(splitPath(join(sp.Root, path.Clean(pj.Main)))) {
		info.MainFile = path.Clean(pj.Main)
	} else if pj.Main == "" && v.has(sp.Root, "index.js") {
		info.MainFile = "index.js"
	}
	return nil
}

// nodeInstall finds the lockfile, package manager and install root. A
// workspace member is installed by its workspace root, with the root's
// package manager, lockfile or not; any other package by the nearest
// directory holding a lockfile (itself or a Node root above it).
func nodeInstall(v *view, sp *Subproject, nested []string) {
	info := sp.Node
	manager := info.Manifest.PackageManager
	dirs := ancestors(sp.Root, nested)
	if ws, wsPJ := memberOf(v, sp.Root, nested); ws != "" {
		info.MemberOf, info.InstallRoot = ws, ws
		dirs = []string{ws}
		manager = firstOf(wsPJ.PackageManager, manager)
		if runsAllWorkspaces(wsPJ.Scripts["test"]) {
			info.TestedByRoot = wsPJ.Scripts["test"]
		}
	}
	for _, dir := range dirs {
		if lf, pm := lockfileIn(v, dir); lf != "" {
			info.Lockfile, sp.PackageManager = lf, pm
			if dir != sp.Root {
				info.InstallRoot = dir
			}
			break
		}
	}
	if info.Lockfile != "" && info.InstallRoot == "" {
		sp.Markers = append(sp.Markers, info.Lockfile)
	}
	declared, version, _ := strings.Cut(manager, "@")
	if sp.PackageManager == "" {
		sp.PackageManager = "npm"
		if knownManager(declared) {
			sp.PackageManager = declared
		}
	} else if knownManager(declared) && declared != sp.PackageManager {
		info.ManagerNote = fmt.Sprintf("%s: packageManager names %s but the lockfile %s is %s's; installing with %s",
			info.File, declared, info.Lockfile, sp.PackageManager, sp.PackageManager)
	}
	if sp.PackageManager == "yarn" {
		home := firstOf(info.InstallRoot, sp.Root)
		info.YarnBerry = v.has(home, ".yarnrc.yml") || v.has(".", ".yarnrc.yml") ||
			(declared == "yarn" && version != "" && !strings.HasPrefix(version, "1."))
		info.YarnRelease = v.anyUnder(join(home, ".yarn/releases"))
	}
}

// lockfileIn returns the lockfile in dir and the package manager it names.
func lockfileIn(v *view, dir string) (string, string) {
	for _, lf := range lockfiles {
		if v.has(dir, lf.name) {
			return join(dir, lf.name), lf.pm
		}
	}
	return "", ""
}

func knownManager(pm string) bool {
	return pm == "npm" || pm == "pnpm" || pm == "yarn" || pm == "bun"
}

func firstOf(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// ancestors returns root and then the node roots above it, nearest first.
func ancestors(root string, nested []string) []string {
	out := []string{root}
	var above []string
	for _, n := range nested {
		if n != root && within(n, root) {
			above = append(above, n)
		}
	}
	sort.Slice(above, func(i, j int) bool { return len(above[i]) > len(above[j]) })
	return append(out, above...)
}

func nodeVersions(v *view, sp *Subproject, pj *PackageJSON) {
	sp.Versions = append(sp.Versions, fileVersion(v, sp.Root, ".nvmrc", "node")...)
	sp.Versions = append(sp.Versions, fileVersion(v, sp.Root, ".node-version", "node")...)
	if n, ok := pj.Engines["node"].(string); ok && n != "" {
		sp.Versions = append(sp.Versions, VersionHint{Tool: "node", Version: n, Source: sp.Node.File + ":engines.node"})
	}
	if n, ok := pj.Volta["node"].(string); ok && n != "" {
		sp.Versions = append(sp.Versions, VersionHint{Tool: "node", Version: n, Source: sp.Node.File + ":volta.node"})
	}
	sp.Versions = append(sp.Versions, toolVersions(v, sp.Root, "nodejs", "node")...)
}

// nodeTools finds test frameworks, linters and tests.
func nodeTools(v *view, sp *Subproject, pj *PackageJSON, deps map[string]string, nested []string) {
	frameworks := map[string]bool{}
	linters := map[string]bool{}
	for d := range deps {
		if f, ok := nodeFrameworkDeps[d]; ok {
			frameworks[f] = true
		}
		if l, ok := nodeLinterDeps[d]; ok {
			linters[l] = true
		}
	}
	if len(pj.Jest) > 0 {
		frameworks["jest"] = true
	}
	for base := range v.dirs[sp.Root] {
		for prefix, tool := range nodeConfigPrefixes {
			if strings.HasPrefix(base, prefix) {
				if tool == "eslint" || tool == "prettier" || tool == "biome" {
					linters[tool] = true
				} else {
					frameworks[tool] = true
				}
			}
		}
	}
	for _, s := range pj.Scripts {
		if strings.Contains(s, "node --test") {
			frameworks["node:test"] = true
		}
	}
	if t, ok := pj.Scripts["test"]; ok && !strings.Contains(t, PlaceholderTest) {
		sp.HasTests = true
	}
	for _, f := range v.under(sp.Root, nested) {
		if isJSTestFile(f) {
			sp.HasTests = true
			break
		}
	}
	sp.TestFrameworks = sortedKeys(frameworks)
	sp.Linters = sortedKeys(linters)
}

// isJSTestFile matches *.test.js, *.spec.ts, __tests__/x.js and the like.
func isJSTestFile(name string) bool {
	ext := path.Ext(name)
	switch ext {
	case ".js", ".jsx", ".ts", ".tsx", ".mjs", ".cjs", ".mts", ".cts":
	default:
		return false
	}
	stem := strings.TrimSuffix(path.Base(name), ext)
	return strings.HasSuffix(stem, ".test") || strings.HasSuffix(stem, ".spec") || strings.Contains(name, "__tests__/")
}

func allDeps(pj *PackageJSON) map[string]string {
	all := map[string]string{}
	for _, m := range []map[string]string{pj.Dependencies, pj.DevDependencies, pj.OptionalDependencies} {
		for k, v := range m {
			all[k] = v
		}
	}
	return all
}
