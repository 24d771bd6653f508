package cli

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/greenlight-dev/greenlight/cmd/greenlight/internal/snapshot"
	"github.com/greenlight-dev/greenlight/cmd/greenlight/internal/stack"
	"github.com/greenlight-dev/greenlight/cmd/greenlight/internal/summary"
	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// fixFlags are fix's flags on top of verify's.
type fixFlags struct {
	verifyFlags
	provider   string
	profile    string
	command    string
	baseURL    string
	model      string
	recording  string
	maxRounds  int32
	fixBudget  time.Duration
	costBudget float64
	threshold  float64
	baseline   bool
	apply      bool
	allow      []string
	allowTests bool
	// allowDeps lets patches edit lockfiles and dependency declarations.
	allowDeps bool
	// allowConfig lets patches edit verification config (greenlight.yaml,
	// CI, test-runner config); the plan stays pinned either way.
	allowConfig bool
	// maxLines and maxBytes raise or lower the patch size caps (-1: none).
	maxLines int32
	maxBytes int64
	// failToPass, passToPass and targetSteps name the run's goal.
	failToPass, passToPass, targetSteps []string
	// requestTokens sizes each patch request's prompt.
	requestTokens int32
	failFast      bool
	// hiddenTests is a diff file or directory of tests the model never
	// sees; hiddenTargets name those that must pass.
	hiddenTests   string
	hiddenTargets []string
}

