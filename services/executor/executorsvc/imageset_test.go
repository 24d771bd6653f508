package executorsvc

import (
	"strings"
	"testing"

	"github.com/greenlight-dev/greenlight/pkg/image"
)

// TestImageSet: --images upstream selects pkg/image.Upstream for every
// runtime (aliases included) and pulls missing images; offline is the
// default table without pulling; an unknown set name is refused.
func TestImageSet(t *testing.T) {
	cfg := DefaultConfig("")
	cfg.Images = []string{image.SetUpstream}
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	table, _ := cfg.imageTable()
	up := image.Upstream()
	for rt, want := range map[string]string{"go": up[image.Go], "python": up[image.Python], "node": up[image.Node], "typescript": up[image.Node]} {
		if table[rt] != want {
			t.Errorf("upstream table[%s] = %q, want %q", rt, table[rt], want)
		}
	}
	if !cfg.sandboxConfig().PullMissing || !cfg.allowList().Allows(up[image.Python]) {
		t.Errorf("upstream: pull %v, allow-list %s", cfg.sandboxConfig().PullMissing, cfg.allowList())
	}

	cfg.Images = []string{image.SetOffline}
	table, _ = cfg.imageTable()
	if table["python"] != image.OfflinePython || cfg.sandboxConfig().PullMissing {
		t.Errorf("offline: table %v, pull %v", table, cfg.sandboxConfig().PullMissing)
	}
	if def := DefaultConfig(""); def.sandboxConfig().PullMissing {
		t.Error("the default configuration pulls images")
	}

	cfg.Images = []string{"dockerhub"}
	if err := cfg.Validate(); err == nil || !strings.Contains(err.Error(), `unknown image set "dockerhub"`) {
		t.Errorf("Validate(--images dockerhub) = %v", err)
	}
}
