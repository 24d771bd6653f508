package executorsvc

import (
	"context"
	"maps"
	"os/exec"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/executor/internal/sandbox"
	"github.com/greenlight-dev/greenlight/services/executor/internal/testenv"
)

// TestForeignImageRefusedAndNeverPooled is ADVERSARIAL row 40: a pipeline
// (from a repository's greenlight.yaml) names an image the engine holds but
// the server does not allow (here a local alias of the sandbox image, as an
// unrelated service's image would be). The executor refuses it with
// PermissionDenied naming the allow-list and starts nothing; and an image
// an operator allowed but did not configure in the runtime table runs cold
// and never joins the warm pool.
func TestForeignImageRefusedAndNeverPooled(t *testing.T) {
	foreign := tagAlias(t, testenv.PythonImage, "greenlight-test/foreign-"+strings.ToLower(testenv.Owner(t)))
	allowedCold := tagAlias(t, testenv.PythonImage, "greenlight-test/allowed-"+strings.ToLower(testenv.Owner(t)))
	e := newEnv(t, func(c *Config) {
		c.PoolSize, c.Images = 1, []string{"python=" + testenv.PythonImage}
		c.AllowedImages = []string{allowedCold}
	})
	e.svc.Warm(context.Background())
	waitIdle(t, e, 1)
	before := poolContainers(t, e)

	for name, edit := range map[string]func(*glv1.ExecuteRequest){
		"pipeline image": func(r *glv1.ExecuteRequest) { r.Pipeline.Image = foreign },
		"step image":     func(r *glv1.ExecuteRequest) { r.Pipeline.Steps[0].Image = foreign },
	} {
		req := e.request(nil, sh("probe", "echo ran"))
		edit(req)
		r := e.execute(context.Background(), req)
		st := status.Convert(r.err)
		if st.Code() != codes.PermissionDenied || !strings.Contains(st.Message(), foreign) ||
			!strings.Contains(st.Message(), "allow-list ("+allowedCold+", "+testenv.PythonImage+")") {
			t.Errorf("%s: got %v %q, want PermissionDenied naming %s and the allow-list", name, st.Code(), st.Message(), foreign)
		}
	}
	if n := len(testenv.Containers(t, e.rt, e.owner)); n != 0 {
		t.Errorf("%d run containers after refused runs", n)
	}

	req := e.request(nil, sh("probe", "echo ran"))
	req.Pipeline.Image = allowedCold
	if r := e.mustExecute(context.Background(), req); !strings.Contains(r.result(0).GetTail(), "ran") {
		t.Fatalf("allowed image did not run: %v", r.result(0))
	}
	e.svc.runner.Wait()
	time.Sleep(500 * time.Millisecond) // room for a (wrong) background refill
	if after := poolContainers(t, e); !maps.Equal(after, before) {
		t.Errorf("pool containers %v after a run in an unconfigured image, want %v", after, before)
	}
}

// poolContainers counts the warm pool's containers per image.
func poolContainers(t *testing.T, e *env) map[string]int {
	t.Helper()
	out := map[string]int{}
	for _, c := range testenv.Containers(t, e.rt, e.svc.cfg.Owner) {
		out[c.Labels[sandbox.LabelPool]]++
	}
	return out
}

// tagAlias tags src as name:latest for the test and removes the tag after.
func tagAlias(t *testing.T, src, name string) string {
	t.Helper()
	testenv.Docker(t) // skips without the engine
	ref := name + ":latest"
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if out, err := exec.CommandContext(ctx, "docker", "tag", src, ref).CombinedOutput(); err != nil {
		t.Fatalf("docker tag %s %s: %v: %s", src, ref, err, out)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if out, err := exec.CommandContext(ctx, "docker", "rmi", ref).CombinedOutput(); err != nil {
			t.Logf("docker rmi %s: %v: %s", ref, err, out)
		}
	})
	return ref
}
