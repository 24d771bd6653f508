package eval

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"google.golang.org/grpc"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/blob"
	"github.com/greenlight-dev/greenlight/pkg/contract"
	"github.com/greenlight-dev/greenlight/pkg/display"
	"github.com/greenlight-dev/greenlight/pkg/workspace"
	"github.com/greenlight-dev/greenlight/services/loop/clientprovider"
)

// Runs is the part of RunService an eval uses; glv1.RunServiceClient
// implements it.
type Runs interface {
	Fix(ctx context.Context, opts ...grpc.CallOption) (grpc.BidiStreamingClient[glv1.FixRequest, glv1.FixResponse], error)
	Verify(ctx context.Context, in *glv1.VerifyRequest, opts ...grpc.CallOption) (grpc.ServerStreamingClient[glv1.VerifyResponse], error)
	GetRun(ctx context.Context, in *glv1.GetRunRequest, opts ...grpc.CallOption) (*glv1.GetRunResponse, error)
}

// Uploader stores snapshots; *blob.Client and *blob.Store implement it.
type Uploader interface {
	Put(ctx context.Context, r io.Reader) (blob.Digest, error)
}

// Options tune an eval.
type Options struct {
	// Samples is how many repair runs each task gets (n); default 1.
	Samples int
	// K is the k of pass@k, at most Samples; default Samples.
	K int
	// Provider, when set, replaces every task's provider section (the
	// client kind is refused: nobody would answer patch requests).
	Provider *glv1.ProviderConfig
	// Started, when set, is called before every sample (i counts from 0).
	Started func(task string, i int)
	// Progress, when set, is called after every sample.
	Progress func(task string, i int, s Sample)
	// AllowConfigChanges lets every task's patches edit verification
	// config (as if each task.yaml said allow_config_changes: true).
	AllowConfigChanges bool
}

// Run evaluates the tasks: Samples repair runs each, one after the other.
// A sample that fails to run (an RPC error) counts as not passing and
// carries its error; Run itself fails when a task has no usable provider
// (ErrSuite, before anything runs), when a snapshot cannot be packed or
// uploaded, or when ctx ends.
func Run(ctx context.Context, runs Runs, up Uploader, tasks []*Task, opts Options) (*Report, error) {
	if opts.Samples <= 0 {
		opts.Samples = 1
	}
	if opts.K <= 0 || opts.K > opts.Samples {
		opts.K = opts.Samples
	}
	provs, err := providers(tasks, opts.Provider)
	if err != nil {
		return nil, err
	}
	rep := &Report{EvalReport: contract.EvalReport{Samples: opts.Samples, K: opts.K}}
	for ti, t := range tasks {
		snap, hidden, err := upload(ctx, up, t)
		if err != nil {
			return nil, err
		}
		tr := TaskReport{Name: t.Name}
		for i := range opts.Samples {
			if opts.Started != nil {
				opts.Started(t.Name, i)
			}
			s := sample(ctx, runs, withOptions(t, opts), provs[ti], snap, hidden)
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			tr.Runs = append(tr.Runs, s)
			if opts.Progress != nil {
				opts.Progress(t.Name, i, s)
			}
		}
		rep.Tasks = append(rep.Tasks, tr)
	}
	rep.summarize()
	return rep, nil
}

// withOptions returns t with the caller's options applied (a copy when
// they change it).
func withOptions(t *Task, opts Options) *Task {
	if !opts.AllowConfigChanges || t.AllowConfigChanges {
		return t
	}
	c := *t
	c.AllowConfigChanges = true
	return &c
}

// Validate checks, without running anything, that every task has a
// provider an eval can use: provider (the caller's override) when not nil,
// else the task's own. Its errors wrap ErrSuite.
func Validate(tasks []*Task, provider *glv1.ProviderConfig) error {
	_, err := providers(tasks, provider)
	return err
}

// taskProvider is how a task's runs get their patches: cfg is sent in
// FixStart; answer, when set, runs a COMMAND or OPENAI provider here and
// answers the run's patch requests as a CLIENT provider.
type taskProvider struct {
	cfg    *glv1.ProviderConfig
	answer clientprovider.Answer
}

