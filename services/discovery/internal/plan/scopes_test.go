package plan

import (
	"testing"

	"github.com/greenlight-dev/greenlight/services/discovery/internal/capability"
	"github.com/greenlight-dev/greenlight/services/discovery/internal/command"
	"github.com/greenlight-dev/greenlight/services/discovery/internal/detect"
)

// TestFailureScopes: each independent subproject of a discovered pipeline
// gets its own failure scope; Node workspace members share the root's
// (they depend on its install); one scope or a configured pipeline gets
// none (the executor's stop-at-first-failure stays as it was).
func TestFailureScopes(t *testing.T) {
	scopes := func(p *Pipeline) map[string]string {
		out := map[string]string{}
		for _, s := range p.Steps {
			out[s.Name] = s.FailureScope
		}
		return out
	}
	p, err := Make(goCaps(), Request{})
	if err != nil {
		t.Fatal(err)
	}
	got := scopes(p)
	if got["go-test"] != "." || got["go-mod-download"] != "." || got["tools:pip-install"] != "tools" || got["tools:compileall"] != "tools" {
		t.Errorf("scopes = %v, want the root's steps in \".\" and tools' in \"tools\"", got)
	}
	if !hasNote(p, "independent subprojects (., tools)") {
		t.Errorf("notes = %q", p.Notes)
	}

	node := goCaps()
	node.Subprojects = []capability.Subproject{
		{Subproject: detect.Subproject{Root: ".", Runtime: "node"}, ImageRuntime: "node"},
		{Subproject: detect.Subproject{Root: "packages/a", Runtime: "typescript"}, ImageRuntime: "node"},
	}
	node.Commands = []command.Command{
		{Name: "npm-install", Phase: command.PhaseInstall, Command: "npm ci", Subproject: ".", Runtime: "node", Workdir: "."},
		{Name: "packages/a:npm-test", Phase: command.PhaseTest, Level: command.LevelL4, Command: "npm test", Subproject: "packages/a", Runtime: "typescript", Workdir: "packages/a"},
	}
	node.Default = map[string]bool{"npm-install": true, "packages/a:npm-test": true}
	p, err = Make(node, Request{})
	if err != nil {
		t.Fatal(err)
	}
	for name, scope := range scopes(p) {
		if scope != "" {
			t.Errorf("workspace member: %s has scope %q, want none (one scope)", name, scope)
		}
	}

	conf := goCaps()
	conf.Configured = true
	p, err = Make(conf, Request{})
	if err != nil {
		t.Fatal(err)
	}
	for name, scope := range scopes(p) {
		if scope != "" {
			t.Errorf("configured pipeline: %s has scope %q, want none", name, scope)
		}
	}
}
