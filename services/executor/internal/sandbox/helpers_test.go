package sandbox_test

import (
	"bytes"
	"context"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/greenlight-dev/greenlight/pkg/blob"
	"github.com/greenlight-dev/greenlight/services/executor/internal/sandbox"
	"github.com/greenlight-dev/greenlight/services/executor/internal/testenv"
)

// harness is a Runner on the real engine with a real blob store.
type harness struct {
	t      testing.TB
	rt     sandbox.Runtime
	blobs  *blob.Store
	runner *sandbox.Runner
	owner  string
	// lastResult and lastStepMs describe the last timeRun.
	lastResult *sandbox.Result
	lastStepMs []float64
}

func newHarness(t testing.TB, mutate ...func(*sandbox.Config)) *harness {
	t.Helper()
	rt := testenv.Docker(t)
	cfg := sandbox.DefaultConfig()
	cfg.TempDir = t.TempDir()
	cfg.StepRunner = testenv.StepRunner()
	for _, m := range mutate {
		m(&cfg)
	}
	blobs := testenv.Blobs(t)
	r, err := sandbox.NewRunner(cfg, rt, blobs, sandbox.WithLogger(testenv.Logger(t)))
	if err != nil {
		t.Fatalf("NewRunner: %v", err)
	}
	h := &harness{t: t, rt: rt, blobs: blobs, runner: r, owner: testenv.Owner(t)}
	t.Cleanup(func() {
		r.Wait()
		testenv.WaitNoContainers(t, rt, h.owner, 10*time.Second)
	})
	return h
}

// events records a run's events.
type events struct {
	mu  sync.Mutex
	all []sandbox.Event
}

func (e *events) sink(ev sandbox.Event) error {
	e.mu.Lock()
	e.all = append(e.all, ev)
	e.mu.Unlock()
	return nil
}

func (e *events) chunks(step int) []*sandbox.LogChunk {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []*sandbox.LogChunk
	for _, ev := range e.all {
		if c, ok := ev.(*sandbox.LogChunk); ok && c.Index == step {
			out = append(out, c)
		}
	}
	return out
}

func (e *events) text(step int, stream sandbox.Stream) string {
	var sb strings.Builder
	for _, c := range e.chunks(step) {
		if c.Stream == stream {
			sb.WriteString(c.Data)
		}
	}
	return sb.String()
}

// request builds a request for steps in the Python image over files.
func (h *harness) request(files map[string]testenv.File, steps ...sandbox.Step) sandbox.Request {
	if files == nil {
		files = map[string]testenv.File{"README": {Body: "hello\n"}}
	}
	return sandbox.Request{
		RunID: "run-" + strings.ReplaceAll(h.t.Name(), "/", "-"), Owner: h.owner,
		Snapshot: testenv.Snapshot(h.t, h.blobs, files), Image: testenv.PythonImage, Steps: steps,
	}
}

func (h *harness) run(ctx context.Context, req sandbox.Request) (*sandbox.Result, *events) {
	h.t.Helper()
	ev := &events{}
	res, err := h.runner.Run(ctx, req, ev.sink)
	if err != nil {
		h.t.Fatalf("Run: %v", err)
	}
	return res, ev
}

// log reads a stored log.
func (h *harness) log(d blob.Digest) string {
	h.t.Helper()
	rc, err := h.blobs.Open(context.Background(), d)
	if err != nil {
		h.t.Fatalf("open log %s: %v", d, err)
	}
	defer rc.Close()
	b, err := io.ReadAll(rc)
	if err != nil {
		h.t.Fatalf("read log: %v", err)
	}
	return string(b)
}

func step(name, cmd string) sandbox.Step { return sandbox.Step{Name: name, Command: cmd} }

func statuses(res *sandbox.Result) []sandbox.Status {
	out := make([]sandbox.Status, len(res.Steps))
	for i, s := range res.Steps {
		out[i] = s.Status
	}
	return out
}

func testenvContainers(t *testing.T, h *harness) []sandbox.ContainerInfo {
	return testenv.Containers(t, h.rt, h.owner)
}

// memCache is an in-memory sandbox.DepCache.
type memCache struct {
	mu sync.Mutex
	m  map[string][]byte
}

func newMemCache() *memCache { return &memCache{m: map[string][]byte{}} }

func (c *memCache) Get(key string) (io.ReadCloser, bool, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	b, ok := c.m[key]
	return io.NopCloser(bytes.NewReader(b)), ok, nil
}

func (c *memCache) Remove(key string) error {
	c.mu.Lock()
	delete(c.m, key)
	c.mu.Unlock()
	return nil
}

func (c *memCache) Put(key string, r io.Reader) error {
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	c.mu.Lock()
	c.m[key] = b
	c.mu.Unlock()
	return nil
}
