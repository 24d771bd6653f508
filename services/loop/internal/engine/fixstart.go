package engine

import (
	"context"
	"errors"
	"fmt"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/loop/internal/patch"
	"github.com/greenlight-dev/greenlight/services/loop/internal/store"
)

// StartFix validates a FixStart, creates the repair run and starts the loop
// in the background; the run is canceled when ctx ends. replies carries
// the caller's PatchReply messages for the CLIENT provider (closed when the
// caller has no more); it may be nil for other providers. Bad options,
// guardrails, provider settings or snapshots are refused with
// ErrInvalidArgument and nothing stored.
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
	snap, err := e.checkSnapshot(ctx, start.GetSnapshot())
	if err != nil {
		return nil, err
	}
	rec := &glv1.Run{
		Id: store.NewRunID(e.now()), Kind: glv1.RunKind_RUN_KIND_FIX, Snapshot: snap.Proto(), CurrentSnapshot: snap.Proto(),
		VerifyOptions: opts.GetVerify(), FixOptions: opts, SourceDir: start.GetSourceDir(),
	}
	prov, err := e.provider(ctx, rec.GetId(), opts.GetProvider(), replies)
	if err != nil {
		return nil, err
	}
	r, err := e.create(ctx, rec)
	if err != nil {
		return nil, err
	}
	if c, ok := prov.(*clientProvider); ok {
		c.r = r
	}
	return r.start(ctx, rec, func(ctx context.Context) {
		f := &fixer{r: r, rec: rec, opts: opts, guard: guard, prov: prov}
		f.run(ctx)
	})
}

// provider builds the run's patch provider.
func (e *Engine) provider(ctx context.Context, runID string, cfg *glv1.ProviderConfig, replies <-chan *glv1.PatchReply) (Provider, error) {
	if cfg.GetKind() == glv1.ProviderKind_PROVIDER_KIND_CLIENT {
		if replies == nil {
			return nil, fmt.Errorf("%w: the CLIENT provider needs the Fix stream to answer PatchRequested events", ErrInvalidArgument)
		}
		return &clientProvider{replies: replies}, nil
	}
	if e.d.Providers == nil {
		return nil, fmt.Errorf("%w: provider %s is not available in this loop; use CLIENT", ErrInvalidArgument, cfg.GetKind())
	}
	p, err := e.d.Providers(ctx, runID, cfg)
	if err != nil {
		if errors.Is(err, ErrInvalidArgument) {
			return nil, err
		}
		return nil, fmt.Errorf("%w: options.provider: %w", ErrInvalidArgument, err)
	}
	return p, nil
}

// clientProvider is the CLIENT provider: the Fix stream's caller is the
// model. A request is a PatchRequested event; the answer is the caller's
// next PatchReply for that attempt.
type clientProvider struct {
	r       *run
	replies <-chan *glv1.PatchReply
}

// Propose emits the request and waits for the caller's reply. Replies for
// another attempt (late answers to an earlier request) are dropped; a
// closed stream or a give_up reply is ErrGaveUp.
func (c *clientProvider) Propose(ctx context.Context, req *glv1.PatchRequest) (*Proposal, error) {
	if err := c.r.emit(&glv1.RunEvent{Kind: &glv1.RunEvent_PatchRequested{PatchRequested: &glv1.PatchRequested{Request: req}}}); err != nil {
		return nil, err
	}
	for {
		select {
		case reply, ok := <-c.replies:
			switch {
			case !ok:
				return nil, fmt.Errorf("%w: the client closed its side of the Fix stream", ErrGaveUp)
			case reply.GetAttempt() != 0 && reply.GetAttempt() != req.GetAttempt():
				continue
			case reply.GetGiveUp():
				return &Proposal{GiveUp: true, Usage: reply.GetUsage()}, nil
			}
			return &Proposal{Patch: reply.GetPatch(), Usage: reply.GetUsage()}, nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}