// providers resolves every task's provider. COMMAND and OPENAI providers
// run in this process (a loop runs only the profiles its operator
// configured): a command in the task directory, with this process's
// environment; a model with this process's key.
func providers(tasks []*Task, override *glv1.ProviderConfig) ([]taskProvider, error) {
	provs := make([]taskProvider, len(tasks))
	for i, t := range tasks {
		if t.fixed != nil && override == nil {
			provs[i] = fixedProvider(*t.fixed)
			continue
		}
		p, err := t.provider(override)
		if err == nil && clientprovider.Local(p.GetKind()) {
			provs[i].answer, err = clientprovider.New(p, clientprovider.Options{Dir: t.Dir})
			p = &glv1.ProviderConfig{Kind: glv1.ProviderKind_PROVIDER_KIND_CLIENT}
		}
		if err != nil {
			return nil, fmt.Errorf("%w: task %s: %w", ErrSuite, t.Name, err)
		}
		provs[i].cfg = p
	}
	return provs, nil
}

// upload packs a task's workspace (without its hidden tests) and stores
// it, and its hidden tests' diff (nil without: a SWE-bench instance's
// test_patch, or the task's hidden_tests).
func upload(ctx context.Context, up Uploader, t *Task) (snap, hidden *glv1.Digest, err error) {
	var buf bytes.Buffer
	exclude := []string{"/" + TaskFile}
	if h := hiddenExclude(t); h != "" {
		exclude = append(exclude, h)
	}
	if _, err := workspace.Pack(ctx, t.Workspace, &buf, workspace.PackOptions{Exclude: exclude}); err != nil {
		return nil, nil, fmt.Errorf("task %s: pack %s: %w", t.Name, t.Workspace, err)
	}
	diff, err := hiddenDiff(ctx, t, buf.Bytes())
	if err != nil {
		return nil, nil, err
	}
	if diff != "" {
		d, err := up.Put(ctx, strings.NewReader(diff))
		if err != nil {
			return nil, nil, fmt.Errorf("task %s: upload hidden tests: %w", t.Name, err)
		}
		hidden = d.Proto()
	}
	d, err := up.Put(ctx, &buf)
	if err != nil {
		return nil, nil, fmt.Errorf("task %s: upload snapshot: %w", t.Name, err)
	}
	return d.Proto(), hidden, nil
}

// sample runs one repair run of a task (and its reference check).
func sample(ctx context.Context, runs Runs, t *Task, prov taskProvider, snap, hidden *glv1.Digest) Sample {
	start := time.Now()
	s := Sample{Status: contract.StatusError, RunStatus: "UNSPECIFIED"}
	fin, runID, err := fix(ctx, runs, t, prov, snap, hidden)
	s.RunID = runID
	if err != nil {
		s.Error = err.Error()
		s.WallSeconds = round3(time.Since(start).Seconds())
		return s
	}
	m := fin.GetMetrics()
	s.Status, s.RunStatus = contract.Verdict(fin.GetResult().GetStatus()), contract.RunStatus(fin.GetStatus())
	s.Summary = fin.GetResult().GetSummary()
	s.Green, s.StopReason, s.Rounds, s.Rollbacks = m.GetGreen(), m.GetStopReason(), m.GetRounds(), m.GetRollbacks()
	s.AttemptsToGreen, s.PatchLines = m.GetAttemptsToGreen(), m.GetPatchLines()
	s.TimeToGreenSeconds = round3(m.GetTimeToGreen().AsDuration().Seconds())
	s.Reruns = m.GetReruns()
	if tr := m.GetTransitions(); tr != nil {
		s.Resolution, s.Transitions = display.Resolution(tr.GetResolution()), display.Transitions(tr)
		s.FailToPass, s.PassToFail = tr.GetFailToPass(), tr.GetPassToFail()
		s.FailingFailToPass, s.FailingPassToPass = tr.GetFailingFailToPass(), tr.GetFailingPassToPass()
	}
	s.Cost, s.Tokens = m.GetUsage().GetCost(), m.GetUsage().GetPromptTokens()+m.GetUsage().GetCompletionTokens()
	if h := m.GetHiddenTests(); h != nil {
		s.HiddenTests = &contract.HiddenTests{Passed: h.GetPassed(), Failed: h.GetFailed(), Missing: h.GetMissing(), Failing: h.GetFailing()}
	}
	got, err := runs.GetRun(ctx, &glv1.GetRunRequest{RunId: runID})
	if err != nil {
		s.Error = fmt.Sprintf("get run: %v", err)
	} else {
		s.Patches = len(got.GetRun().GetPatches())
		for _, p := range got.GetRun().GetPatches() {
			s.Applied = s.Applied || p.GetApplied()
			if tr := p.GetTransitions(); p.GetApplied() && tr != nil {
				s.LastPatch = &Grade{Resolution: display.Resolution(tr.GetResolution()),
					FailingFailToPass: tr.GetFailingFailToPass(), FailingPassToPass: tr.GetFailingPassToPass()}
			}
		}
		s.FinalSnapshot = got.GetRun().GetCurrentSnapshot().GetHash()
	}
	s.Passed = s.Green && s.Error == ""
	if s.Passed && t.ReferenceCheck != "" {
		ok, err := reference(ctx, runs, t, got.GetRun().GetCurrentSnapshot())
		s.ReferencePassed = &ok
		if err != nil {
			s.Error = fmt.Sprintf("reference check: %v", err)
		}
		s.Passed = ok
	}
	s.WallSeconds = round3(time.Since(start).Seconds())
	return s
}

