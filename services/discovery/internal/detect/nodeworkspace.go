package detect

import (
	"encoding/json"
	"regexp"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"gopkg.in/yaml.v3"
)

// Workspace is an npm/yarn/pnpm workspace root's view of its members.
type Workspace struct {
	// Source is the file declaring the members ("package.json:workspaces",
	// "pnpm-workspace.yaml:packages").
	Source string
	// Patterns are the member globs, relative to the root ("!" excludes).
	Patterns []string
	// Members are the workspace-relative roots of the member packages.
	Members []string
	// TestsAll is the root's test script when it runs every member's tests
	// itself (`npm test --workspaces`, `pnpm -r test`, turbo, nx, lerna):
	// the members' own test scripts are then not separate steps.
	TestsAll string
}

// workspacePatterns returns the member globs dir declares in its
// package.json `workspaces` (an array, or yarn's {packages: [...]}) or its
// pnpm-workspace.yaml `packages`, and where; nil when dir is no workspace
// root.
func workspacePatterns(v *view, dir string, pj *PackageJSON) ([]string, string) {
	if pj != nil && len(pj.Workspaces) > 0 {
		var list []string
		if json.Unmarshal(pj.Workspaces, &list) != nil {
			var obj struct {
				Packages []string `json:"packages"`
			}
			if json.Unmarshal(pj.Workspaces, &obj) == nil {
				list = obj.Packages
			}
		}
		if len(list) > 0 {
			return list, join(dir, "package.json") + ":workspaces"
		}
	}
	if v.has(dir, "pnpm-workspace.yaml") {
		file := join(dir, "pnpm-workspace.yaml")
		data, err := v.read(file)
		if err != nil {
			return nil, ""
		}
		var doc struct {
			Packages []string `yaml:"packages"`
		}
		if yaml.Unmarshal(data, &doc) == nil && len(doc.Packages) > 0 {
			return doc.Packages, file + ":packages"
		}
	}
	return nil, ""
}

// isMember reports whether the package at rel (relative to the workspace
// root) matches the member globs: a positive match not excluded by a later
// "!" pattern.
func isMember(patterns []string, rel string) bool {
	in := false
	for _, p := range patterns {
		neg := strings.HasPrefix(p, "!")
		p = strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(p, "!"), "./"), "/")
		p = strings.TrimSuffix(p, "/package.json")
		if ok, err := doublestar.Match(p, rel); err == nil && ok {
			in = !neg
		}
	}
	return in
}

// relTo makes a workspace-relative path relative to dir.
func relTo(dir, name string) string {
	if dir == "." {
		return name
	}
	return strings.TrimPrefix(name, dir+"/")
}

// nodeWorkspace fills in sp.Node.Workspace for a workspace root: its
// member packages among the Node roots below it.
func nodeWorkspace(v *view, sp *Subproject, nested []string) {
	info := sp.Node
	pats, src := workspacePatterns(v, sp.Root, info.Manifest)
	if pats == nil {
		return
	}
	ws := &Workspace{Source: src, Patterns: pats}
	for _, n := range nested {
		if n != sp.Root && within(sp.Root, n) && isMember(pats, relTo(sp.Root, n)) {
			ws.Members = append(ws.Members, n)
		}
	}
	if t := info.Manifest.Scripts["test"]; runsAllWorkspaces(t) {
		ws.TestsAll = t
	}
	info.Workspace = ws
}

// memberOf returns the nearest Node root above root whose workspace
// declares root a member, and that root's manifest.
func memberOf(v *view, root string, nested []string) (string, *PackageJSON) {
	for _, dir := range ancestors(root, nested)[1:] {
		pj := &PackageJSON{}
		if data, err := v.read(join(dir, "package.json")); err != nil || json.Unmarshal(data, pj) != nil {
			pj = nil
		}
		if pats, _ := workspacePatterns(v, dir, pj); pats != nil && isMember(pats, relTo(dir, root)) {
			if pj == nil {
				pj = &PackageJSON{}
			}
			return dir, pj
		}
	}
	return "", nil
}

// reRunsAll matches test scripts that run the test script of every
// workspace member: npm's --workspaces, pnpm's -r, yarn's workspaces
// run/foreach, and the monorepo runners.
var reRunsAll = regexp.MustCompile(`(?:^|[\s;&|(])(?:` +
	`npm\b[^;&|]*\s(?:--workspaces|-ws)\b` +
	`|pnpm\b[^;&|]*\s(?:-r|--recursive)\b` +
	`|yarn\s+workspaces\s+(?:run|foreach)\b` +
	`|turbo\b[^;&|]*\btest` +
	`|nx\s+(?:run-many|affected)\b[^;&|]*\btest` +
	`|lerna\s+(?:run|exec)\b[^;&|]*\btest` +
	`|wsrun\b|ultra\s+-r\b)`)

// runsAllWorkspaces reports whether a root test script runs the members'
// tests itself.
func runsAllWorkspaces(script string) bool { return reRunsAll.MatchString(script) }
