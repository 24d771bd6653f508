package capability_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/greenlight-dev/greenlight/services/discovery/internal/capability"
	"github.com/greenlight-dev/greenlight/services/discovery/internal/command"
	"github.com/greenlight-dev/greenlight/services/discovery/internal/repoconfig"
)

// pyLinted is a Python project that configures ruff and mypy and has tests.
var pyLinted = map[string]string{
	"pyproject.toml":    "[project]\nname = \"app\"\nversion = \"0\"\n\n[tool.ruff]\nline-length = 100\n\n[tool.mypy]\nstrict = true\n",
	"app/__init__.py":   "",
	"tests/test_a.py":   "def test_a():\n    assert True\n",
	"tests/conftest.py": "",
}

func commandsByName(c *capability.Capabilities) map[string]command.Command {
	out := map[string]command.Command{}
	for _, cmd := range c.Commands {
		out[cmd.Name] = cmd
	}
	return out
}

func TestDiscoveredLintIsAdvisory(t *testing.T) {
	c, err := build(t, pyLinted, capability.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cmds := commandsByName(c)
	for _, name := range []string{"ruff", "mypy"} {
		if cmd, ok := cmds[name]; !ok || !cmd.Optional {
			t.Errorf("%s: want a discovered advisory step, got %+v (found %v)", name, cmd, ok)
		}
	}
	for _, cmd := range c.Commands {
		if !command.Advisory(cmd.Phase) && cmd.Optional {
			t.Errorf("%s (%s) is advisory; only lint and typecheck are", cmd.Name, cmd.Phase)
		}
	}
	if cmd, ok := cmds["pytest"]; !ok || cmd.Optional {
		t.Errorf("pytest must be required: %+v", cmd)
	}
}

func TestConfigPromotesAndDemotes(t *testing.T) {
	files := map[string]string{"greenlight.yaml": "mode: merge\nrequired: [ruff]\nadvisory:\n  - pytest\n"}
	for k, v := range pyLinted {
		files[k] = v
	}
	c, err := build(t, files, capability.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cmds := commandsByName(c)
	if cmds["ruff"].Optional || !cmds["mypy"].Optional || !cmds["pytest"].Optional {
		t.Fatalf("ruff optional=%v (want false), mypy optional=%v (want true), pytest optional=%v (want true)",
			cmds["ruff"].Optional, cmds["mypy"].Optional, cmds["pytest"].Optional)
	}
	if rb := cmds["ruff"].RequiredBy; rb == nil || rb.Origin != command.OriginGreenlight || rb.File != "greenlight.yaml" {
		t.Fatalf("ruff's RequiredBy = %+v, want the greenlight.yaml entry", rb)
	}
	if cmds["pytest"].RequiredBy != nil {
		t.Fatalf("demoted pytest keeps RequiredBy %+v", cmds["pytest"].RequiredBy)
	}
}

func TestRequiredListErrors(t *testing.T) {
	tests := []struct {
		name, yaml, key, msg string
		line                 int
	}{
		{"unknown step", "required:\n  - ruff\n  - ruf\n", "required[1]", `unknown step "ruf"`, 3},
		{"listed twice", "required: [ruff]\nadvisory: [ruff]\n", "advisory[0]", `step "ruff" is already listed at line 1`, 2},
		{"not a list", "advisory: ruff\n", "advisory", "want a list", 1},
		{"misspelled key", "requried: [ruff]\n", "requried", "unknown key", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files := map[string]string{"greenlight.yaml": tt.yaml}
			for k, v := range pyLinted {
				files[k] = v
			}
			_, err := build(t, files, capability.Options{})
			var ce *repoconfig.Error
			if !errors.As(err, &ce) || ce.File != "greenlight.yaml" || ce.Line != tt.line || ce.Key != tt.key || !strings.Contains(ce.Msg, tt.msg) {
				t.Fatalf("err = %v (%+v)", err, ce)
			}
		})
	}
}

// TestConfiguredPipInstallDropsTheFallback: a merge-mode step named
// pip-install replaces the discovered one, and pip-fallback, which only
// reads the discovered step's log, goes with it (it would run first and
// find no venv).
func TestConfiguredPipInstallDropsTheFallback(t *testing.T) {
	files := map[string]string{
		"setup.py": "", "app/__init__.py": "", "tests/test_a.py": "",
		"greenlight.yaml": "mode: merge\nsteps:\n  - name: pip-install\n    command: python3 -m venv .venv && .venv/bin/python -m pip install -e .\n",
	}
	c, err := build(t, files, capability.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cmds := commandsByName(c)
	if _, ok := cmds["pip-fallback"]; ok {
		t.Errorf("pip-fallback kept next to a configured pip-install: %v", cmds["pip-fallback"].Command)
	}
	if cmd := cmds["pip-install"]; cmd.Source.Origin != command.OriginGreenlight || cmd.Optional {
		t.Errorf("pip-install = %+v, want the configured, required step", cmd)
	}
	delete(files, "greenlight.yaml")
	c, err = build(t, files, capability.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := commandsByName(c)["pip-fallback"]; !ok {
		t.Error("no pip-fallback without configuration")
	}
}
