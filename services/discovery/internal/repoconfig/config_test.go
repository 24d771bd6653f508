package repoconfig

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/greenlight-dev/greenlight/services/discovery/internal/command"
	"github.com/greenlight-dev/greenlight/services/discovery/internal/detect"
	"github.com/greenlight-dev/greenlight/services/discovery/internal/snapshot"
)

// load writes files into a temporary directory and loads its configuration
// through the same index the service builds.
func load(t *testing.T, files map[string]string) (*Config, error) {
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
	return Load(ix)
}

func TestConfigErrors(t *testing.T) {
	tests := []struct {
		name string
		file string
		body string
		line int
		key  string
		msg  string
	}{
		{"unknown top-level key", "greenlight.yaml", "version: 1\nstepz: []\n", 2, "stepz", "unknown key"},
		{"unknown step key", "greenlight.yaml", "steps:\n  - name: unit\n    command: make test\n    tymeout: 5m\n", 4, "steps[0].tymeout", "unknown key"},
		{"invalid duration", "greenlight.yaml", "steps:\n  - name: unit\n    command: make test\n    timeout: five minutes\n", 4, "steps[0].timeout", "invalid duration"},
		{"negative budget", "greenlight.yaml", "time_budget: -5m\n", 1, "time_budget", "must be positive"},
		{"invalid tier", "greenlight.yaml", "steps:\n  - name: unit\n    command: make test\n    tier: tier9\n", 4, "steps[0].tier", "unknown tier"},
		{"invalid phase", "greenlight.yaml", "steps:\n  - name: unit\n    command: make test\n    phase: deploy\n", 4, "steps[0].phase", "unknown phase"},
		{"invalid level", "greenlight.yaml", "steps:\n  - name: unit\n    command: make test\n    level: L1\n", 4, "steps[0].level", "unknown level"},
		{"network outside install", "greenlight.yaml", "steps:\n  - name: unit\n    command: make test\n    network: true\n", 4, "steps[0].network", "only install steps may have network"},
		{"duplicate step", "greenlight.yaml", "steps:\n  - name: unit\n    command: a\n  - name: unit\n    command: b\n", 4, "steps[1].name", "duplicate step name"},
		{"missing command", "greenlight.yaml", "steps:\n  - name: unit\n", 2, "steps[0].command", "missing"},
		{"workdir escapes", "greenlight.yaml", "steps:\n  - name: unit\n    command: a\n    workdir: ../other\n", 4, "steps[0].workdir", "inside the workspace"},
		{"bad env name", "greenlight.yaml", "steps:\n  - name: unit\n    command: a\n    env:\n      1BAD: x\n", 5, "steps[0].env.1BAD", "invalid environment variable name"},
		{"bad glob", "greenlight.yaml", "risk_triggers:\n  - name: x\n    patterns: [\"src/[a\"]\n", 3, "risk_triggers[0].patterns[0]", "invalid glob"},
		{"tier0 trigger", "greenlight.yaml", "risk_triggers:\n  - name: x\n    patterns: [a]\n    tier: tier0\n", 4, "risk_triggers[0].tier", "tier0 always runs"},
		{"wrong type", "greenlight.yaml", "patch:\n  allow: src/**\n", 2, "patch.allow", "want a list"},
		{"bad version", "greenlight.yaml", "version: 2\n", 1, "version", "unsupported version"},
		{"bad image reference", "greenlight.yaml", "images:\n  python: \"Python 3!\"\n", 2, "images.python", "invalid"},
		{"bad mode", "greenlight.yaml", "mode: append\n", 1, "mode", "unknown mode"},
		{"unknown timeout phase", "greenlight.yaml", "timeouts:\n  deploy: 5m\n", 2, "timeouts.deploy", "unknown key"},
		{"duplicate tier assignment", "greenlight.yaml", "tiers:\n  tier0: [a]\n  tier1: [a]\n", 3, "tiers.tier1[0]", "already assigned"},
		{"yaml syntax", "greenlight.yaml", "steps:\n  - name: a\n    command: echo a: b: c\n", 3, "", "mapping values are not allowed"},
		{"agent unknown step key", "agent.yaml", "verification:\n  steps:\n    - name: test\n      command: npm test\n      cwd: web\n", 5, "verification.steps[0].cwd", "unknown key"},
		{"agent unknown verification key", "agent.yaml", "verification:\n  stepz: []\n", 2, "verification.stepz", "unknown key"},
		{"agent empty command", "agent.yaml", "verification:\n  steps:\n    - name: test\n      command: \"\"\n", 4, "verification.steps[0].command", "must not be empty"},
		{"runr unknown key", "runr.config.json", "{\n  \"verification\": {\n    \"tier0\": [\"make\"],\n    \"tier3\": [\"x\"]\n  }\n}\n", 4, "verification.tier3", "unknown key"},
		{"runr bad budget", "runr.config.json", "{\"verification\": {\n \"max_verify_time_per_milestone\": \"ten\"}}\n", 2, "verification.max_verify_time_per_milestone", "whole number of seconds"},
		{"runr negative budget", "runr.config.json", "{\"verification\": {\n \"max_verify_time_per_milestone\": -1}}\n", 2, "verification.max_verify_time_per_milestone", "positive"},
		{"runr trigger tier", "runr.config.json", "{\"verification\": {\"risk_triggers\": [\n {\"name\": \"x\", \"patterns\": [\"a\"],\n  \"tier\": \"tier7\"}]}}\n", 3, "verification.risk_triggers[0].tier", "unknown tier"},
		{"runr trigger unknown key", "runr.config.json", "{\"verification\": {\"risk_triggers\": [\n {\"name\": \"x\", \"globs\": [\"a\"]}]}}\n", 2, "verification.risk_triggers[0].globs", "unknown key"},
		{"runr json syntax", "runr.config.json", "{\n  \"verification\": {\n    \"tier0\": [\"make\",]\n  }\n}\n", 3, "", "invalid JSON"},
		{"runr duplicate key", "runr.config.json", "{\"verification\": {\n\"tier0\": [],\n\"tier0\": []}}\n", 3, "verification.tier0", "duplicate key"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := load(t, map[string]string{tt.file: tt.body})
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("err = %v, want ErrInvalid", err)
			}
			var ce *Error
			if !errors.As(err, &ce) {
				t.Fatalf("err %T is not *Error", err)
			}
			if ce.File != tt.file || ce.Line != tt.line || ce.Key != tt.key || !strings.Contains(ce.Msg, tt.msg) {
				t.Fatalf("got file=%q line=%d key=%q msg=%q\nwant file=%q line=%d key=%q msg~%q", ce.File, ce.Line, ce.Key, ce.Msg, tt.file, tt.line, tt.key, tt.msg)
			}
			if want := tt.file + ":"; !strings.HasPrefix(err.Error(), want) {
				t.Fatalf("message %q does not start with %q", err, want)
			}
		})
	}
}