func (a *app) fixCmd() *cobra.Command {
	var f fixFlags
	cmd := &cobra.Command{
		Use:   "fix [DIR] --provider client|openai|command|replay",
		Short: "Repair a failing workspace: a model proposes patches until the checks pass",
		Long: `fix runs the repair loop on DIR: verify, ask the patch provider for a
minimal patch, apply it to a copy of the snapshot, verify again, and keep
or roll back the patch, until the checks pass or --max-rounds is reached.
DIR itself is never modified unless --apply is given; without it the
winning diff is printed.

Providers:
  client   this CLI answers each patch request: with --command CMD it runs
           CMD locally (request JSON on stdin, patch on stdout); otherwise
           it reads one patch from stdin.
  command  --command CMD: CMD runs on this machine, with /bin/sh -c, the
           patch request as JSON on stdin, the patch on stdout (empty
           output gives up). With --addr the CLI runs it and answers the
           server as a client provider; embedded, the loop in this process
           runs it as its provider profile "cli".
  openai   an OpenAI-compatible endpoint: --base-url URL --model NAME,
           called from this machine with the key of GREENLIGHT_OPENAI_API_KEY
           or OPENAI_API_KEY (this process's environment).
  replay   plays back the recorded session of --recording RUN.

A server never runs a command or reads a key a request names: its
operator configures command and openai providers as named profiles
(greenlight-loop --provider-profile); --provider command|openai
--profile NAME selects one (--model overrides an openai profile's model
only when the profile allows it).`,
		Args: maxArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := f.parse(); err != nil {
				return err
			}
			if err := a.parseReview(&f.verifyFlags); err != nil {
				return err
			}
			if len(f.hiddenTargets) > 0 && f.hiddenTests == "" {
				return usagef("--hidden-target names hidden tests: give them with --hidden-tests PATCH|DIR")
			}
			prov, err := f.providerConfig(a.env.Getenv)
			if err != nil {
				return err
			}
			return a.fix(cmd.Context(), dirArg(args), &f, prov)
		},
	}
	f.verifyFlags.bind(cmd)
	f.verifyFlags.bindPlan(cmd)
	f.verifyFlags.bindReview(cmd)
	f.verifyFlags.bindSecurity(cmd)
	fl := cmd.Flags()
	fl.StringVar(&f.provider, "provider", "", "patch provider: client, openai, command or replay (required)")
	fl.StringVar(&f.profile, "profile", "", "command/openai: use this provider profile of the server (loop --provider-profile) instead of --command/--base-url")
	fl.StringVar(&f.command, "command", "", "program for the command provider (or the client provider, run locally)")
	fl.StringVar(&f.baseURL, "base-url", "", "openai: the endpoint's base URL, e.g. http://127.0.0.1:8000/v1")
	fl.StringVar(&f.model, "model", "", "openai: the model name")
	fl.StringVar(&f.recording, "recording", "", "replay: the run id whose recorded session to play back")
	fl.Int32Var(&f.maxRounds, "max-rounds", 0, "patch rounds at most (default: the server's, 3)")
	fl.DurationVar(&f.fixBudget, "fix-time-budget", 0, "budget of the whole repair run (default: the server's)")
	fl.Float64Var(&f.costBudget, "cost-budget", 0, "stop when the model's cost reaches this (0: unlimited)")
	fl.Float64Var(&f.threshold, "score-threshold", 0, "score (0-10) a green run must reach (default: the server's, 8)")
	fl.BoolVar(&f.baseline, "baseline", false, "kept for compatibility: the unpatched snapshot is always verified first and is the baseline")
	fl.Int32Var(&f.maxLines, "max-changed-lines", 0, "changed lines (added plus removed) a patch may have (default 200; -1: no limit)")
	fl.Int64Var(&f.maxBytes, "max-patch-bytes", 0, "size a patch's text may have (default 64 KiB; -1: no limit)")
	fl.StringSliceVar(&f.failToPass, "fail-to-pass", nil,
		"test ids that must pass at the end (the goal; failures at baseline outside it are reported, not chased)")
	fl.StringSliceVar(&f.passToPass, "pass-to-pass", nil, "test ids that must keep passing (default: every test passing at baseline)")
	fl.Int32Var(&f.requestTokens, "request-tokens", 0, "size of each patch request's prompt in tokens (default 16000; evidence is dropped to fit)")
	fl.BoolVar(&f.failFast, "fail-fast", true, "run the failing tests alone first for each patch; one that fixes none of them is rolled back without the full pipeline (--fail-fast=false: verify every patch in full)")
	fl.StringSliceVar(&f.targetSteps, "target-step", nil, "step names that must pass at the end (with --fail-to-pass, or alone)")
	fl.StringVar(&f.hiddenTests, "hidden-tests", "", "tests the model never sees (PATCH: a unified diff; DIR: files laid over the workspace at the same "+
		"relative paths, kept outside it); every candidate is graded with them, the model learns only how many fail")
	fl.StringSliceVar(&f.hiddenTargets, "hidden-target", nil, "hidden test ids that must pass (default: every test collected from --hidden-tests)")
	fl.BoolVar(&f.apply, "apply", false, "write the winning patch back to DIR")
	fl.StringSliceVar(&f.allow, "allow", nil, "globs of paths a patch may touch (default: the whole workspace)")
	fl.BoolVar(&f.allowTests, "allow-test-changes", false, "let patches add, edit or delete tests, fixtures and test data")
	fl.BoolVar(&f.allowDeps, "allow-lockfile-edits", false, "let patches edit lockfiles and dependency declarations (go.mod, requirements, package.json dependencies)")
	fl.BoolVar(&f.allowConfig, "allow-config-changes", false,
		"let patches edit verification config (greenlight.yaml, CI, pytest.ini, conftest.py, jest/vitest config); the plan stays pinned")
	return cmd
}

// providerConfig validates the provider flags.
func (f *fixFlags) providerConfig(getenv func(string) string) (*glv1.ProviderConfig, error) {
	p := &glv1.ProviderConfig{}
	switch f.provider {
	case "client":
		p.Kind = glv1.ProviderKind_PROVIDER_KIND_CLIENT
	case "command", "openai":
		if f.profile != "" {
			return f.profileConfig()
		}
		return f.localConfig(getenv)
	case "replay":
		if f.recording == "" {
			return nil, usagef("--provider replay needs --recording RUN")
		}
		p.Kind, p.RecordingId = glv1.ProviderKind_PROVIDER_KIND_REPLAY, f.recording
	case "":
		return nil, usagef("--provider is required: client, openai, command or replay")
	default:
		return nil, usagef("--provider: unknown provider %q (client, openai, command or replay)", f.provider)
	}
	if f.profile != "" {
		return nil, usagef("--profile selects a command or openai profile of the server, not a %s provider", f.provider)
	}
	return p, f.checkBudgets()
}

