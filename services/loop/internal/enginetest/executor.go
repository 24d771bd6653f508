package enginetest

import (
	"archive/tar"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/timestamppb"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/blob"
)

// Outcome is what a fake step does: print Log (in Chunks pieces), take
// Sleep, and exit with Exit.
type Outcome struct {
	Exit   int
	Log    string
	Sleep  time.Duration
	Chunks int
}

// Judge decides a step's outcome from the snapshot's files.
type Judge func(step *glv1.Step, files map[string]string) Outcome

// Blobs is what the fake executor reads snapshots from and writes logs to.
type Blobs interface {
	Open(ctx context.Context, d blob.Digest) (io.ReadCloser, error)
	Put(ctx context.Context, r io.Reader) (blob.Digest, error)
}

// Executor is an ExecutorService that runs steps by judging files. Like
// the real one it stops at the first failing step (skipping the rest),
// ends the running step TIMED_OUT and skips the rest when the run budget
// runs out, reports CANCELED when the stream is canceled, and stores each
// step's log as a blob.
type Executor struct {
	glv1.UnimplementedExecutorServiceServer

	blobs Blobs
	judge Judge

	mu       sync.Mutex
	requests []*glv1.ExecuteRequest
	started  chan string
}

// NewExecutor returns an executor judging with j.
func NewExecutor(blobs Blobs, j Judge) *Executor {
	return &Executor{blobs: blobs, judge: j, started: make(chan string, 1024)}
}

// SetJudge makes later steps run by j.
func (e *Executor) SetJudge(j Judge) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.judge = j
}

// Requests returns the Execute requests received so far.
func (e *Executor) Requests() []*glv1.ExecuteRequest {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]*glv1.ExecuteRequest(nil), e.requests...)
}

// Started receives the name of every step as it starts.
func (e *Executor) Started() <-chan string { return e.started }

// Execute runs the pipeline.
func (e *Executor) Execute(req *glv1.ExecuteRequest, stream grpc.ServerStreamingServer[glv1.ExecuteResponse]) error {
	e.mu.Lock()
	e.requests = append(e.requests, proto.Clone(req).(*glv1.ExecuteRequest))
	e.mu.Unlock()
	ctx := stream.Context()
	files, err := e.files(ctx, req.GetSnapshot())
	if err != nil {
		return err
	}
	budget := req.GetLimits().GetRunTimeout().AsDuration()
	if budget <= 0 {
		budget = time.Hour
	}
	deadline := time.Now().Add(budget)
	var results []*glv1.StepResult
	stop := ""
	for i, s := range req.GetPipeline().GetSteps() {
		res := &glv1.StepResult{Name: s.GetName(), Phase: s.GetPhase(), Command: s.GetCommand(), Workdir: s.GetWorkdir(),
			Tier: s.GetTier(), Level: s.GetLevel(), Optional: s.GetOptional(), Status: glv1.StepStatus_STEP_STATUS_SKIPPED, Reason: stop}
		if stop == "" {
			res, stop, err = e.step(ctx, stream, req.GetRunId(), i, s, files, deadline)
			if err != nil {
				return err
			}
		}
		results = append(results, res)
	}
	return stream.Send(&glv1.ExecuteResponse{RunId: req.GetRunId(), Event: &glv1.ExecuteResponse_Finished{Finished: &glv1.ExecuteFinished{
		Results: results, Manifest: &glv1.Manifest{RunId: req.GetRunId(), Snapshot: req.GetSnapshot(),
			Platform: &glv1.Platform{Os: "linux", Arch: "amd64", ContainerImage: req.GetPipeline().GetImage()}},
	}}})
}

