package executorsvc

import (
	"cmp"
	"fmt"

	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/timestamppb"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/blob"
	"github.com/greenlight-dev/greenlight/pkg/image"
	"github.com/greenlight-dev/greenlight/services/executor/internal/sandbox"
)

// genericRuntime runs plain shell steps (images/generic).
const genericRuntime = "generic"

// toRequest validates and converts an ExecuteRequest. Errors wrap
// sandbox.ErrInvalidRequest (or errNoImage) and say what to fix.
func toRequest(req *glv1.ExecuteRequest, images map[string]string) (sandbox.Request, error) {
	p := req.GetPipeline()
	if req.GetSnapshot() == nil {
		return sandbox.Request{}, fmt.Errorf("%w: snapshot digest is missing: upload the workspace tar with BlobService.Write and pass its digest",
			sandbox.ErrInvalidRequest)
	}
	snap, err := blob.DigestFromProto(req.GetSnapshot())
	if err != nil {
		return sandbox.Request{}, fmt.Errorf("%w: snapshot: %w", sandbox.ErrInvalidRequest, err)
	}
	if p == nil || len(p.GetSteps()) == 0 {
		return sandbox.Request{}, fmt.Errorf("%w: the pipeline is empty: add at least one step", sandbox.ErrInvalidRequest)
	}
	// A pipeline that names no runtime is plain shell: the generic image.
	runtime := cmp.Or(p.GetRuntime(), genericRuntime)
	image := p.GetImage()
	if image == "" {
		image = images[runtime]
	}
	steps := make([]sandbox.Step, len(p.GetSteps()))
	for i, s := range p.GetSteps() {
		steps[i] = toStep(s)
		steps[i].Runtime = runtimeOf(steps[i].Image, runtime, images)
		if image == "" && steps[i].Image == "" {
			return sandbox.Request{}, fmt.Errorf("%w: step %q: pipeline.image is empty and runtime %q has no configured image: "+
				"set pipeline.image or configure images.%s", errNoImage, s.GetName(), runtime, runtime)
		}
	}
	return sandbox.Request{
		RunID: req.GetRunId(), Owner: req.GetOwner(), CommitSHA: req.GetCommitSha(), Snapshot: snap,
		Runtime: runtime, Image: image, Steps: steps, Limits: toLimits(req.GetLimits(), p),
		CABundle: req.GetCaBundle(),
	}, nil
}

// runtimeOf names the runtime a step image serves, for messages: the
// pipeline's for its own image, else the table's runtime of that image
// (canonical names, the smallest when several share it).
func runtimeOf(img, pipeline string, images map[string]string) string {
	if img == "" || img == images[pipeline] {
		return pipeline
	}
	best := ""
	for rt, ref := range images {
		if c := image.Canonical(rt); ref == img && (best == "" || c < best) {
			best = c
		}
	}
	return best
}

func toStep(s *glv1.Step) sandbox.Step {
	return sandbox.Step{
		Name: s.GetName(), Command: s.GetCommand(), Workdir: s.GetWorkdir(), Env: s.GetEnv(),
		Timeout: s.GetTimeout().AsDuration(), Install: s.GetPhase() == glv1.Phase_PHASE_INSTALL, Network: s.GetNetwork(),
		ContinueOnFailure: s.GetContinueOnFailure(), Group: s.GetGroup(), FailureScope: s.GetFailureScope(), Image: s.GetImage(),
		CacheKeyFiles: s.GetCacheKeyFiles(), CachePaths: s.GetCachePaths(), ReportFiles: s.GetReportFiles(),
		ToolchainOnly: s.GetToolchainOnly(),
	}
}

// toLimits takes each limit from the request, else from the pipeline; the
// run budget falls back to the pipeline's time budget.
func toLimits(l *glv1.Limits, p *glv1.Pipeline) sandbox.Limits {
	pl := p.GetLimits()
	pick := func(a, b int64) int64 {
		if a > 0 {
			return a
		}
		return b
	}
	cpus := l.GetCpus()
	if cpus <= 0 {
		cpus = pl.GetCpus()
	}
	run := l.GetRunTimeout().AsDuration()
	if run <= 0 {
		run = pl.GetRunTimeout().AsDuration()
	}
	if run <= 0 {
		run = p.GetTimeBudget().AsDuration()
	}
	// The home directory's cap is the server's (--home-size): a request's
	// tmpfs_bytes is /tmp's alone, so asking for a larger /tmp never
	// shrinks the tools' caches.
	return sandbox.Limits{
		CPUs: cpus, MemoryBytes: pick(l.GetMemoryBytes(), pl.GetMemoryBytes()), Pids: pick(l.GetPids(), pl.GetPids()),
		TmpfsBytes: pick(l.GetTmpfsBytes(), pl.GetTmpfsBytes()), WorkspaceBytes: pick(l.GetWorkspaceBytes(), pl.GetWorkspaceBytes()),
		LogBytesPerStep: pick(l.GetLogBytesPerStep(), pl.GetLogBytesPerStep()), RunTimeout: run,
	}
}