// fix runs one repair run and returns its RunFinished event.
func fix(ctx context.Context, runs Runs, t *Task, prov taskProvider, snap, hidden *glv1.Digest) (*glv1.RunFinished, string, error) {
	opts := t.options(prov.cfg)
	opts.HiddenTests = hidden
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stream, err := runs.Fix(ctx)
	if err != nil {
		return nil, "", err
	}
	if err := stream.Send(&glv1.FixRequest{Msg: &glv1.FixRequest_Start{Start: &glv1.FixStart{
		Snapshot: snap, Options: opts, SourceDir: t.Workspace}}}); err != nil {
		return nil, "", err
	}
	// Unless this process answers patch requests, nothing more will be sent.
	if prov.answer == nil {
		if err := stream.CloseSend(); err != nil {
			return nil, "", err
		}
	}
	runID := ""
	for {
		resp, err := stream.Recv()
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = errors.New("the Fix stream ended without RunFinished")
			}
			return nil, runID, err
		}
		ev := resp.GetEvent()
		runID = ev.GetRunId()
		if fin := ev.GetRunFinished(); fin != nil {
			return fin, runID, nil
		}
		if req := ev.GetPatchRequested().GetRequest(); req != nil && prov.answer != nil {
			if err := reply(ctx, stream, prov.answer, req); err != nil {
				return nil, runID, err
			}
		}
	}
}

// reply answers one patch request with the local provider.
func reply(ctx context.Context, stream grpc.BidiStreamingClient[glv1.FixRequest, glv1.FixResponse], answer clientprovider.Answer,
	req *glv1.PatchRequest) error {
	r, err := answer(ctx, req)
	if err != nil {
		return fmt.Errorf("provider: %w", err)
	}
	return stream.Send(&glv1.FixRequest{Msg: &glv1.FixRequest_Patch{Patch: r}})
}

// reference verifies the final snapshot with only the reference check
// selected (it must be a command discovery whitelisted for the workspace).
func reference(ctx context.Context, runs Runs, t *Task, snap *glv1.Digest) (bool, error) {
	sel := &glv1.CommandSelection{Name: t.ReferenceCheck}
	if strings.ContainsAny(t.ReferenceCheck, " \t") {
		sel = &glv1.CommandSelection{Command: t.ReferenceCheck}
	}
	stream, err := runs.Verify(ctx, &glv1.VerifyRequest{Snapshot: snap, SourceDir: t.Workspace,
		Options: &glv1.VerifyOptions{Selection: []*glv1.CommandSelection{sel}, ChangedFiles: t.ChangedFiles}})
	if err != nil {
		return false, err
	}
	for {
		resp, err := stream.Recv()
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = errors.New("the Verify stream ended without RunFinished")
			}
			return false, err
		}
		if fin := resp.GetEvent().GetRunFinished(); fin != nil {
			if fin.GetStatus() == glv1.RunStatus_RUN_STATUS_ERROR {
				return false, errors.New(fin.GetResult().GetSummary())
			}
			return fin.GetResult().GetStatus() == glv1.Verdict_VERDICT_PASS, nil
		}
	}
}
