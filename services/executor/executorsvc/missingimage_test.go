package executorsvc

import (
	"context"
	"strings"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// TestMissingImageStopsOnlyItsSubproject is issue 12's polyglot rule at the
// executor: a runtime whose image the engine lacks (here rust, pointed at
// an image nobody built) makes its own subproject's first step ERROR with
// a message naming the runtime and the command that builds the image, skips
// that subproject's later steps, and the other subproject still runs. (Before,
// the whole run was refused: "image ... not found: run `make images`".)
func TestMissingImageStopsOnlyItsSubproject(t *testing.T) {
	t.Parallel()
	const missing = "greenlight/sandbox-nosuchruntime:latest"
	e := newEnv(t, func(c *Config) { c.Images = append(c.Images, "rust="+missing) })
	scoped := func(name, cmd, scope, img string) *glv1.Step {
		return &glv1.Step{Name: name, Command: cmd, FailureScope: scope, Image: img, Phase: glv1.Phase_PHASE_TEST}
	}
	req := e.request(nil,
		scoped("py:first", "echo py one", "py", ""),
		scoped("engine:build", "cargo build", "engine", missing),
		scoped("engine:test", "cargo test", "engine", missing),
		scoped("py:second", "echo py two", "py", ""),
	)
	r := e.mustExecute(context.Background(), req)
	want := []string{"OK", "ERROR", "SKIPPED", "OK"}
	for i, w := range want {
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
	if r.output(3) != "py two\n" {
		t.Errorf("the other subproject's later step output = %q", r.output(3))
	}
	if img := r.finished.GetManifest().GetPlatform().GetContainerImage(); img == "" || img == missing {
		t.Errorf("manifest image = %q, want the image that ran", img)
	}
}

// A pipeline that names neither a runtime nor an image is plain shell: it
// runs in the generic image (before: `runtime "" has no configured image`).
func TestPipelineWithoutRuntimeRunsInGeneric(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	const generic = "greenlight/sandbox-generic:latest"
	if _, err := e.rt.Image(context.Background(), generic); err != nil {
		t.Skipf("%s is not built (%v): run `make images IMAGES=generic`", generic, err)
	}
	req := e.request(nil, sh("hello", "echo plain shell"))
	req.Pipeline.Runtime = ""
	r := e.mustExecute(context.Background(), req)
	if statusOf(r.result(0)) != "OK" || r.output(0) != "plain shell\n" {
		t.Fatalf("step %s, output %q", statusOf(r.result(0)), r.output(0))
	}
	if img := r.finished.GetManifest().GetPlatform().GetContainerImage(); img != generic {
		t.Errorf("ran in %q, want %s", img, generic)
	}
}
