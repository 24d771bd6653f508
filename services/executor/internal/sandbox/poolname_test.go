package sandbox

import (
	"context"
	"errors"
	"regexp"
	"testing"

	"go.uber.org/zap"
)

// createRecorder records the spec of every Create and refuses it.
type createRecorder struct {
	Runtime
	specs []ContainerSpec
}

func (c *createRecorder) Create(_ context.Context, spec ContainerSpec) (string, error) {
	c.specs = append(c.specs, spec)
	return "", errors.New("refused by the test")
}

// Pooled containers have readable names saying what they are and which
// image they hold, unique per container, in what the engine accepts.
func TestPoolContainerNames(t *testing.T) {
	valid := regexp.MustCompile(`^[a-zA-Z0-9][a-zA-Z0-9_.-]+$`)
	tests := []struct{ ref, prefix string }{
		{"greenlight/sandbox-python:latest", "greenlight-pool-sandbox-python-"},
		{"greenlight/sandbox-go", "greenlight-pool-sandbox-go-"},
		{"python:3.12-slim", "greenlight-pool-python-3.12-slim-"},
		{"registry.example:5000/team/node:20@sha256:0123abcd", "greenlight-pool-node-20-"},
		{"@@@", "greenlight-pool-image-"},
	}
	for _, tc := range tests {
		a, b := poolContainerName(tc.ref), poolContainerName(tc.ref)
		if !regexp.MustCompile("^"+regexp.QuoteMeta(tc.prefix)+"[0-9a-f]{8}$").MatchString(a) || !valid.MatchString(a) {
			t.Errorf("%s: name %q, want %s and 8 hex digits", tc.ref, a, tc.prefix)
		}
		if a == b {
			t.Errorf("%s: two pooled containers named alike: %q", tc.ref, a)
		}
	}

	rt := &createRecorder{}
	p := NewPool(rt, DefaultConfig(), Identity{}, 1, zap.NewNop())
	defer p.Close()
	if _, err := p.create(ImageInfo{Ref: "greenlight/sandbox-python:latest", ID: "sha256:x"}); err == nil {
		t.Fatal("create succeeded on a runtime that refuses")
	}
	if len(rt.specs) != 1 || !regexp.MustCompile(`^greenlight-pool-sandbox-python-[0-9a-f]{8}$`).MatchString(rt.specs[0].Name) {
		t.Errorf("the pool created %+v, want a container named greenlight-pool-sandbox-python-…", rt.specs)
	}
}
