package engine

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"go.uber.org/zap"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/loop/internal/patch"
	"github.com/greenlight-dev/greenlight/services/loop/internal/provider"
	"github.com/greenlight-dev/greenlight/services/loop/internal/store"
)

// errClientClosed is why a CLIENT provider stops: the caller closed its
// side of the Fix stream.
var errClientClosed = errors.New("the client closed its side of the Fix stream")

// StartFix validates a FixStart, creates the repair run and starts the loop
// in the background; the run is canceled when ctx ends. replies carries
// the caller's PatchReply messages for the CLIENT provider (closed when the
// caller has no more); it may be nil for other providers. Bad options,
// guardrails, provider settings or snapshots are refused with
// ErrInvalidArgument and nothing stored. Every proposal is recorded in the
// run store, so the session can be replayed (REPLAY with recording_id set
// to this run's id).
func (e *Engine) StartFix(ctx context.Context, start *glv1.FixStart, replies <-chan *glv1.PatchReply) (*Started, error) {
	if err := e.accepting(); err != nil {
		return nil, err
	}
	opts, err := e.fixOptions(start.GetOptions())
	if err != nil {
		return nil, err
	}
	guard, err := patch.GuardrailsFromProto(opts.GetGuardrails())
	if err != nil {
		return nil, fmt.Errorf("%w: options.guardrails: %w", ErrInvalidArgument, err)
	}
	if err := checkTargets(opts.GetTargets()); err != nil {
		return nil, err
	}
	provCfg, err := e.selectProvider(opts)
	if err != nil {
		return nil, err
	}
	snap, err := e.checkSnapshot(ctx, start.GetSnapshot())
	if err != nil {
		return nil, err
	}
	hidden, err := e.loadHidden(ctx, opts, snap)
	if err != nil {
		return nil, err
	}
	rec := &glv1.Run{
		Id: store.NewRunID(e.now()), Kind: glv1.RunKind_RUN_KIND_FIX, Snapshot: snap.Proto(), CurrentSnapshot: snap.Proto(),
		VerifyOptions: opts.GetVerify(), FixOptions: opts, SourceDir: start.GetSourceDir(),
	}
	var r *run // set before the run starts, read by the client provider's send
	var client *provider.Client
	kind := opts.GetProvider().GetKind()
	var prov Provider
	if kind == glv1.ProviderKind_PROVIDER_KIND_CLIENT {
		if isDetached(ctx) {
			return nil, fmt.Errorf("%w: a detached fix cannot use the CLIENT provider: its patches come over the Fix stream; "+
				"use Fix without detach, or a COMMAND/OPENAI profile or REPLAY", ErrInvalidArgument)
		}
		if replies == nil {
			return nil, fmt.Errorf("%w: the CLIENT provider needs the Fix stream to answer PatchRequested events", ErrInvalidArgument)
		}
		client = provider.NewClient(func(_ context.Context, req *glv1.PatchRequest) error {
			return r.emit(&glv1.RunEvent{Kind: &glv1.RunEvent_PatchRequested{PatchRequested: &glv1.PatchRequested{Request: req}}})
		})
		prov = client
	} else if prov, err = e.provider(ctx, rec.GetId(), provCfg); err != nil {
		return nil, err
	}
	if kind != glv1.ProviderKind_PROVIDER_KIND_REPLAY {
		prov = provider.NewRecorder(prov, provider.StoreRecordings(e.d.Store), rec.GetId())
	}
	if r, err = e.create(ctx, rec); err != nil {
		return nil, err
	}
	return r.start(ctx, rec, func(ctx context.Context) {
		if client != nil {
			go r.pumpReplies(ctx, replies, client)
		}
		f := &fixer{r: r, rec: rec, opts: opts, guard: guard, prov: prov, hidden: hidden}
		f.run(ctx)
	})
}

