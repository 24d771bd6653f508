package image

import (
	"maps"
	"strings"
	"testing"
)

func TestSet(t *testing.T) {
	for name, want := range map[string]Table{"": Defaults(), SetOffline: Defaults(), SetUpstream: Defaults().Merge(Upstream())} {
		got, err := Set(name)
		if err != nil || !maps.Equal(got, want) {
			t.Errorf("Set(%q) = %v, %v; want %v", name, got, err, want)
		}
	}
	up, _ := Set(SetUpstream)
	for rt, ref := range Upstream() {
		if up[rt] != ref {
			t.Errorf("upstream set: %s = %q, want %q", rt, up[rt], ref)
		}
	}
	if _, err := Set("docker-hub"); err == nil || !strings.Contains(err.Error(), `"docker-hub"`) ||
		!strings.Contains(err.Error(), "offline") || !strings.Contains(err.Error(), "upstream") {
		t.Errorf("Set(docker-hub) error = %v", err)
	}
}
