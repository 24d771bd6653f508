package executorsvc

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/executor/internal/testenv"
)

func TestExecuteStreamsAndFinishes(t *testing.T) {
	e := newEnv(t)
	req := e.request(map[string]testenv.File{"app/main.py": {Body: "print('hello from main')\n"}},
		&glv1.Step{Name: "install", Phase: glv1.Phase_PHASE_INSTALL, Command: "echo installing"},
		&glv1.Step{Name: "test", Phase: glv1.Phase_PHASE_TEST, Command: "python3 main.py", Workdir: "app",
			Tier: glv1.Tier_TIER_0, Level: glv1.Level_LEVEL_L4},
	)
	req.CommitSha = "abc123"
	r := e.mustExecute(context.Background(), req)

	var kinds []string
	for _, ev := range r.events {
		if ev.GetRunId() != req.GetRunId() {
			t.Fatalf("event with run id %q", ev.GetRunId())
		}
		switch {
		case ev.GetStepStarted() != nil:
			kinds = append(kinds, "started")
		case ev.GetStepFinished() != nil:
			kinds = append(kinds, "finished:"+statusOf(ev.GetStepFinished().GetResult()))
		case ev.GetFinished() != nil:
			kinds = append(kinds, "done")
		}
	}
	if got := strings.Join(kinds, " "); got != "started finished:OK started finished:OK done" {
		t.Errorf("event order = %s", got)
	}
	if got := r.output(1); got != "hello from main\n" {
		t.Errorf("live output = %q", got)
	}
	res := r.result(1)
	if res.GetLevel() != glv1.Level_LEVEL_L4 || res.GetPhase() != glv1.Phase_PHASE_TEST || res.GetWorkdir() != "app" {
		t.Errorf("result lacks the step's classification: %v", res)
	}
	m := r.finished.GetManifest()
	if m.GetCommitSha() != "abc123" || len(m.GetCommandsExecuted()) != 2 || m.GetPlatform().GetEngineVersion() == "" ||
		m.GetLimits().GetPids() != 256 || m.GetSnapshot().GetHash() != req.GetSnapshot().GetHash() {
		t.Errorf("manifest = %v", m)
	}

	// The artifacts materialize in the ARTIFACT_DIR layout.
	dir := t.TempDir()
	if err := WriteArtifacts(context.Background(), e.blobs, dir, req.GetRunId(), r.finished.GetArtifacts()); err != nil {
		t.Fatalf("WriteArtifacts: %v", err)
	}
	runDir := filepath.Join(dir, "runs", req.GetRunId())
	for file, want := range map[string]string{
		"manifest.json":            `"commit_sha": "abc123"`,
		"logs/combined.log":        "hello from main",
		"logs/step-01-install.log": "installing",
		"logs/step-02-test.log":    "hello from main",
	} {
		b, err := os.ReadFile(filepath.Join(runDir, file))
		if err != nil || !strings.Contains(string(b), want) {
			t.Errorf("%s: %v, content %q lacks %q", file, err, b, want)
		}
	}
}

func TestExecuteRejectsBadRequests(t *testing.T) {
	e := newEnv(t, func(c *Config) { c.AllowedImages = append(c.AllowedImages, "greenlight/no-such-image:latest") })
	good := e.request(nil, sh("ok", "true"))
	cases := []struct {
		name string
		edit func(r *glv1.ExecuteRequest)
		code codes.Code
		msg  string
	}{
		{"missing snapshot", func(r *glv1.ExecuteRequest) { r.Snapshot = nil }, codes.InvalidArgument, "snapshot digest is missing"},
		{"malformed snapshot", func(r *glv1.ExecuteRequest) { r.Snapshot = &glv1.Digest{Hash: "xyz"} }, codes.InvalidArgument, "hash must be"},
		{"unknown snapshot", func(r *glv1.ExecuteRequest) {
			r.Snapshot = &glv1.Digest{Hash: strings.Repeat("ab", 32), SizeBytes: 10}
		}, codes.NotFound, "upload it with BlobService.Write"},
		{"empty pipeline", func(r *glv1.ExecuteRequest) { r.Pipeline.Steps = nil }, codes.InvalidArgument, "pipeline is empty"},
		{"unknown image", func(r *glv1.ExecuteRequest) {
			r.Pipeline.Runtime, r.Pipeline.Image = "go", "greenlight/no-such-image:latest"
		}, codes.InvalidArgument, `sandbox image greenlight/no-such-image:latest for runtime "go" is not in the engine`},
		{"unknown runtime", func(r *glv1.ExecuteRequest) { r.Pipeline.Runtime = "cobol" }, codes.InvalidArgument, "configure images.cobol"},
		{"image outside the allow-list", func(r *glv1.ExecuteRequest) { r.Pipeline.Image = "postgres:16" }, codes.PermissionDenied,
			`pipeline image: image not allowed: "postgres:16" is not on the server's image allow-list (`},
		{"network outside install", func(r *glv1.ExecuteRequest) { r.Pipeline.Steps[0].Network = true }, codes.InvalidArgument, "only install steps"},
		{"workdir escapes", func(r *glv1.ExecuteRequest) { r.Pipeline.Steps[0].Workdir = "../etc" }, codes.InvalidArgument, "leaves the workspace"},
		{"duplicate names", func(r *glv1.ExecuteRequest) {
			r.Pipeline.Steps = append(r.Pipeline.Steps, sh("ok", "true"))
		}, codes.InvalidArgument, "used twice"},
		{"no run id", func(r *glv1.ExecuteRequest) { r.RunId = "" }, codes.InvalidArgument, "run_id"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			req := cloneRequest(good)
			tc.edit(req)
			r := e.execute(context.Background(), req)
			st, _ := status.FromError(r.err)
			if st.Code() != tc.code || !strings.Contains(st.Message(), tc.msg) {
				t.Fatalf("got %v %q, want %v containing %q", st.Code(), st.Message(), tc.code, tc.msg)
			}
		})
	}
	if n := e.rt.creates.Load(); n != 0 {
		t.Errorf("%d containers were created for refused requests", n)
	}
}

// Report files a step writes (also when it fails) are collected as
// artifacts whose base name is the report's; links and missing files are
// skipped.
func TestReportFilesAreCollected(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	step := &glv1.Step{Name: "test", Phase: glv1.Phase_PHASE_TEST,
		Command:     "mkdir -p /tmp/greenlight && echo '<testsuite/>' > /tmp/greenlight/junit.xml && ln -s /etc/passwd /tmp/greenlight/link.xml; exit 1",
		ReportFiles: []string{"/tmp/greenlight/junit.xml", "/tmp/greenlight/link.xml", "/tmp/greenlight/missing.xml"}}
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
	bad := e.request(nil, &glv1.Step{Name: "x", Command: "true", ReportFiles: []string{"/etc/passwd"}})
	if st, _ := status.FromError(e.execute(context.Background(), bad).err); st.Code() != codes.InvalidArgument {
		t.Errorf("a report file outside the sandbox's writable dirs: %v", st)
	}
}