// selectProvider resolves the request's provider against the server's
// profiles (see provider.Profiles.Select) and returns the configuration to
// build. The stored options keep only what the request may see: the kind,
// the profile's name and the model, never the command line, URL or key
// variable.
func (e *Engine) selectProvider(opts *glv1.FixOptions) (*glv1.ProviderConfig, error) {
	cfg, err := e.cfg.Profiles.Select(opts.GetProvider())
	switch {
	case errors.Is(err, provider.ErrNoProfile):
		return nil, fmt.Errorf("%w: options.provider: %w", ErrPermissionDenied, err)
	case err != nil:
		return nil, fmt.Errorf("%w: options.provider: %w", ErrInvalidArgument, err)
	}
	if cfg.GetProfile() != "" {
		opts.Provider.Profile, opts.Provider.Model = cfg.GetProfile(), cfg.GetModel()
	}
	return cfg, nil
}

// provider builds a non-client provider.
func (e *Engine) provider(ctx context.Context, runID string, cfg *glv1.ProviderConfig) (Provider, error) {
	factory := e.d.Providers
	if factory == nil {
		factory = e.defaultProviders
	}
	p, err := factory(ctx, runID, cfg)
	if err != nil {
		if errors.Is(err, ErrInvalidArgument) {
			return nil, err
		}
		return nil, fmt.Errorf("%w: options.provider: %w", ErrInvalidArgument, err)
	}
	return p, nil
}

// defaultProviders builds OPENAI, COMMAND and REPLAY providers with
// package provider; REPLAY reads the run store's recordings.
// A profile that fails to build is the operator's problem: the caller is
// told which profile, the log says why (so that no request learns anything
// about the loop's environment).
func (e *Engine) defaultProviders(_ context.Context, _ string, cfg *glv1.ProviderConfig) (Provider, error) {
	p, err := provider.New(cfg, provider.Deps{Recordings: provider.StoreRecordings(e.d.Store), Log: e.log.Named("provider")})
	if err != nil && cfg.GetProfile() != "" {
		e.log.Error("provider profile cannot be built", zap.String("profile", cfg.GetProfile()), zap.Error(err))
		return nil, fmt.Errorf("%w: options.provider: provider profile %q is misconfigured on the server (its log says why)",
			ErrInvalidArgument, cfg.GetProfile())
	}
	return p, err
}

// pumpReplies delivers the caller's replies to the CLIENT provider until
// the caller closes its side or the run ends. A reply the provider refuses
// (another attempt, none requested) is dropped: a late answer to a request
// that is no longer pending.
func (r *run) pumpReplies(ctx context.Context, replies <-chan *glv1.PatchReply, c *provider.Client) {
	for {
		select {
		case reply, ok := <-replies:
			if !ok {
				c.Close(errClientClosed)
				return
			}
			if err := c.Deliver(reply); err != nil {
				r.refuseReply(reply, err)
			}
		case <-ctx.Done():
			c.Close(ctx.Err())
			return
		}
	}
}

// maxTargets bounds each list of FixOptions.targets.
const maxTargets = 10000

// checkTargets refuses target lists a run could never meet or that are
// unreasonably long: empty or multi-line ids and step names.
func checkTargets(t *glv1.FixTargets) error {
	for field, ids := range map[string][]string{"fail_to_pass": t.GetFailToPass(), "pass_to_pass": t.GetPassToPass(), "steps": t.GetSteps()} {
		if len(ids) > maxTargets {
			return fmt.Errorf("%w: options.targets.%s has %d entries; at most %d", ErrInvalidArgument, field, len(ids), maxTargets)
		}
		for i, id := range ids {
			if strings.TrimSpace(id) == "" || strings.ContainsAny(id, "\n\r") {
				return fmt.Errorf("%w: options.targets.%s[%d] is %q: name a test id (e.g. pkg.TestX, tests/test_a.py::test_b) or step", ErrInvalidArgument, field, i, id)
			}
		}
	}
	return nil
}

// refuseReply tells the client, on its stream, that a reply was not used.
func (r *run) refuseReply(reply *glv1.PatchReply, why error) {
	r.log.Info("patch reply refused", zap.Int32("attempt", reply.GetAttempt()), zap.Error(why))
	ev := &glv1.RunEvent{Kind: &glv1.RunEvent_PatchReplyRefused{PatchReplyRefused: &glv1.PatchReplyRefused{
		Attempt: reply.GetAttempt(), Reason: why.Error()}}}
	if err := r.emit(ev); err != nil {
		r.log.Warn("recording a refused reply failed", zap.Error(err))
	}
}
