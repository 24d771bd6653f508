package main

import (
	"archive/tar"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.uber.org/zap"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/timestamppb"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/blob"
	"github.com/greenlight-dev/greenlight/pkg/server"
)

// hostExecutor is a test-only ExecutorService that runs each step for real
// with /bin/sh on this machine, in a scratch copy of the snapshot, without
// a sandbox. It lets the gateway's end-to-end tests drive a real loop and a
// real discovery with real command output, where no Docker is needed; the
// sandboxed executor has its own tests.
type hostExecutor struct {
	glv1.UnimplementedExecutorServiceServer
	blobs *blob.Store
	// stepDelay slows each step down so live watchers see it happen.
	stepDelay time.Duration
}

// serveHostExecutor serves a hostExecutor on a loopback port.
func serveHostExecutor(t *testing.T, blobs *blob.Store, stepDelay time.Duration) string {
	t.Helper()
	srv := server.New(server.Config{Name: "executor", Addr: "127.0.0.1:0"}, zap.NewNop(), server.WithoutSignals())
	glv1.RegisterExecutorServiceServer(srv.GRPC(), &hostExecutor{blobs: blobs, stepDelay: stepDelay})
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { _ = srv.Serve(ctx, lis); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	return lis.Addr().String()
}

// Capacity answers the loop's fleet, which places runs only on executors
// whose engine answers: there is no engine here (steps run on the host),
// so it names the host instead.
func (e *hostExecutor) Capacity(context.Context, *glv1.CapacityRequest) (*glv1.CapacityResponse, error) {
	return &glv1.CapacityResponse{MaxSandboxes: 4, Name: "hostexec", EngineVersion: "host (test executor, no Docker)"}, nil
}

// Execute runs the pipeline's steps in order, stopping at the first failure.
func (e *hostExecutor) Execute(req *glv1.ExecuteRequest, stream grpc.ServerStreamingServer[glv1.ExecuteResponse]) error {
	ctx := stream.Context()
	dir, err := os.MkdirTemp("", "hostexec-*")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	if err := e.unpack(ctx, req.GetSnapshot(), dir); err != nil {
		return err
	}
	send := func(r *glv1.ExecuteResponse) error { r.RunId = req.GetRunId(); return stream.Send(r) }
	var results []*glv1.StepResult
	stop := ""
	for i, s := range req.GetPipeline().GetSteps() {
		res := &glv1.StepResult{Name: s.GetName(), Phase: s.GetPhase(), Command: s.GetCommand(), Workdir: s.GetWorkdir(),
			Tier: s.GetTier(), Level: s.GetLevel(), Optional: s.GetOptional(), Image: "host (test executor)", DisplayCommand: s.GetDisplayCommand()}
		if stop != "" {
			res.Status, res.Reason = glv1.StepStatus_STEP_STATUS_SKIPPED, stop
			results = append(results, res)
			continue
		}
		if err := e.step(ctx, send, i, s, dir, res); err != nil {
			return err
		}
		if res.GetStatus() != glv1.StepStatus_STEP_STATUS_OK && !s.GetOptional() {
			stop = fmt.Sprintf("step %q failed", s.GetName())
		}
		results = append(results, res)
	}
	return send(&glv1.ExecuteResponse{Event: &glv1.ExecuteResponse_Finished{Finished: &glv1.ExecuteFinished{
		Results: results, Manifest: &glv1.Manifest{RunId: req.GetRunId(), Snapshot: req.GetSnapshot(),
			Platform: &glv1.Platform{Os: "linux", Arch: "amd64", ContainerImage: "host (test executor)"}},
	}}})
}

// step runs one step, streaming its output and storing its log.
func (e *hostExecutor) step(ctx context.Context, send func(*glv1.ExecuteResponse) error, i int, s *glv1.Step, dir string, res *glv1.StepResult) error {
	start := time.Now()
	if err := send(&glv1.ExecuteResponse{Event: &glv1.ExecuteResponse_StepStarted{StepStarted: &glv1.StepStarted{
		Index: int32(i), Step: s, Time: timestamppb.New(start)}}}); err != nil {
		return err
	}
	time.Sleep(e.stepDelay)
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", s.GetCommand())
	cmd.Dir = filepath.Join(dir, s.GetWorkdir())
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local", "GOPROXY=off")
	out, err := cmd.CombinedOutput()
	var exitErr *exec.ExitError
	switch {
	case err == nil:
		res.Status = glv1.StepStatus_STEP_STATUS_OK
	case errors.As(err, &exitErr):
		res.Status, res.ExitCode = glv1.StepStatus_STEP_STATUS_FAILED, int32(exitErr.ExitCode())
	default:
		res.Status, res.Reason = glv1.StepStatus_STEP_STATUS_ERROR, err.Error()
	}
	if len(out) > 0 {
		if err := send(&glv1.ExecuteResponse{Event: &glv1.ExecuteResponse_LogChunk{LogChunk: &glv1.LogChunk{
			Index: int32(i), Step: s.GetName(), Stream: glv1.Stream_STREAM_STDOUT, Data: strings.ToValidUTF8(string(out), "?")}}}); err != nil {
			return err
		}
	}
	d, err := e.blobs.Put(context.WithoutCancel(ctx), bytes.NewReader(out))
	if err != nil {
		return err
	}
	res.LogDigest, res.Tail, res.OutputBytes = d.Proto(), lastLines(string(out), 200), int64(len(out))
	res.StartedAt, res.FinishedAt = timestamppb.New(start), timestamppb.Now()
	res.Duration = durationpb.New(time.Since(start))
	return send(&glv1.ExecuteResponse{Event: &glv1.ExecuteResponse_StepFinished{StepFinished: &glv1.StepFinished{Index: int32(i), Result: res}}})
}

func lastLines(s string, n int) string {
	lines := strings.SplitAfter(s, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "")
}

// unpack extracts the snapshot's regular files into dir.
func (e *hostExecutor) unpack(ctx context.Context, p *glv1.Digest, dir string) error {
	d, err := blob.DigestFromProto(p)
	if err != nil {
		return err
	}
	rc, err := e.blobs.Open(ctx, d)
	if err != nil {
		return err
	}
	defer rc.Close()
	tr := tar.NewReader(rc)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		if h.Typeflag != tar.TypeReg || strings.Contains(h.Name, "..") {
			continue
		}
		path := filepath.Join(dir, filepath.Clean(h.Name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			return err
		}
		if err := os.WriteFile(path, b, 0o644); err != nil {
			return err
		}
	}
}

// tarOf packs files (path → content) into an uncompressed tar.
func tarOf(t *testing.T, files map[string]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for name, body := range files {
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(body)), Typeflag: tar.TypeReg,
			ModTime: time.Unix(1_700_000_000, 0)}); err != nil {
			t.Fatal(err)
		}
		if _, err := io.WriteString(tw, body); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// goProject is a small Go module; with bug set, Div ignores division by zero
// and its test fails.
func goProject(bug bool) map[string]string {
	div := "\tif b == 0 {\n\t\treturn 0, errors.New(\"division by zero\")\n\t}\n\treturn a / b, nil\n"
	if bug {
		div = "\treturn a / max(b, 1), nil\n"
	}
	return map[string]string{
		"go.mod": "module example.com/svc\n\ngo 1.22\n",
		"calc/calc.go": "package calc\n\nimport \"errors\"\n\nvar _ = errors.New\n\n// Add adds.\nfunc Add(a, b int) int { return a + b }\n\n" +
			"// Div divides a by b.\nfunc Div(a, b int) (int, error) {\n" + div + "}\n",
		"calc/calc_test.go": "package calc\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(2, 3) != 5 {\n\t\tt.Fatal(\"Add(2, 3) != 5\")\n\t}\n}\n\n" +
			"func TestDiv(t *testing.T) {\n\tif _, err := Div(1, 0); err == nil {\n\t\tt.Fatalf(\"Div(1, 0) returned no error <b>want one</b>\")\n\t}\n}\n",
	}
}