// step runs one step and says why the pipeline stops after it ("" if not).
func (e *Executor) step(ctx context.Context, stream grpc.ServerStreamingServer[glv1.ExecuteResponse], runID string, i int,
	s *glv1.Step, files map[string]string, deadline time.Time) (*glv1.StepResult, string, error) {
	start := time.Now()
	select {
	case e.started <- s.GetName():
	default:
	}
	send := func(ev *glv1.ExecuteResponse) error { ev.RunId = runID; return stream.Send(ev) }
	if err := send(&glv1.ExecuteResponse{Event: &glv1.ExecuteResponse_StepStarted{StepStarted: &glv1.StepStarted{
		Index: int32(i), Step: s, Time: timestamppb.New(start)}}}); err != nil {
		return nil, "", err
	}
	e.mu.Lock()
	judge := e.judge
	e.mu.Unlock()
	out := judge(s, files)
	res := &glv1.StepResult{Name: s.GetName(), Phase: s.GetPhase(), Command: s.GetCommand(), Workdir: s.GetWorkdir(),
		Tier: s.GetTier(), Level: s.GetLevel(), Optional: s.GetOptional(), StartedAt: timestamppb.New(start)}
	stop := ""
	timer := time.NewTimer(min(out.Sleep, time.Until(deadline)))
	defer timer.Stop()
	select {
	case <-ctx.Done():
		res.Status, res.ExitCode, res.Reason = glv1.StepStatus_STEP_STATUS_CANCELED, -1, "the run was canceled by the caller"
		stop = res.Reason
	case <-timer.C:
		switch {
		case out.Sleep > 0 && !time.Now().Before(deadline):
			res.Status, res.ExitCode = glv1.StepStatus_STEP_STATUS_TIMED_OUT, -1
			res.Reason = "the run budget was exhausted; the sandbox was destroyed"
			stop = res.Reason
		case out.Exit == 0:
			res.Status = glv1.StepStatus_STEP_STATUS_OK
		default:
			res.Status, res.ExitCode = glv1.StepStatus_STEP_STATUS_FAILED, int32(out.Exit)
			stop = fmt.Sprintf("step %q failed", s.GetName())
		}
	}
	if res.Status == glv1.StepStatus_STEP_STATUS_OK || res.Status == glv1.StepStatus_STEP_STATUS_FAILED {
		if err := e.sendLog(stream, runID, i, s.GetName(), out); err != nil {
			return nil, "", err
		}
		d, err := e.blobs.Put(context.WithoutCancel(ctx), strings.NewReader(out.Log))
		if err != nil {
			return nil, "", err
		}
		res.LogDigest, res.Tail, res.OutputBytes = d.Proto(), out.Log, int64(len(out.Log))
	}
	res.FinishedAt = timestamppb.Now()
	res.Duration = durationpb.New(time.Since(start))
	err := send(&glv1.ExecuteResponse{Event: &glv1.ExecuteResponse_StepFinished{StepFinished: &glv1.StepFinished{Index: int32(i), Result: res}}})
	if ctx.Err() != nil {
		return res, stop, nil
	}
	return res, stop, err
}

// sendLog streams the log in out.Chunks pieces (at least one).
func (e *Executor) sendLog(stream grpc.ServerStreamingServer[glv1.ExecuteResponse], runID string, i int, name string, out Outcome) error {
	n := max(out.Chunks, 1)
	size := (len(out.Log) + n - 1) / n
	var off int64
	for len(out.Log) > 0 {
		piece := out.Log[:min(size, len(out.Log))]
		out.Log = out.Log[len(piece):]
		if err := stream.Send(&glv1.ExecuteResponse{RunId: runID, Event: &glv1.ExecuteResponse_LogChunk{LogChunk: &glv1.LogChunk{
			Index: int32(i), Step: name, Stream: glv1.Stream_STREAM_STDOUT, Data: piece, Offset: off}}}); err != nil {
			return err
		}
		off += int64(len(piece))
	}
	return nil
}

// files reads a snapshot tar into a map of regular files.
func (e *Executor) files(ctx context.Context, p *glv1.Digest) (map[string]string, error) {
	d, err := blob.DigestFromProto(p)
	if err != nil {
		return nil, err
	}
	rc, err := e.blobs.Open(ctx, d)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	return TarFiles(rc)
}

// TarFiles reads the regular files of a tar.
func TarFiles(r io.Reader) (map[string]string, error) {
	out := map[string]string{}
	tr := tar.NewReader(r)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		if h.Typeflag != tar.TypeReg {
			continue
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			return nil, err
		}
		out[strings.TrimPrefix(h.Name, "./")] = string(b)
	}
}
