package plan

import (
	"fmt"
	"slices"
	"strings"

	"github.com/greenlight-dev/greenlight/services/discovery/internal/command"
	"github.com/greenlight-dev/greenlight/services/discovery/internal/detect"
)

// scopes makes the independent subprojects of a discovered pipeline run
// to their own first failure: each step gets its subproject's failure
// scope, so a failing web/ build no longer skips the root module's tests
// (the executor stops only the failed scope). A Node subproject nested in
// another Node project shares its scope: workspace members depend on the
// root's install (unless it installs itself: then it is a scope). A configured pipeline keeps the order and the
// stop-at-first-failure its file states, and a pipeline of one scope needs
// none.
func (p *planner) scopes() {
	if p.caps.Configured && len(p.req.Selection) == 0 {
		return
	}
	for i := range p.steps {
		if s := &p.steps[i]; s.Subproject != "" {
			s.FailureScope = p.scopeOf(s.Subproject, s.Runtime)
		}
	}
	p.unscopeWorkspaceInstall()
	var names []string
	for _, s := range p.steps {
		if s.FailureScope != "" && !slices.Contains(names, s.FailureScope) {
			names = append(names, s.FailureScope)
		}
	}
	if len(names) < 2 {
		for i := range p.steps {
			p.steps[i].FailureScope = ""
		}
		return
	}
	p.notes = append(p.notes, fmt.Sprintf("independent subprojects (%s) each run to their own first failure", strings.Join(names, ", ")))
}

// scopeOf is a subproject's root; a Node package nested in another Node
// project shares the scope of the nearest one above it (it depends on that
// root's install), except a workspace member, which is a scope of its own
// so that one failing member does not hide the others' tests, and a package
// with an install step of its own.
func (p *planner) scopeOf(root, runtime string) string {
	if !isNode(runtime) {
		return root
	}
	if n := p.nodeInfo(root); n != nil && n.MemberOf != "" || p.installsItself(root) {
		return root
	}
	above := ""
	for _, sp := range p.caps.Subprojects {
		if isNode(sp.Runtime) && sp.Root != root && (sp.Root == "." || strings.HasPrefix(root, sp.Root+"/")) && len(sp.Root) > len(above) {
			above = sp.Root
		}
	}
	if above == "" {
		return root
	}
	return p.scopeOf(above, detect.RuntimeNode)
}

// installsItself reports whether a subproject has an install step of its
// own (its own lockfile): a nested package like scripts/ or benchmark/
// then does not depend on the enclosing project's install, and its failure
// (a native module that needs headers from the network) must not hide the
// enclosing project's tests.
func (p *planner) installsItself(root string) bool {
	return slices.ContainsFunc(p.steps, func(s command.Command) bool {
		return s.Subproject == root && s.Phase == command.PhaseInstall
	})
}

// unscopeWorkspaceInstall lets a failed workspace install stop its members:
// when every step of the pipeline belongs to one Node workspace, the
// root's install step has no scope (a failure stops all), since no member
// can run its tests without it. With other subprojects in the pipeline it
// keeps the root's scope, so their tests still run.
func (p *planner) unscopeWorkspaceInstall() {
	for i := range p.steps {
		s := &p.steps[i]
		n := p.nodeInfo(s.Subproject)
		if s.Phase != command.PhaseInstall || n == nil || n.Workspace == nil || len(n.Workspace.Members) == 0 {
			continue
		}
		all := true
		for _, o := range p.steps {
			all = all && isNode(o.Runtime) && (o.Subproject == s.Subproject || s.Subproject == "." || strings.HasPrefix(o.Subproject, s.Subproject+"/"))
		}
		if all {
			s.FailureScope = ""
		}
	}
}

func isNode(runtime string) bool {
	return runtime == detect.RuntimeNode || runtime == detect.RuntimeTypeScript
}

// nodeInfo returns the Node facts of the subproject at root, nil when it is
// no Node project.
func (p *planner) nodeInfo(root string) *detect.NodeInfo {
	for _, sp := range p.caps.Subprojects {
		if sp.Root == root && sp.Node != nil {
			return sp.Node
		}
	}
	return nil
}
