package repoconfig

import (
	"os"
	"strings"
	"testing"

	"github.com/greenlight-dev/greenlight/services/discovery/internal/command"
)

// TestConfigDocExample keeps the greenlight.yaml example in CONFIG.md valid.
func TestConfigDocExample(t *testing.T) {
	doc, err := os.ReadFile("../../CONFIG.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(doc), "```yaml\n")
	example, _, ok2 := strings.Cut(rest, "```")
	if !ok || !ok2 {
		t.Fatal("CONFIG.md has no yaml example")
	}
	cfg, err := load(t, map[string]string{"greenlight.yaml": example})
	if err != nil {
		t.Fatalf("the CONFIG.md example does not load: %v", err)
	}
	if len(cfg.Steps) != 3 || cfg.Steps[2].Phase != command.PhaseSmoke || cfg.Steps[0].Phase != command.PhaseInstall || len(cfg.Triggers) != 1 {
		t.Fatalf("example decoded as %+v", cfg)
	}
}
