package docker

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"go.uber.org/zap"

	"github.com/greenlight-dev/greenlight/services/executor/internal/sandbox"
)

// Image describes a local image from its inspection: the repository
// digest when the image came from a registry, else its id; a missing
// image is ErrImageNotFound naming it. It never pulls.
func TestImage(t *testing.T) {
	eng, rt := newAPIEngine(t)
	inspect := func(digests []string) map[string]any {
		return map[string]any{"Id": "sha256:abc", "RepoDigests": digests, "Os": "linux", "Architecture": "amd64",
			"Config": map[string]any{"Env": []string{"PATH=/usr/bin"}, "Labels": map[string]string{"greenlight.prepare": "true"}}}
	}
	eng.reply("GET /images/greenlight/sandbox-python:latest/json", http.StatusOK, inspect(nil))
	eng.reply("GET /images/python:3.12/json", http.StatusOK, inspect([]string{"python@sha256:def"}))
	eng.fail("GET /images/missing:1/json", http.StatusNotFound, "No such image: missing:1")
	ctx := context.Background()

	local, err := rt.Image(ctx, "greenlight/sandbox-python:latest")
	if err != nil || local.ID != "sha256:abc" || local.Digest != "sha256:abc" || local.OS != "linux" || local.Arch != "amd64" ||
		!slices.Equal(local.Env, []string{"PATH=/usr/bin"}) || local.Labels["greenlight.prepare"] != "true" {
		t.Errorf("local image = %+v, %v", local, err)
	}
	pulled, err := rt.Image(ctx, "python:3.12")
	if err != nil || pulled.Digest != "python@sha256:def" || pulled.Ref != "python:3.12" {
		t.Errorf("pulled image = %+v, %v", pulled, err)
	}
	_, err = rt.Image(ctx, "missing:1")
	if !errors.Is(err, sandbox.ErrImageNotFound) || errors.Is(err, sandbox.ErrContainerNotFound) || !strings.Contains(err.Error(), "missing:1") {
		t.Errorf("missing image: %v, want ErrImageNotFound naming it", err)
	}
	if n := len(eng.requests(http.MethodPost, "/images/create")); n != 0 {
		t.Errorf("Image pulled (%d calls)", n)
	}
}

// An engine nobody listens on is ErrEngineUnavailable, from every call;
// one that does not answer within the call timeout too, saying so; the
// caller's own cancellation is not the engine's fault.
func TestEngineUnavailable(t *testing.T) {
	t.Run("refused", func(t *testing.T) {
		eng, _ := newAPIEngine(t)
		addr := eng.addr()
		eng.srv.Close()
		rt, err := New("tcp://"+addr, zap.NewNop())
		if err != nil {
			t.Fatal(err)
		}
		defer rt.Close()
		ctx := context.Background()
		_, engErr := rt.Engine(ctx)
		_, listErr := rt.List(ctx, "x")
		for name, err := range map[string]error{"ping": rt.Ping(ctx), "engine": engErr, "list": listErr, "pull": rt.Pull(ctx, "a:1")} {
			if !errors.Is(err, sandbox.ErrEngineUnavailable) {
				t.Errorf("%s: %v, want ErrEngineUnavailable", name, err)
			}
		}
	})
	t.Run("wedged", func(t *testing.T) {
		eng, rt := newAPIEngine(t)
		rt.timeout = 50 * time.Millisecond
		eng.handle("GET /containers/{id}/json", func(_ http.ResponseWriter, r *http.Request) { <-r.Context().Done() })
		_, err := rt.State(context.Background(), "c1")
		if !errors.Is(err, sandbox.ErrEngineUnavailable) || !strings.Contains(err.Error(), "no answer within 50ms") {
			t.Errorf("a wedged engine: %v", err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(20*time.Millisecond, cancel)
		rt.timeout = time.Minute
		_, err = rt.State(ctx, "c1")
		if !errors.Is(err, context.Canceled) || errors.Is(err, sandbox.ErrEngineUnavailable) {
			t.Errorf("a canceled call: %v, want context.Canceled only", err)
		}
	})
}

// The API version is negotiated once, with the first call; Ping then
// only pings.
func TestNegotiatesOnce(t *testing.T) {
	eng, rt := newAPIEngine(t)
	eng.reply("POST /containers/{id}/start", http.StatusNoContent, nil)
	if err := rt.Ping(context.Background()); err != nil {
		t.Fatalf("Ping: %v", err)
	}
	for range 3 {
		if err := rt.Start(context.Background(), "c1"); err != nil {
			t.Fatal(err)
		}
	}
	for _, r := range eng.requests(http.MethodPost, "") {
		if r.Path != "/containers/c1/start" {
			t.Errorf("unexpected call %s", r.Path)
		}
	}
	if !rt.negotiated.Load() {
		t.Error("not negotiated after calls")
	}
}

// Pull reads the engine's progress to its end: a failure reported inside
// the stream is an error with the engine's message, a clean stream is
// success, and the engine's refusal of the call keeps its sentinel.
func TestPull(t *testing.T) {
	eng, rt := newAPIEngine(t)
	eng.handle("POST /images/create", func(w http.ResponseWriter, r *http.Request) {
		switch strings.TrimPrefix(r.URL.Query().Get("fromImage"), "docker.io/library/") {
		case "ok":
			_, _ = w.Write([]byte(`{"status":"Pulling from library/ok"}` + "\n" + `{"status":"Download complete"}` + "\n"))
		case "denied":
			_, _ = w.Write([]byte(`{"status":"Pulling"}` + "\n" +
				`{"errorDetail":{"message":"pull access denied for denied"},"error":"pull access denied"}` + "\n"))
		case "old":
			_, _ = w.Write([]byte(`{"error":"manifest unknown"}` + "\n"))
		case "garbled":
			_, _ = w.Write([]byte(`{"status":`))
		default:
			apiError(w, http.StatusNotFound, "repository does not exist")
		}
	})
	ctx := context.Background()
	for _, tc := range []struct{ ref, want string }{
		{"ok:1", ""}, {"denied:1", "image pull: pull access denied for denied"}, {"old:1", "image pull: manifest unknown"},
		{"garbled:1", "image pull"}, {"nowhere:1", "repository does not exist"},
	} {
		err := rt.Pull(ctx, tc.ref)
		if (tc.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("Pull(%s) = %v, want %q", tc.ref, err, tc.want)
		}
	}
	// A repository the registry does not have is a missing image, not a
	// missing container.
	if err := rt.Pull(ctx, "nowhere:1"); !errors.Is(err, sandbox.ErrImageNotFound) || errors.Is(err, sandbox.ErrContainerNotFound) {
		t.Errorf("Pull of a missing repository: %v, want ErrImageNotFound only", err)
	}
	q := eng.requests(http.MethodPost, "/images/create")[0].Query
	if q.Get("fromImage") != "docker.io/library/ok" || q.Get("tag") != "1" {
		t.Errorf("pull query %v", q)
	}
}
