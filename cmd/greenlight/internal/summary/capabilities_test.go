package summary

import (
	"bytes"
	"strings"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

func TestCapabilitiesListing(t *testing.T) {
	long := "python3 -P -m venv .venv && " + strings.Repeat("{ .venv/bin/python -P -m pip install -r requirements.txt; } && ", 20) + "touch done"
	caps := &glv1.Capabilities{
		MaxLevel: glv1.Level_LEVEL_L4,
		Subprojects: []*glv1.Subproject{{Root: ".", Runtime: "python", PackageManager: "pip", TestFrameworks: []string{"pytest"},
			Image: "greenlight/sandbox-python:latest", HasTests: true}},
		Commands: []*glv1.Step{
			{Name: "pip-install", Phase: glv1.Phase_PHASE_INSTALL, Tier: glv1.Tier_TIER_0, Command: long, Optional: true,
				Source: &glv1.CommandSource{File: "requirements.txt", Origin: "default"}},
			{Name: "pytest", Phase: glv1.Phase_PHASE_TEST, Tier: glv1.Tier_TIER_0, Level: glv1.Level_LEVEL_L4,
				Command: "python3 -P -c 'launcher' pytest -rA", DisplayCommand: "python3 -m pytest -rA",
				Source: &glv1.CommandSource{File: "pyproject.toml", Line: 6, Origin: "discovered"}},
			{Name: "web:lint", Phase: glv1.Phase_PHASE_LINT, Tier: glv1.Tier_TIER_1, Level: glv1.Level_LEVEL_L2, Workdir: "web",
				Command: "npm run lint", Source: &glv1.CommandSource{File: ".github/workflows/ci.yml", Line: 12, Origin: "ci"}},
		},
		RiskTriggers: []*glv1.RiskTrigger{{Name: "dependencies"}, {Name: "auth"}},
		Notes:        []string{"uv.lock: installed with pip"},
	}
	var b bytes.Buffer
	Capabilities(&b, caps, "svc")
	out := b.String()
	for _, want := range []string{
		"svc: 1 subproject(s), 3 command(s), up to L4\n",
		"  .: python, pip, pytest (image greenlight/sandbox-python:latest)\n",
		"TIER  PHASE    STEP",
		"0     INSTALL  pip-install (advisory)",
		"python3 -P -m venv .venv && { .venv/bin/python -P -m pip install",
		"0     TEST     pytest                  L4     python3 -m pytest -rA",
		"pyproject.toml:6",
		"1     LINT     web:lint                L2     cd web && npm run lint",
		".github/workflows/ci.yml:12 (CI)",
		"risk trigger (dependencies, auth)",
		"  - uv.lock: installed with pip\n",
		"greenlight discover --json",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("listing lacks %q:\n%s", want, out)
		}
	}
	for _, line := range strings.Split(out, "\n") {
		if len(line) > 250 {
			t.Errorf("a line of %d bytes (a command not shortened?): %.120s…", len(line), line)
		}
	}
	if strings.Contains(out, "'launcher'") {
		t.Errorf("the listing shows the command that runs instead of its display_command:\n%s", out)
	}

	b.Reset()
	Capabilities(&b, &glv1.Capabilities{}, "empty")
	if !strings.Contains(b.String(), "No command found") {
		t.Errorf("an empty workspace:\n%s", b.String())
	}
}
