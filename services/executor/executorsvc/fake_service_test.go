package executorsvc

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/executor/internal/enginefake"
	"github.com/greenlight-dev/greenlight/services/executor/internal/sandbox"
	"github.com/greenlight-dev/greenlight/services/executor/internal/testenv"
)

// Execute streams a run's events in order and ends with the manifest,
// results and artifacts, all without an engine.
func TestFakeExecuteStreamsAndFinishes(t *testing.T) {
	e := newFakeEnv(t)
	req := e.request(map[string]testenv.File{"app/main.py": {Body: "hello from main\n"}},
		&glv1.Step{Name: "install", Phase: glv1.Phase_PHASE_INSTALL, Command: "echo installing"},
		&glv1.Step{Name: "test", Phase: glv1.Phase_PHASE_TEST, Command: "cat main.py; echo oops >&2; exit 4", Workdir: "app",
			Tier: glv1.Tier_TIER_0, Level: glv1.Level_LEVEL_L4},
	)
	req.CommitSha = "abc123"
	r := e.mustExecute(context.Background(), req)
	var kinds []string
	for _, ev := range r.events {
		switch {
		case ev.GetStepStarted() != nil:
			kinds = append(kinds, "started")
		case ev.GetStepFinished() != nil:
			kinds = append(kinds, "finished:"+statusOf(ev.GetStepFinished().GetResult()))
		case ev.GetFinished() != nil:
			kinds = append(kinds, "done")
		}
	}
	if got := strings.Join(kinds, " "); got != "started finished:OK started finished:FAILED done" {
		t.Errorf("event order = %s", got)
	}
	if out, errOut := r.stream(1, glv1.Stream_STREAM_STDOUT), r.stream(1, glv1.Stream_STREAM_STDERR); out != "hello from main\n" || errOut != "oops\n" {
		t.Errorf("live output %q, %q", out, errOut)
	}
	res := r.result(1)
	if res.GetExitCode() != 4 || res.GetLevel() != glv1.Level_LEVEL_L4 || res.GetPhase() != glv1.Phase_PHASE_TEST || res.GetWorkdir() != "app" {
		t.Errorf("result = %v", res)
	}
	m := r.finished.GetManifest()
	if m.GetCommitSha() != "abc123" || len(m.GetCommandsExecuted()) != 2 || m.GetPlatform().GetEngineVersion() != "fake" ||
		m.GetLimits().GetPids() != 256 || m.GetSnapshot().GetHash() != req.GetSnapshot().GetHash() {
		t.Errorf("manifest = %v", m)
	}
	dir := t.TempDir()
	if err := WriteArtifacts(context.Background(), e.blobs, dir, req.GetRunId(), r.finished.GetArtifacts()); err != nil {
		t.Fatalf("WriteArtifacts: %v", err)
	}
	for file, want := range map[string]string{
		"manifest.json": `"commit_sha": "abc123"`, "logs/combined.log": "hello from main", "logs/step-01-install.log": "installing",
	} {
		b, err := os.ReadFile(filepath.Join(dir, "runs", req.GetRunId(), file))
		if err != nil || !strings.Contains(string(b), want) {
			t.Errorf("%s: %v, content %q lacks %q", file, err, b, want)
		}
	}
}

