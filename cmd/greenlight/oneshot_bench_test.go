package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httputil"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/greenlight-dev/greenlight/pkg/image"
)

// oneStepProject is the smallest project greenlight verifies: one test
// step running `true` (discovery: generic, one step).
var oneStepProject = map[string]string{
	"greenlight.yaml": "version: 1\n# One step, as issue 25 measures it: no default secret scan.\nsecurity: off\nsteps:\n  - name: check\n    command: \"true\"\n    phase: test\n",
	"README.md":       "one step\n",
}

// BenchmarkOneShotVerifyVsDockerRun: an embedded one-shot `greenlight
// verify` of a one-step project (the whole process: start, run store,
// in-memory services, packing, discovery, the sandbox, its removal, exit)
// against `docker run --rm --network none IMAGE true` in the image the
// step runs in, alternating in the same run. It reports both in ms and
// their ratio (x-docker-run, issue 25's target ≤ 1.2), and the phases of
// the verify as the Engine API saw them, from a third run per iteration
// through a recording proxy of the engine's socket: before-create
// (process start to the container's create call: stack, packing,
// discovery, preflight), create, start, in-sandbox (runner session,
// snapshot copy, checkout, the step, reports), remove, after-remove (to
// the process's exit), and egress (network create/remove calls: zero when
// no step needs network).
func BenchmarkOneShotVerifyVsDockerRun(b *testing.B) {
	requireEngine(b)
	dir := b.TempDir()
	for name, body := range oneStepProject {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	home := b.TempDir()
	proxy := newEngineRecorder(b)
	verify := func(dockerHost string) time.Duration {
		start := time.Now()
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, bin, "verify", "-q", dir)
		cmd.Env = []string{"GREENLIGHT_HOME=" + home, "HOME=" + home, "PATH=" + os.Getenv("PATH")}
		if dockerHost != "" {
			cmd.Env = append(cmd.Env, "DOCKER_HOST="+dockerHost)
		}
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("greenlight verify: %v\n%s", err, out)
		}
		return time.Since(start)
	}
	bare := func() time.Duration {
		start := time.Now()
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		out, err := exec.CommandContext(ctx, "docker", "run", "--rm", "--network", "none", image.OfflineGeneric, "true").CombinedOutput()
		if err != nil {
			b.Fatalf("docker run: %v\n%s", err, out)
		}
		return time.Since(start)
	}
	// A first run of each creates the data directory and warms the
	// engine's and the kernel's caches.
	verify(os.Getenv("DOCKER_HOST"))
	bare()
	b.Logf("machine: %d cores, load average %s", runtime.NumCPU(), loadAvg())
	var oneShot, docker time.Duration
	phases := map[string]time.Duration{}
	n := 0
	for b.Loop() {
		oneShot += verify(os.Getenv("DOCKER_HOST"))
		docker += bare()
		proxy.reset()
		start := time.Now()
		verify(proxy.host)
		p, err := proxy.phases(start, time.Now())
		if err != nil {
			b.Fatal(err)
		}
		for k, v := range p {
			phases[k] += v
		}
		n++
	}
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 / float64(n) }
	b.ReportMetric(ms(oneShot), "oneshot-ms/op")
	b.ReportMetric(ms(docker), "docker-run-true-ms/op")
	b.ReportMetric(float64(oneShot)/float64(docker), "x-docker-run")
	var line []string
	for _, k := range enginePhases {
		b.ReportMetric(ms(phases[k]), k+"-ms/op")
		line = append(line, fmt.Sprintf("%s %.0f ms", k, ms(phases[k])))
	}
	b.Logf("one-shot verify %.0f ms, docker run %.0f ms (%.2fx); phases through the engine proxy: %s",
		ms(oneShot), ms(docker), float64(oneShot)/float64(docker), strings.Join(line, ", "))
	b.Logf("machine: load average after %s", loadAvg())
}

// enginePhases are the phases engineRecorder.phases measures, in order.
var enginePhases = []string{"before-create", "create", "start", "in-sandbox", "remove", "after-remove", "egress"}

// engineRecorder is a reverse proxy of the Docker engine's socket that
// records when each Engine API call started and ended.
type engineRecorder struct {
	host     string
	mu       sync.Mutex
	calls    []engineCall
	inFlight sync.WaitGroup
}

