package capability_test

import (
	"strings"
	"testing"

	"github.com/greenlight-dev/greenlight/pkg/pylaunch"
	"github.com/greenlight-dev/greenlight/services/discovery/internal/capability"
	"github.com/greenlight-dev/greenlight/services/discovery/internal/plan"
)

// Configured and CI commands that run `python -m pytest` (or pip) run them
// as discovery's own steps do, so a workspace pytest/ never replaces the
// tool; the command as written is the display, and selecting it by that
// text still works.
func TestConfiguredPythonToolsCannotBeShadowed(t *testing.T) {
	files := map[string]string{
		"greenlight.yaml": "steps:\n  - name: unit\n    command: python3 -m pytest -q tests\n" +
			"  - name: deps\n    command: python3 -m venv .venv && .venv/bin/python -m pip install -r requirements.txt\n" +
			"  - name: shellout\n    command: sh -c \"python3 -m pytest\"\n",
		".github/workflows/ci.yml": "on: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - run: python -m pytest tests/unit\n",
		"requirements.txt":         "\n",
		"tests/test_x.py":          "def test_x():\n    pass\n",
	}
	c, err := build(t, files, capability.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cmds := commandsByName(c)
	unit := cmds["unit"]
	if f, ok := pylaunch.Find(unit.Command); !ok || f.Tool != "pytest" || unit.Display != "python3 -m pytest -q tests" {
		t.Errorf("unit: command %q display %q, want the launcher shown as written", pylaunch.Readable(unit.Command), unit.Display)
	}
	if deps := cmds["deps"]; deps.Command != "python3 -P -m venv .venv && .venv/bin/python -P -m pip install -r requirements.txt" {
		t.Errorf("deps: %q", deps.Command)
	}
	if sh := cmds["shellout"]; sh.Command != `sh -c "python3 -m pytest"` || sh.Display != "" {
		t.Errorf("a quoted command was rewritten: %q", sh.Command)
	}
	var ci string
	for _, cmd := range c.Commands {
		if strings.HasPrefix(cmd.Name, "ci:") && strings.Contains(cmd.Display, "tests/unit") {
			ci = cmd.Command
		}
	}
	if f, ok := pylaunch.Find(ci); !ok || f.Tool != "pytest" {
		t.Errorf("the CI command is not launched: %q (commands %v)", ci, commandsByName(c))
	}
	p, err := plan.Make(c, plan.Request{Selection: []plan.Selection{{Command: "python3 -m pytest -q tests"}}})
	if err != nil || len(p.Steps) == 0 || p.Steps[len(p.Steps)-1].Name != "unit" {
		t.Errorf("selecting the command as written: %v %v", p, err)
	}
}