// Requests that cannot run are refused with the code the client acts on,
// and no container is created for them.
func TestFakeExecuteRefuses(t *testing.T) {
	e := newFakeEnv(t, func(c *Config) { c.AllowedImages = append(c.AllowedImages, "greenlight/no-such-image:latest") })
	good := e.request(nil, sh("ok", "true"))
	cases := []struct {
		name  string
		edit  func(r *glv1.ExecuteRequest)
		setup func(eng *enginefake.Engine)
		code  codes.Code
		msg   string
	}{
		{"missing snapshot", func(r *glv1.ExecuteRequest) { r.Snapshot = nil }, nil, codes.InvalidArgument, "snapshot digest is missing"},
		{"unknown snapshot", func(r *glv1.ExecuteRequest) {
			r.Snapshot = &glv1.Digest{Hash: strings.Repeat("ab", 32), SizeBytes: 10}
		}, nil, codes.NotFound, "upload it with BlobService.Write"},
		{"empty pipeline", func(r *glv1.ExecuteRequest) { r.Pipeline.Steps = nil }, nil, codes.InvalidArgument, "pipeline is empty"},
		{"unknown image", func(r *glv1.ExecuteRequest) {
			r.Pipeline.Runtime, r.Pipeline.Image = "go", "greenlight/no-such-image:latest"
		}, nil, codes.InvalidArgument, "docker pull greenlight/no-such-image:latest"},
		{"unknown runtime", func(r *glv1.ExecuteRequest) { r.Pipeline.Runtime = "cobol" }, nil, codes.InvalidArgument, "configure images.cobol"},
		{"image outside the allow-list", func(r *glv1.ExecuteRequest) { r.Pipeline.Image = "postgres:16" }, nil, codes.PermissionDenied, "allow-list"},
		{"network outside install", func(r *glv1.ExecuteRequest) { r.Pipeline.Steps[0].Network = true }, nil, codes.InvalidArgument, "only install steps"},
		{"engine down", func(*glv1.ExecuteRequest) {}, func(eng *enginefake.Engine) { eng.SetDown(true) }, codes.Unavailable, "container engine unavailable"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			req := cloneRequest(good)
			tc.edit(req)
			if tc.setup != nil {
				tc.setup(e.eng)
				defer e.eng.SetDown(false)
			}
			st, _ := status.FromError(e.execute(context.Background(), req).err)
			if st.Code() != tc.code || !strings.Contains(st.Message(), tc.msg) {
				t.Fatalf("got %v %q, want %v containing %q", st.Code(), st.Message(), tc.code, tc.msg)
			}
		})
	}
	if n := e.rt.creates.Load(); n != 0 {
		t.Errorf("%d containers were created for refused requests", n)
	}
}

// An executor in agent mode refuses an image without the runner as a
// failed precondition.
func TestFakeExecuteAgentModeNeedsRunner(t *testing.T) {
	e := newFakeEnv(t, func(c *Config) { c.StepRunner = sandbox.StepRunnerAgent })
	e.eng.Add(enginefake.NewImage(testenv.PythonImage, false))
	st, _ := status.FromError(e.execute(context.Background(), e.request(nil, sh("ok", "true"))).err)
	if st.Code() != codes.FailedPrecondition || !strings.Contains(st.Message(), "no greenlight-runner") {
		t.Errorf("got %v %q", st.Code(), st.Message())
	}
}