type engineCall struct {
	method, path string
	start, end   time.Time
}

// newEngineRecorder serves the proxy on a unix socket until the test or
// benchmark ends; host is its DOCKER_HOST.
func newEngineRecorder(b testing.TB) *engineRecorder {
	b.Helper()
	target := "/var/run/docker.sock"
	if h := os.Getenv("DOCKER_HOST"); h != "" {
		var ok bool
		if target, ok = strings.CutPrefix(h, "unix://"); !ok {
			b.Skipf("the phase breakdown proxies a unix socket; DOCKER_HOST is %s", h)
		}
	}
	sock := filepath.Join(b.TempDir(), "engine.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		b.Fatal(err)
	}
	r := &engineRecorder{host: "unix://" + sock}
	tr := &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, "unix", target)
	}}
	rp := &httputil.ReverseProxy{
		Rewrite:       func(pr *httputil.ProxyRequest) { pr.Out.URL.Scheme, pr.Out.URL.Host = "http", "docker" },
		Transport:     tr,
		FlushInterval: -1, // streams (logs, exec) pass through at once
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		r.inFlight.Add(1)
		defer r.inFlight.Done()
		start := time.Now()
		rp.ServeHTTP(w, req)
		r.mu.Lock()
		r.calls = append(r.calls, engineCall{method: req.Method, path: req.URL.Path, start: start, end: time.Now()})
		r.mu.Unlock()
	})}
	go func() { _ = srv.Serve(ln) }()
	b.Cleanup(func() { _ = srv.Close() })
	return r
}

// recorded returns the calls so far, once those in flight have ended
// (call it after the process making them exited).
func (r *engineRecorder) recorded() []engineCall {
	r.inFlight.Wait()
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]engineCall(nil), r.calls...)
}

func (r *engineRecorder) reset() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls = nil
}

// phases splits [begin, end] (one process's life) at its sandbox's
// create, start and remove calls.
func (r *engineRecorder) phases(begin, end time.Time) (map[string]time.Duration, error) {
	calls := r.recorded()
	var create, start, remove *engineCall
	id := ""
	p := map[string]time.Duration{}
	for i := range calls {
		c := &calls[i]
		switch {
		case c.method == http.MethodPost && strings.HasSuffix(c.path, "/containers/create") && create == nil:
			create = c
		case c.method == http.MethodPost && strings.Contains(c.path, "/containers/") && strings.HasSuffix(c.path, "/start") && start == nil:
			start = c
			id = strings.TrimSuffix(c.path[strings.Index(c.path, "/containers/")+len("/containers/"):], "/start")
		case strings.Contains(c.path, "/networks/create"), c.method == http.MethodDelete && strings.Contains(c.path, "/networks/"):
			p["egress"] += c.end.Sub(c.start)
		}
	}
	for i := range calls {
		c := &calls[i]
		if id != "" && c.method == http.MethodDelete && strings.HasSuffix(c.path, "/containers/"+id) {
			remove = c
		}
	}
	if create == nil || start == nil || remove == nil {
		return nil, fmt.Errorf("the engine saw no create, start and remove of one sandbox: %v", calls)
	}
	p["before-create"] = create.start.Sub(begin)
	p["create"] = create.end.Sub(create.start)
	p["start"] = start.end.Sub(start.start)
	p["in-sandbox"] = remove.start.Sub(start.end)
	p["remove"] = remove.end.Sub(remove.start)
	p["after-remove"] = end.Sub(remove.end)
	return p, nil
}

// requireEngine skips without GREENLIGHT_INTEGRATION and fails when it is
// set but the engine does not answer.
func requireEngine(b *testing.B) {
	b.Helper()
	if os.Getenv("GREENLIGHT_INTEGRATION") == "" {
		b.Skip("integration benchmark: set GREENLIGHT_INTEGRATION=1 to run it against a real Docker engine")
	}
	if out, err := exec.Command("docker", "version", "--format", "{{.Server.Version}}").CombinedOutput(); err != nil {
		b.Fatalf("GREENLIGHT_INTEGRATION is set but the Docker engine does not answer (run make engine): %v\n%s", err, out)
	}
}

// loadAvg is the machine's load average (1, 5, 15 minutes).
func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}
