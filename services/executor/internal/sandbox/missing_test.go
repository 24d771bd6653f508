package sandbox

import (
	"errors"
	"strings"
	"testing"

	"github.com/greenlight-dev/greenlight/pkg/image"
	"github.com/greenlight-dev/greenlight/pkg/toolchain/rust"
)

func TestMissingImage(t *testing.T) {
	tests := []struct {
		name, ref, runtime string
		want               []string
		not                string
	}{
		// A polyglot run's Rust step under a Go pipeline: the image says
		// what to build, not the pipeline's runtime.
		{"offline image", rust.OfflineImage, "go",
			[]string{`runtime "rust"`, "`make images IMAGES=rust`", "`bash images/build.sh rust`", "images.rust"}, "images.go"},
		{"offline cpp image", image.OfflineCpp, "",
			[]string{"`make images IMAGES=cpp`", "release archive's directory: `bash images/build.sh cpp`"}, "<runtime>"},
		{"other image", "greenlight/no-such-image:latest", "golang",
			[]string{"docker pull greenlight/no-such-image:latest", "configure images.go"}, "make images"},
		{"no runtime", "rust:1-slim", "", []string{"images.<runtime>"}, "make images"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := missingImage(tt.ref, tt.runtime)
			if !errors.Is(err, ErrImageNotFound) {
				t.Fatalf("missingImage = %v, want ErrImageNotFound", err)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("%q lacks %q", err, w)
				}
			}
			if strings.Contains(err.Error(), tt.not) {
				t.Errorf("%q mentions %q", err, tt.not)
			}
		})
	}
	if got := rebuildCommand(image.OfflineJava); got != "make images IMAGES=java" {
		t.Errorf("rebuildCommand(java) = %q", got)
	}
}

// TestMissingImageStopsOnlyRequiredSteps: an advisory step (continue on
// failure) that could not run because its image is missing stops nothing,
// so the next step of that image errors itself (a required step then
// reads ERROR, never skipped behind an advisory one); a required step's
// ERROR stops its scope.
func TestMissingImageStopsOnlyRequiredSteps(t *testing.T) {
	const img = "greenlight/sandbox-nosuch:latest"
	rn := &run{
		req: Request{Steps: []Step{
			{Name: "secret-scan", Image: img, ContinueOnFailure: true},
			{Name: "cargo-build", Image: img},
		}},
		missing: map[string]string{img: "build it"},
		results: []StepResult{{Status: StatusError, Reason: "image missing"}, {Status: StatusError, Reason: "image missing"}},
	}
	if why, _ := rn.stopReason(0); why != "" {
		t.Errorf("the advisory step stops later steps: %q", why)
	}
	if why, scoped := rn.stopReason(1); why == "" || !scoped {
		t.Errorf("the required step: stop %q scoped %v; want its scope stopped", why, scoped)
	}
}