// Capacity reports the maximum, what runs and the engine; a full executor
// refuses more runs.
func TestFakeCapacity(t *testing.T) {
	e := newFakeEnv(t, func(c *Config) { c.MaxSandboxes = 1 })
	resp, err := e.client.Capacity(context.Background(), &glv1.CapacityRequest{})
	if err != nil || resp.GetMaxSandboxes() != 1 || resp.GetRunning() != 0 || resp.GetEngineVersion() != "fake" || resp.GetName() == "" {
		t.Fatalf("Capacity = %v, %v", resp, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stream, err := e.client.Execute(ctx, e.request(nil, sh("slow", "echo up; sleep 30")))
	if err != nil {
		t.Fatal(err)
	}
	for { // until the step runs
		msg, err := stream.Recv()
		if err != nil {
			t.Fatalf("Recv: %v", err)
		}
		if strings.Contains(msg.GetLogChunk().GetData(), "up") {
			break
		}
	}
	if resp, err := e.client.Capacity(context.Background(), &glv1.CapacityRequest{}); err != nil || resp.GetRunning() != 1 {
		t.Errorf("Capacity while running = %v, %v", resp, err)
	}
	st, _ := status.FromError(e.execute(context.Background(), e.request(nil, sh("more", "true"))).err)
	if st.Code() != codes.ResourceExhausted {
		t.Errorf("a second run: %v, want RESOURCE_EXHAUSTED", st)
	}
	cancel()
	waitUntil(t, "the canceled run ends", func() bool {
		resp, err := e.client.Capacity(context.Background(), &glv1.CapacityRequest{})
		return err == nil && resp.GetRunning() == 0
	})
	e.eng.SetDown(true)
	resp, err = e.client.Capacity(context.Background(), &glv1.CapacityRequest{})
	e.eng.SetDown(false)
	if err != nil || resp.GetEngineVersion() != "" {
		t.Errorf("Capacity on a dead engine = %v, %v", resp, err)
	}
}

// Warm fills the pool for the configured images the engine has; a run
// then takes its sandbox from there.
func TestFakeWarmPool(t *testing.T) {
	e := newFakeEnv(t, func(c *Config) { c.PoolSize = 1 })
	e.svc.Warm(context.Background())
	waitUntil(t, "the pool fills", func() bool { return e.svc.pool.Idle(testenv.PythonImage) == 1 })
	pooled := e.eng.Containers()[0].ID
	r := e.mustExecute(context.Background(), e.request(nil, sh("ok", "echo in-pool")))
	ran := ""
	for _, p := range e.eng.Procs() {
		if slices.Contains(p.Argv, "echo in-pool") {
			ran = p.Container
		}
	}
	if statusOf(r.result(0)) != "OK" || ran != pooled {
		t.Errorf("ok = %s in container %.12s, want the pooled %.12s", statusOf(r.result(0)), ran, pooled)
	}
}

// On Kubernetes Warm fills nothing at start (every image of the cluster
// would get pods holding node resources); images join the pool on use.
func TestFakeWarmPoolKubernetesOnUse(t *testing.T) {
	e := newFakeEnv(t, func(c *Config) { c.PoolSize, c.Runtime = 1, RuntimeKubernetes })
	e.svc.Warm(context.Background())
	if n := len(e.eng.Containers()); n != 0 || e.svc.pool.Idle(testenv.PythonImage) != 0 {
		t.Fatalf("Warm on Kubernetes created %d sandboxes", n)
	}
	if r := e.mustExecute(context.Background(), e.request(nil, sh("ok", "true"))); statusOf(r.result(0)) != "OK" {
		t.Fatalf("run: %s", statusOf(r.result(0)))
	}
	waitUntil(t, "the used image joins the pool", func() bool { return e.svc.pool.Idle(testenv.PythonImage) == 1 })
}

// An install step's dependencies come from the executor's cache in the
// next run of the same owner and lockfile.
func TestFakeDependencyCacheAcrossRuns(t *testing.T) {
	e := newFakeEnv(t)
	install := &glv1.Step{Name: "install", Phase: glv1.Phase_PHASE_INSTALL, Command: "mkdir -p venv && echo lib > venv/lib",
		CachePaths: []string{"venv"}, CacheKeyFiles: []string{"requirements.txt"}}
	files := map[string]testenv.File{"requirements.txt": {Body: "lib==1\n"}}
	check := sh("check", "cat venv/lib")
	var hits []bool
	for range 2 {
		r := e.mustExecute(context.Background(), e.request(files, install, check))
		hits = append(hits, r.result(0).GetCacheHit())
		if out := r.output(1); out != "lib\n" {
			t.Errorf("check printed %q", out)
		}
	}
	if !slices.Equal(hits, []bool{false, true}) {
		t.Errorf("cache hits %v, want [false true]", hits)
	}
}

// Report files a step writes (also when it fails) become artifacts named
// after the step and the report; missing ones are skipped.
func TestFakeReportArtifacts(t *testing.T) {
	e := newFakeEnv(t)
	step := &glv1.Step{Name: "test", Phase: glv1.Phase_PHASE_TEST,
		Command:     "mkdir -p /tmp/greenlight && echo '<testsuite/>' > /tmp/greenlight/junit.xml; exit 1",
		ReportFiles: []string{"/tmp/greenlight/junit.xml", "/tmp/greenlight/missing.xml"}}
	r := e.mustExecute(context.Background(), e.request(nil, step))
	var reports []*glv1.Artifact
	for _, a := range r.finished.GetArtifacts() {
		if strings.HasPrefix(a.GetPath(), "reports/") {
			reports = append(reports, a)
		}
	}
	if len(reports) != 1 || reports[0].GetPath() != "reports/step-01-test/tmp/greenlight/junit.xml" ||
		e.readBlob(reports[0].GetDigest()) != "<testsuite/>\n" {
		t.Errorf("reports = %v", reports)
	}
}