func TestGreenlightYAML(t *testing.T) {
	cfg, err := load(t, map[string]string{"greenlight.yaml": `
version: 1
mode: merge
time_budget: 90
timeouts: {test: 3m, install: 20m}
images: {python: "python:3.12-slim"}
default_risk_triggers: false
risk_triggers:
  - name: payments
    patterns: ["app/payments/**"]
    tier: tier2
patch:
  allow: ["app/**"]
tiers:
  tier2: [go-test]
steps:
  - name: deps
    command: pip install -r requirements.txt
    cache_key_files: [requirements.txt]
    cache_paths: [.venv]
  - name: vendored-deps
    command: go mod vendor
    phase: install
    network: false
  - name: unit
    command: pytest -q
    workdir: ./app
    timeout: 2m
    env: {APP_ENV: test}
    continue_on_failure: true
    group: checks
  - name: docs
    command: echo docs
    optional: true
`})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Mode != ModeMerge || cfg.TimeBudget != 90*time.Second || !cfg.NoDefaultTriggers {
		t.Fatalf("mode=%q budget=%v nodefault=%v", cfg.Mode, cfg.TimeBudget, cfg.NoDefaultTriggers)
	}
	if cfg.Timeouts[command.PhaseTest] != 3*time.Minute || cfg.Timeouts[command.PhaseInstall] != 20*time.Minute || cfg.Images["python"] != "python:3.12-slim" {
		t.Fatalf("timeouts=%v images=%v", cfg.Timeouts, cfg.Images)
	}
	if len(cfg.Triggers) != 1 || cfg.Triggers[0].Tier != command.Tier2 || cfg.Triggers[0].Source != "greenlight.yaml:9" {
		t.Fatalf("triggers = %+v", cfg.Triggers)
	}
	if a := cfg.Tiers["go-test"]; a.Tier != command.Tier2 || a.Line != 15 {
		t.Fatalf("tiers = %+v", cfg.Tiers)
	}
	if len(cfg.Steps) != 4 {
		t.Fatalf("steps = %+v", cfg.Steps)
	}
	deps, vendored, unit, docs := cfg.Steps[0], cfg.Steps[1], cfg.Steps[2], cfg.Steps[3]
	if deps.Phase != command.PhaseInstall || !deps.Network || deps.CachePaths[0] != ".venv" || deps.Source.Line != 17 || deps.Source.Origin != command.OriginGreenlight {
		t.Fatalf("deps = %+v", deps)
	}
	if vendored.Network {
		t.Fatalf("an install step may opt out of network: %+v", vendored)
	}
	if unit.Phase != command.PhaseTest || unit.Level != command.LevelL4 || unit.Workdir != "app" || unit.Timeout != 2*time.Minute ||
		unit.Env["APP_ENV"] != "test" || !unit.ContinueOnFailure || unit.Group != "checks" || unit.Network {
		t.Fatalf("unit = %+v", unit)
	}
	if docs.Phase != command.PhaseUnspecified || docs.Level != command.LevelUnspecified || !docs.Optional {
		t.Fatalf("docs = %+v", docs)
	}
	if len(cfg.Notes) != 1 || !strings.Contains(cfg.Notes[0], `step "docs": phase not recognised`) {
		t.Fatalf("notes = %q", cfg.Notes)
	}
}

