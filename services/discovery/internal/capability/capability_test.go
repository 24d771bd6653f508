package capability_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/greenlight-dev/greenlight/pkg/toolchain/rust"
	"github.com/greenlight-dev/greenlight/services/discovery/internal/capability"
	"github.com/greenlight-dev/greenlight/services/discovery/internal/command"
	"github.com/greenlight-dev/greenlight/services/discovery/internal/detect"
	"github.com/greenlight-dev/greenlight/services/discovery/internal/repoconfig"
	"github.com/greenlight-dev/greenlight/services/discovery/internal/snapshot"
)

func build(t *testing.T, files map[string]string, opts capability.Options) (*capability.Capabilities, error) {
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
	return capability.Build(ix, opts)
}

const goMod = "module x\n\ngo 1.22\n"

func TestTiersNamingUnknownStep(t *testing.T) {
	_, err := build(t, map[string]string{"go.mod": goMod, "greenlight.yaml": "tiers:\n  tier1:\n    - go-build\n    - go-bild\n"}, capability.Options{})
	var ce *repoconfig.Error
	if !errors.As(err, &ce) || !errors.Is(err, repoconfig.ErrInvalid) || ce.Line != 4 || ce.Key != "tiers.tier1[1]" || !strings.Contains(ce.Msg, `unknown step "go-bild"`) {
		t.Fatalf("err = %v", err)
	}
}

func TestConfiguredStepsAndModes(t *testing.T) {
	files := map[string]string{
		"go.mod": goMod, "a_test.go": "package x",
		"web/package.json": `{"scripts": {"test": "node --test"}}`,
		"greenlight.yaml": `
timeouts: {build: 1m}
tiers: {tier1: [go-vet]}
steps:
  - name: go-test
    command: go test -race ./...
  - name: web-smoke
    command: node -e 1
    workdir: web
    phase: smoke
`,
	}
	caps, err := build(t, files, capability.Options{})
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]command.Command{}
	for _, c := range caps.Commands {
		byName[c.Name] = c
	}
	if got := byName["go-test"]; got.Command != "go test -race ./..." || got.Source.Origin != command.OriginGreenlight {
		t.Fatalf("a configured step replaces the discovered command of the same name: %+v", got)
	}
	if got := byName["web-smoke"]; got.Subproject != "web" || got.Runtime != "node" {
		t.Fatalf("configured step belongs to the subproject of its workdir: %+v", got)
	}
	if byName["go-vet"].Tier != command.Tier1 || byName["go-build"].Timeout != time.Minute || byName["go-test"].Timeout != 10*time.Minute {
		t.Fatalf("retier/timeouts: vet=%v build=%v test=%v", byName["go-vet"].Tier, byName["go-build"].Timeout, byName["go-test"].Timeout)
	}
	if !caps.Configured || !caps.Default["go-test"] || !caps.Default["web-smoke"] || caps.Default["go-build"] {
		t.Fatalf("replace mode: only configured steps are default: %v", caps.Default)
	}
	files["greenlight.yaml"] = "mode: merge\n" + files["greenlight.yaml"]
	caps, err = build(t, files, capability.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !caps.Default["go-build"] || !caps.Default["web:npm-test"] || !caps.Default["web-smoke"] {
		t.Fatalf("merge mode: discovered and configured are default: %v", caps.Default)
	}
}

func TestImages(t *testing.T) {
	files := map[string]string{"go.mod": goMod, "svc/Cargo.toml": "[package]\nname = \"r\"\n", "rb/Gemfile": "",
		"greenlight.yaml": "images:\n  go: golang:1.22\n"}
	caps, err := build(t, files, capability.Options{Images: map[string]string{"go": "server-go", "rust": "my-rust"}, AllowedImages: []string{"golang:1.22"}})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, sp := range caps.Subprojects {
		got[sp.Root] = sp.Image
	}
	if got["."] != "golang:1.22" || got["svc"] != "my-rust" || got["rb"] != "" {
		t.Fatalf("images = %v (greenlight.yaml > server > defaults)", got)
	}
	if !slices.ContainsFunc(caps.Notes, func(n string) bool { return strings.Contains(n, `no sandbox image configured for runtime "ruby"`) }) {
		t.Fatalf("notes = %q", caps.Notes)
	}
	caps, err = build(t, map[string]string{"Cargo.toml": "[package]\nname = \"r\"\n"}, capability.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// Rust has an offline image now: no note saying it must be pulled.
	if caps.Subprojects[0].Image != rust.OfflineImage || slices.ContainsFunc(caps.Notes, func(n string) bool { return strings.Contains(n, "upstream image") }) {
		t.Fatalf("rust: %q %q", caps.Subprojects[0].Image, caps.Notes)
	}
}

func TestTriggersAndBudget(t *testing.T) {
	caps, err := build(t, map[string]string{"go.mod": goMod, "greenlight.yaml": "default_risk_triggers: false\ntime_budget: 3m\nrisk_triggers:\n  - name: db\n    patterns: [\"db/**\"]\n"}, capability.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(caps.Triggers) != 1 || caps.Triggers[0].Name != "db" || caps.Triggers[0].Tier != command.Tier1 || caps.TimeBudget != 3*time.Minute {
		t.Fatalf("triggers=%+v budget=%v", caps.Triggers, caps.TimeBudget)
	}
	caps, err = build(t, map[string]string{"go.mod": goMod}, capability.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(caps.Triggers) != 4 || caps.TimeBudget != capability.DefaultTimeBudget {
		t.Fatalf("defaults: triggers=%d budget=%v", len(caps.Triggers), caps.TimeBudget)
	}
}

func TestLintOnlyWorkspaceSaysSo(t *testing.T) {
	caps, err := build(t, map[string]string{"greenlight.yaml": "steps:\n  - name: lint\n    command: make lint\n"}, capability.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if caps.MaxLevel != command.LevelL2 || !slices.ContainsFunc(caps.Notes, func(n string) bool { return strings.Contains(n, "no command reaches L3") }) {
		t.Fatalf("max=%v notes=%q", caps.MaxLevel, caps.Notes)
	}
}
