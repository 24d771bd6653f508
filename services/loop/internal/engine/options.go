package engine

import (
	"fmt"
	"time"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/durationpb"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// verifyOptions returns a copy of o with defaults filled in, or an
// ErrInvalidArgument naming the bad field. The stored run carries the
// effective options, so GetRun shows what applied.
func (e *Engine) verifyOptions(o *glv1.VerifyOptions, field string) (*glv1.VerifyOptions, error) {
	out := &glv1.VerifyOptions{}
	if o != nil {
		out = proto.Clone(o).(*glv1.VerifyOptions)
	}
	budget, err := e.duration(out.GetTimeBudget(), field+".time_budget", e.cfg.TimeBudget)
	if err != nil {
		return nil, err
	}
	out.TimeBudget = durationpb.New(budget)
	switch a := out.GetMaxAttempts(); {
	case a < 0 || int(a) > e.cfg.MaxRoundsCap:
		return nil, fmt.Errorf("%w: %s.max_attempts is %d: use 0 for the default (%d) or at most %d",
			ErrInvalidArgument, field, a, e.cfg.MaxAttempts, e.cfg.MaxRoundsCap)
	case a == 0:
		out.MaxAttempts = int32(e.cfg.MaxAttempts)
	}
	for i, f := range out.GetChangedFiles() {
		if f == "" {
			return nil, fmt.Errorf("%w: %s.changed_files[%d] is empty", ErrInvalidArgument, field, i)
		}
	}
	if err := e.reviewOptions(out.GetReview(), field+".review"); err != nil {
		return nil, err
	}
	if err := planOption(out.GetPlan(), field+".plan"); err != nil {
		return nil, err
	}
	return out, nil
}

// fixOptions returns a copy of o with defaults filled in. The round limit
// is max_rounds, else the verify options' max_attempts as the caller set it,
// else the engine default.
func (e *Engine) fixOptions(o *glv1.FixOptions) (*glv1.FixOptions, error) {
	out := &glv1.FixOptions{}
	if o != nil {
		out = proto.Clone(o).(*glv1.FixOptions)
	}
	callerAttempts := out.GetVerify().GetMaxAttempts()
	v, err := e.verifyOptions(out.GetVerify(), "options.verify")
	if err != nil {
		return nil, err
	}
	out.Verify = v
	// A repair run never chases a flaky test: failing tests are always
	// re-run alone, and those that pass are reported as flaky.
	out.Verify.RerunFailed = true
	switch r := out.GetMaxRounds(); {
	case r < 0 || int(r) > e.cfg.MaxRoundsCap:
		return nil, fmt.Errorf("%w: options.max_rounds is %d: use 0 for the default (%d) or at most %d",
			ErrInvalidArgument, r, e.cfg.MaxRounds, e.cfg.MaxRoundsCap)
	case r == 0 && callerAttempts > 0:
		out.MaxRounds = callerAttempts
	case r == 0:
		out.MaxRounds = int32(e.cfg.MaxRounds)
	}
	budget, err := e.duration(out.GetTimeBudget(), "options.time_budget", e.cfg.FixTimeBudget)
	if err != nil {
		return nil, err
	}
	out.TimeBudget = durationpb.New(budget)
	if t := out.GetRequestTokens(); t < 0 || (t > 0 && t < minRequestTokens) {
		return nil, fmt.Errorf("%w: options.request_tokens is %d: use 0 for the default (%d) or at least %d",
			ErrInvalidArgument, t, defaultRequestTokens, minRequestTokens)
	}
	if c := out.GetCostBudget(); c < 0 {
		return nil, fmt.Errorf("%w: options.cost_budget is %g: use 0 for unlimited or a positive amount", ErrInvalidArgument, c)
	}
	switch t := out.GetScoreThreshold(); {
	case t < 0 || t > 10:
		return nil, fmt.Errorf("%w: options.score_threshold is %g: it must be within 0..10 (0 for the default %.1f)",
			ErrInvalidArgument, t, e.cfg.ScoreThreshold)
	case t == 0:
		out.ScoreThreshold = e.cfg.ScoreThreshold
	}
	if out.GetProvider().GetKind() == glv1.ProviderKind_PROVIDER_KIND_UNSPECIFIED {
		return nil, fmt.Errorf("%w: options.provider.kind is not set: choose CLIENT (answer PatchRequested events on this stream), "+
			"OPENAI, COMMAND or REPLAY", ErrInvalidArgument)
	}
	if out.Guardrails == nil {
		out.Guardrails = &glv1.Guardrails{}
	}
	if out.FailFast == nil {
		// Recorded as it applies: on unless the caller turned it off.
		out.FailFast = proto.Bool(true)
	}
	return out, nil
}

// duration checks a requested budget: zero takes def, negative or above
// the cap is refused.
func (e *Engine) duration(d *durationpb.Duration, field string, def time.Duration) (time.Duration, error) {
	if d == nil {
		return def, nil
	}
	if err := d.CheckValid(); err != nil {
		return 0, fmt.Errorf("%w: %s: %w", ErrInvalidArgument, field, err)
	}
	v := d.AsDuration()
	switch {
	case v < 0:
		return 0, fmt.Errorf("%w: %s is %s: budgets must be positive (0 for the default %s)", ErrInvalidArgument, field, v, def)
	case v == 0:
		return def, nil
	case v > e.cfg.MaxBudgetCap:
		return 0, fmt.Errorf("%w: %s is %s, above the server's cap of %s", ErrInvalidArgument, field, v, e.cfg.MaxBudgetCap)
	}
	return v, nil
}
