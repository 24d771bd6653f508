package plan

import (
	"fmt"
	"slices"
	"strings"

	"github.com/greenlight-dev/greenlight/services/discovery/internal/detect"
)

// scopes makes the independent subprojects of a discovered pipeline run
// to their own first failure: each step gets its subproject's failure
// scope, so a failing web/ build no longer skips the root module's tests
// (the executor stops only the failed scope). A Node subproject nested in
// another Node project shares its scope: workspace members depend on the
// root's install. A configured pipeline keeps the order and the
// stop-at-first-failure its file states, and a pipeline of one scope needs
// none.
func (p *planner) scopes() {
	if p.caps.Configured && len(p.req.Selection) == 0 {
		return
	}
	var names []string
	for i := range p.steps {
		s := &p.steps[i]
		if s.Subproject == "" {
			continue
		}
		s.FailureScope = p.scopeOf(s.Subproject, s.Runtime)
		if !slices.Contains(names, s.FailureScope) {
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

// scopeOf is a subproject's root, or for a Node project nested in another
// Node project the outermost one's root.
func (p *planner) scopeOf(root, runtime string) string {
	if runtime != detect.RuntimeNode && runtime != detect.RuntimeTypeScript {
		return root
	}
	scope := root
	for _, sp := range p.caps.Subprojects {
		node := sp.Runtime == detect.RuntimeNode || sp.Runtime == detect.RuntimeTypeScript
		if node && len(sp.Root) < len(scope) && (sp.Root == "." || strings.HasPrefix(root, sp.Root+"/")) {
			scope = sp.Root
		}
	}
	return scope
}