// toResponse converts a sandbox event.
func toResponse(runID string, p *glv1.Pipeline, ev sandbox.Event) *glv1.ExecuteResponse {
	r := &glv1.ExecuteResponse{RunId: runID}
	switch e := ev.(type) {
	case *sandbox.StepStarted:
		r.Event = &glv1.ExecuteResponse_StepStarted{StepStarted: &glv1.StepStarted{
			Index: int32(e.Index), Step: p.GetSteps()[e.Index], Time: timestamppb.New(e.Time),
		}}
	case *sandbox.LogChunk:
		r.Event = &glv1.ExecuteResponse_LogChunk{LogChunk: &glv1.LogChunk{
			Index: int32(e.Index), Step: e.Step, Stream: toStream(e.Stream), Data: e.Data, Offset: e.Offset,
		}}
	case *sandbox.StepFinished:
		r.Event = &glv1.ExecuteResponse_StepFinished{StepFinished: &glv1.StepFinished{
			Index: int32(e.Index), Result: toStepResult(&e.Result, p.GetSteps()[e.Index]),
		}}
	}
	return r
}

func toStream(s sandbox.Stream) glv1.Stream {
	switch s {
	case sandbox.StreamStdout:
		return glv1.Stream_STREAM_STDOUT
	case sandbox.StreamStderr:
		return glv1.Stream_STREAM_STDERR
	case sandbox.StreamSystem:
		return glv1.Stream_STREAM_SYSTEM
	}
	return glv1.Stream_STREAM_UNSPECIFIED
}

// statuses maps the domain status to the protobuf enum.
var statuses = map[sandbox.Status]glv1.StepStatus{
	sandbox.StatusOK:        glv1.StepStatus_STEP_STATUS_OK,
	sandbox.StatusFailed:    glv1.StepStatus_STEP_STATUS_FAILED,
	sandbox.StatusTimedOut:  glv1.StepStatus_STEP_STATUS_TIMED_OUT,
	sandbox.StatusOOMKilled: glv1.StepStatus_STEP_STATUS_OOM_KILLED,
	sandbox.StatusCanceled:  glv1.StepStatus_STEP_STATUS_CANCELED,
	sandbox.StatusSkipped:   glv1.StepStatus_STEP_STATUS_SKIPPED,
	sandbox.StatusError:     glv1.StepStatus_STEP_STATUS_ERROR,
}

// toStepResult converts a result, copying the step's classification.
func toStepResult(r *sandbox.StepResult, s *glv1.Step) *glv1.StepResult {
	out := &glv1.StepResult{
		Name: r.Name, Phase: s.GetPhase(), Command: r.Command, Workdir: r.Workdir, ExitCode: int32(r.ExitCode),
		Status: statuses[r.Status], Tail: r.Tail, Truncated: r.Truncated, OutputBytes: r.OutputBytes,
		Reason: r.Reason, CacheHit: r.CacheHit, CacheNote: r.CacheNote, Tier: s.GetTier(), Level: s.GetLevel(), Image: r.Image,
		Optional: s.GetOptional(), DisplayCommand: s.GetDisplayCommand(),
	}
	if !r.StartedAt.IsZero() {
		out.StartedAt, out.FinishedAt = timestamppb.New(r.StartedAt), timestamppb.New(r.FinishedAt)
		out.Duration = durationpb.New(r.Duration)
	}
	if r.LogDigest.Hash != "" {
		out.LogDigest = r.LogDigest.Proto()
	}
	return out
}

// toManifest builds the run manifest; commands_executed lists the steps
// that ran (a cache hit counts: its evidence is the restored tree).
func toManifest(res *sandbox.Result, results []*glv1.StepResult) *glv1.Manifest {
	m := res.Manifest
	out := &glv1.Manifest{
		RunId: m.RunID, TimestampStart: timestamppb.New(m.Start), TimestampEnd: timestamppb.New(m.End),
		CommitSha: m.CommitSHA, Snapshot: m.Snapshot.Proto(),
		Platform: &glv1.Platform{
			Os: m.Platform.OS, Arch: m.Platform.Arch, ContainerImage: m.Platform.Image,
			ImageDigest: m.Platform.ImageDigest, EngineVersion: m.Platform.EngineVersion,
		},
		Limits: &glv1.Limits{
			Cpus: m.Limits.CPUs, MemoryBytes: m.Limits.MemoryBytes, Pids: m.Limits.Pids, TmpfsBytes: m.Limits.TmpfsBytes,
			WorkspaceBytes: m.Limits.WorkspaceBytes, LogBytesPerStep: m.Limits.LogBytesPerStep,
			RunTimeout: durationpb.New(m.Limits.RunTimeout),
		},
	}
	for _, r := range results {
		if r.GetStatus() == glv1.StepStatus_STEP_STATUS_SKIPPED {
			continue
		}
		out.CommandsExecuted = append(out.CommandsExecuted, &glv1.CommandRecord{
			Name: r.GetName(), Command: r.GetCommand(), ExitCode: r.GetExitCode(),
			DurationMs: r.GetDuration().AsDuration().Milliseconds(), Status: r.GetStatus(), Workdir: r.GetWorkdir(),
		})
	}
	return out
}