// checkBudgets validates the budget flags.
func (f *fixFlags) checkBudgets() error {
	if f.maxRounds < 0 || f.costBudget < 0 || f.threshold < 0 || f.threshold > 10 || f.fixBudget < 0 {
		return usagef("--max-rounds, --cost-budget and --fix-time-budget must not be negative; --score-threshold is 0..10")
	}
	if f.maxLines < -1 || f.maxBytes < -1 {
		return usagef("--max-changed-lines and --max-patch-bytes are positive, or -1 for no limit")
	}
	return nil
}

// profileConfig selects a provider profile configured on the server.
func (f *fixFlags) profileConfig() (*glv1.ProviderConfig, error) {
	if f.command != "" || f.baseURL != "" {
		return nil, usagef("--profile uses the server's %s profile %q: drop --command and --base-url (the profile has them)", f.provider, f.profile)
	}
	p := &glv1.ProviderConfig{Kind: glv1.ProviderKind_PROVIDER_KIND_COMMAND, Profile: f.profile}
	if f.provider == "openai" {
		p.Kind, p.Model = glv1.ProviderKind_PROVIDER_KIND_OPENAI, f.model
	} else if f.model != "" {
		return nil, usagef("--model applies to --provider openai")
	}
	return p, f.checkBudgets()
}

// localConfig describes a command or model run by this CLI (or, embedded,
// by the loop in this process).
func (f *fixFlags) localConfig(getenv func(string) string) (*glv1.ProviderConfig, error) {
	p := &glv1.ProviderConfig{}
	switch f.provider {
	case "command":
		if f.command == "" {
			return nil, usagef("--provider command needs --command CMD (or --profile NAME of the server)")
		}
		p.Kind, p.Command = glv1.ProviderKind_PROVIDER_KIND_COMMAND, f.command
	case "openai":
		if f.baseURL == "" || f.model == "" {
			return nil, usagef("--provider openai needs --base-url URL and --model NAME")
		}
		p.Kind, p.BaseUrl, p.Model = glv1.ProviderKind_PROVIDER_KIND_OPENAI, f.baseURL, f.model
		p.ApiKeyEnv = "GREENLIGHT_OPENAI_API_KEY"
		if getenv("GREENLIGHT_OPENAI_API_KEY") == "" && getenv("OPENAI_API_KEY") != "" {
			p.ApiKeyEnv = "OPENAI_API_KEY"
		}
	}
	return p, f.checkBudgets()
}

// options builds FixOptions.
func (f *fixFlags) options(p *glv1.ProviderConfig) *glv1.FixOptions {
	o := &glv1.FixOptions{
		Verify: f.verifyFlags.options(), Provider: p, MaxRounds: f.maxRounds, CostBudget: f.costBudget,
		ScoreThreshold: f.threshold, Baseline: f.baseline, RequestTokens: f.requestTokens, FailFast: proto.Bool(f.failFast),
	}
	if f.fixBudget > 0 {
		o.TimeBudget = durationpb.New(f.fixBudget)
	}
	if len(f.allow) > 0 || f.allowTests || f.allowDeps || f.allowConfig || f.maxLines != 0 || f.maxBytes != 0 {
		o.Guardrails = &glv1.Guardrails{AllowedGlobs: f.allow, AllowTestChanges: f.allowTests, AllowConfigChanges: f.allowConfig,
			AllowLockfileEdits: f.allowDeps,
			MaxChangedLines:    f.maxLines, MaxBytes: f.maxBytes}
	}
	if len(f.failToPass)+len(f.passToPass)+len(f.targetSteps) > 0 {
		o.Targets = &glv1.FixTargets{FailToPass: f.failToPass, PassToPass: f.passToPass, Steps: f.targetSteps}
	}
	o.HiddenTargets = f.hiddenTargets
	return o
}

