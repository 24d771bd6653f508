package discoverysvc

import (
	"path/filepath"
	"testing"

	"github.com/greenlight-dev/greenlight/services/discovery/internal/capability"
	"github.com/greenlight-dev/greenlight/services/discovery/internal/plan"
)

// TestRuntimeImages pins issue 12's image choice per step: shell steps of
// no detected runtime run in the generic image (before, the pipeline had
// no image: `runtime "" has no configured image`), C/C++ in the C/C++
// image, and each subproject of a polyglot repository in its own runtime.
func TestRuntimeImages(t *testing.T) {
	tests := []struct {
		fixture string
		runtime string // the pipeline's
		images  map[string]string
	}{
		{"agent-yaml-shell", "generic", map[string]string{"build": "greenlight/sandbox-generic:latest", "test": "greenlight/sandbox-generic:latest"}},
		{"c-make", "cpp", map[string]string{"make-test": "greenlight/sandbox-cpp:latest"}},
		{"cmake-ctest", "cpp", map[string]string{"ctest": "greenlight/sandbox-cpp:latest"}},
		{"polyglot", "go", map[string]string{
			"api:go-test": "greenlight/sandbox-go:latest", "web:npm-test": "greenlight/sandbox-node:latest",
			"py:pytest": "greenlight/sandbox-python:latest", "engine:cargo-test": "greenlight/sandbox-rust:latest",
			"native:make-test": "greenlight/sandbox-cpp:latest",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.fixture, func(t *testing.T) {
			caps := discoverDir(t, filepath.Join(reposDir, tt.fixture), capability.Options{})
			p, err := plan.Make(caps, plan.Request{Security: plan.SecurityOff}) // scans: security_test.go
			if err != nil {
				t.Fatal(err)
			}
			if p.Runtime != tt.runtime || p.Image == "" {
				t.Errorf("pipeline runtime %q image %q, want runtime %q and an image", p.Runtime, p.Image, tt.runtime)
			}
			got := map[string]string{}
			for _, s := range p.Steps {
				got[s.Name] = s.Image
			}
			for name, want := range tt.images {
				if got[name] != want {
					t.Errorf("step %s image = %q, want %q", name, got[name], want)
				}
			}
		})
	}
}
