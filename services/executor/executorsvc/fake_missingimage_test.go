package executorsvc

import (
	"context"
	"strings"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// TestMissingImageStopsOnlyItsSubproject without an engine: a step in an
// image the engine lacks is ERROR naming its runtime and the command that
// builds the image, its scope's later steps are skipped, and the other
// subproject runs.
func TestFakeMissingImageStopsOnlyItsSubproject(t *testing.T) {
	const missing = "greenlight/sandbox-nosuchruntime:latest"
	e := newFakeEnv(t, func(c *Config) { c.Images = append(c.Images, "rust="+missing) })
	scoped := func(name, cmd, scope, img string) *glv1.Step {
		return &glv1.Step{Name: name, Command: cmd, FailureScope: scope, Image: img, Phase: glv1.Phase_PHASE_TEST}
	}
	r := e.mustExecute(context.Background(), e.request(nil,
		scoped("py:first", "echo py one", "py", ""),
		scoped("engine:build", "cargo build", "engine", missing),
		scoped("engine:test", "cargo test", "engine", missing),
		scoped("py:second", "echo py two", "py", ""),
	))
	for i, w := range []string{"OK", "ERROR", "SKIPPED", "OK"} {
		if got := statusOf(r.result(i)); got != w {
			t.Errorf("step %d %s = %s (%s), want %s", i, r.result(i).GetName(), got, r.result(i).GetReason(), w)
		}
	}
	why := r.result(1).GetReason()
	for _, s := range []string{missing, `runtime "rust"`, "make images IMAGES=nosuchruntime"} {
		if !strings.Contains(why, s) {
			t.Errorf("reason %q does not name %q", why, s)
		}
	}
}

// runtimeOf names the runtime of a step's image for messages: the
// pipeline's for its own image, else the table's, canonical and the
// smallest name when several runtimes share the image.
func TestRuntimeOf(t *testing.T) {
	images := map[string]string{"python": "py:1", "node": "node:20", "typescript": "node:20", "javascript": "node:20"}
	for _, tc := range []struct{ img, pipeline, want string }{
		{"", "python", "python"},
		{"py:1", "python", "python"},
		{"node:20", "python", "node"},
		{"other:1", "python", ""},
	} {
		if got := runtimeOf(tc.img, tc.pipeline, images); got != tc.want {
			t.Errorf("runtimeOf(%q, %q) = %q, want %q", tc.img, tc.pipeline, got, tc.want)
		}
	}
}