// fix runs the repair loop and reports.
func (a *app) fix(ctx context.Context, dir string, f *fixFlags, prov *glv1.ProviderConfig) error {
	hidden, err := checkHidden(dir, f.hiddenTests)
	if err != nil {
		return err
	}
	packed, err := snapshot.Pack(ctx, dir, f.maxByteVal, "")
	if err != nil {
		return err
	}
	defer packed.Remove()
	route, err := a.routeProvider(f, prov)
	if err != nil {
		return err
	}
	conn, err := a.connectWith(ctx, append(route.profiles, a.profiles...), roundsPool)
	if err != nil {
		return err
	}
	defer conn.Close()
	if err := packed.Upload(ctx, conn.Blobs); err != nil {
		return err
	}
	opts := f.options(route.request)
	if hidden != nil {
		if opts.HiddenTests, err = uploadHidden(ctx, conn, packed, hidden); err != nil {
			return err
		}
	}
	run, err := a.runFix(ctx, conn, &glv1.FixStart{Snapshot: packed.Digest.Proto(), Options: opts, SourceDir: packed.Dir},
		route.answer, f)
	if err != nil {
		return err
	}
	if f.json {
		if err := a.write(summary.JSON(run)); err != nil {
			return err
		}
	} else {
		a.printSummary(conn, run)
		a.printDiff(run, f.apply)
	}
	if f.apply {
		out := a.env.Stdout
		if f.json {
			out = a.env.Stderr
		}
		if err := a.writeBack(ctx, out, conn, packed, run, f.maxByteVal); err != nil {
			return err
		}
	}
	return verdictExit(run)
}

// runFix opens the Fix stream, answers patch requests (client provider)
// and follows the run to its end.
func (a *app) runFix(ctx context.Context, conn *stack.Conn, start *glv1.FixStart, answer patchSource, f *fixFlags) (*glv1.Run, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stream, err := conn.Run.Fix(ctx)
	if err != nil {
		return nil, err
	}
	if err := stream.Send(&glv1.FixRequest{Msg: &glv1.FixRequest_Start{Start: start}}); err != nil {
		return nil, fmt.Errorf("start the repair run: %w", recvErr(stream, err))
	}
	if answer == nil {
		_ = stream.CloseSend() // no patches will come from this side
	}
	sink := &patchAnswerer{ctx: ctx, stream: stream, answer: answer}
	recv := func() (*glv1.RunEvent, error) {
		if sink.err != nil {
			return nil, sink.err
		}
		m, err := stream.Recv()
		return m.GetEvent(), err
	}
	var inner eventSink = nopSink{}
	if !f.quiet {
		r := a.newRenderer(a.env.Stderr, f.logs)
		defer r.Close()
		inner = r
	}
	sink.inner = inner
	runID, fin, err := follow(ctx, conn, recv, sink)
	if err != nil {
		return nil, err
	}
	return finalRun(ctx, conn, runID, fin), nil
}

// recvErr prefers the server's reason when a Send failed (grpc reports
// io.EOF on Send and the status on Recv).
func recvErr(stream grpc.BidiStreamingClient[glv1.FixRequest, glv1.FixResponse], sendErr error) error {
	if _, err := stream.Recv(); err != nil {
		return err
	}
	return sendErr
}

// patchAnswerer forwards events to inner and answers PatchRequested events.
type patchAnswerer struct {
	ctx    context.Context
	stream grpc.BidiStreamingClient[glv1.FixRequest, glv1.FixResponse]
	answer patchSource
	inner  eventSink
	err    error
}

func (p *patchAnswerer) Event(ev *glv1.RunEvent) {
	p.inner.Event(ev)
	req := ev.GetPatchRequested().GetRequest()
	if req == nil || p.answer == nil || p.err != nil {
		return
	}
	reply, err := p.answer(p.ctx, req)
	if err != nil {
		p.err = fmt.Errorf("client provider: %w", err)
		return
	}
	reply.Attempt = req.GetAttempt()
	if err := p.stream.Send(&glv1.FixRequest{Msg: &glv1.FixRequest_Patch{Patch: reply}}); err != nil && !errors.Is(err, context.Canceled) {
		p.err = fmt.Errorf("send patch: %w", err)
	}
}