func TestAgentYAMLPhases(t *testing.T) {
	cfg, err := load(t, map[string]string{"agent.yaml": `
agent: {model: x}
verification:
  steps:
    - name: setup
      command: pip install -r requirements.txt
    - name: typecheck
      command: npm run typecheck
    - name: check
      command: go vet ./...
    - name: compile
      command: go build ./...
    - name: unit
      command: pytest -q
    - command: python3 -m app --help
`})
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		name    string
		phase   command.Phase
		network bool
	}{
		{"setup", command.PhaseInstall, true}, {"typecheck", command.PhaseTypecheck, false},
		{"check", command.PhaseLint, false}, {"compile", command.PhaseBuild, false},
		{"unit", command.PhaseTest, false}, {"python3-m-app-help", command.PhaseSmoke, false},
	}
	if len(cfg.Steps) != len(want) {
		t.Fatalf("steps = %+v", cfg.Steps)
	}
	for i, w := range want {
		s := cfg.Steps[i]
		if s.Name != w.name || s.Phase != w.phase || s.Network != w.network || s.Tier != command.Tier0 || s.Source.Origin != command.OriginAgent {
			t.Errorf("step %d = %s %v net=%v tier=%v, want %s %v net=%v", i, s.Name, s.Phase, s.Network, s.Tier, w.name, w.phase, w.network)
		}
	}
}

func TestRunrConfig(t *testing.T) {
	cfg, err := load(t, map[string]string{"runr.config.json": `{
  "agent": {"anything": ["goes", 1, true, null]},
  "verification": {
    "tier0": ["pnpm install", "pnpm lint"],
    "tier1": ["pnpm test"],
    "tier2": ["pnpm test"],
    "risk_triggers": [{"name": "deps", "patterns": ["package.json"], "tier": "tier2"}],
    "max_verify_time_per_milestone": 600
  }
}`})
	if err != nil {
		t.Fatal(err)
	}
	got := []string{}
	for _, s := range cfg.Steps {
		got = append(got, s.Name+"/"+s.Tier.String()+"/"+s.Phase.String())
	}
	want := "pnpm-install/tier0/install pnpm-lint/tier0/lint pnpm-test/tier1/test pnpm-test-2/tier2/test"
	if strings.Join(got, " ") != want {
		t.Fatalf("steps = %q, want %q", strings.Join(got, " "), want)
	}
	if cfg.Steps[2].Source.Line != 5 || cfg.Steps[2].Source.Key != "verification.tier1[0]" {
		t.Fatalf("source = %+v", cfg.Steps[2].Source)
	}
	if cfg.TimeBudget != 10*time.Minute || len(cfg.Triggers) != 1 || cfg.Triggers[0].Tier != command.Tier2 {
		t.Fatalf("budget=%v triggers=%+v", cfg.TimeBudget, cfg.Triggers)
	}
}

func TestPrecedenceAcrossFiles(t *testing.T) {
	cfg, err := load(t, map[string]string{
		"greenlight.yaml":  "time_budget: 2m\nsteps:\n  - name: unit\n    command: make test\n",
		"agent.yaml":       "verification:\n  steps:\n    - name: lint\n      command: make lint\n",
		"runr.config.json": `{"verification": {"tier0": ["make build"], "max_verify_time_per_milestone": 30}}`,
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Steps) != 1 || cfg.Steps[0].Name != "unit" || len(cfg.Extra) != 2 {
		t.Fatalf("steps=%+v extra=%+v", cfg.Steps, cfg.Extra)
	}
	if cfg.TimeBudget != 2*time.Minute {
		t.Fatalf("greenlight.yaml's budget must win, got %v", cfg.TimeBudget)
	}
	if len(cfg.Files) != 3 || len(cfg.Notes) != 2 {
		t.Fatalf("files=%v notes=%q", cfg.Files, cfg.Notes)
	}
}

func TestEmptyGreenlightYAML(t *testing.T) {
	cfg, err := load(t, map[string]string{"greenlight.yaml": "# nothing yet\n"})
	if err != nil || len(cfg.Files) != 1 || len(cfg.Steps) != 0 {
		t.Fatalf("cfg=%+v err=%v", cfg, err)
	}
}
