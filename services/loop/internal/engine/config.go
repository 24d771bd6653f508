package engine

import (
	"fmt"
	"time"

	"github.com/greenlight-dev/greenlight/pkg/workspace"
	"github.com/greenlight-dev/greenlight/services/loop/internal/provider"
)

// Defaults of the run options, used when a request leaves a field zero.
const (
	// DefaultTimeBudget is one verification's budget (the seeds'
	// max_verify_time_per_milestone).
	DefaultTimeBudget = 600 * time.Second
	// DefaultMaxAttempts is the retry-with-fix-instructions limit.
	DefaultMaxAttempts = 3
	// DefaultMaxRounds is the repair loop's patch-round limit.
	DefaultMaxRounds = 3
	// DefaultFixTimeBudget bounds a whole repair run.
	DefaultFixTimeBudget = 30 * time.Minute
	// DefaultScoreThreshold is the score a green repair run must reach.
	DefaultScoreThreshold = 8.0
)

// Config holds the engine's defaults and caps; the zero value of a field
// means its default.
type Config struct {
	// TimeBudget is the default budget of one verification.
	TimeBudget time.Duration
	// MaxAttempts is the default of VerifyOptions.max_attempts.
	MaxAttempts int
	// MaxRounds is the default of FixOptions.max_rounds.
	MaxRounds int
	// FixTimeBudget is the default budget of a whole repair run.
	FixTimeBudget time.Duration
	// ScoreThreshold is the default of FixOptions.score_threshold.
	ScoreThreshold float64
	// Owner is the owner of runs whose request names none (see WithOwner);
	// default LocalOwner(). The executor labels containers with it and
	// never shares dependency-cache entries across owners.
	Owner string
	// Snapshot bounds what a snapshot tar may hold (checked before a run is
	// created, and when a snapshot is unpacked to locate code).
	Snapshot workspace.Limits
	// MaxRoundsCap and MaxBudgetCap bound what a request may ask for.
	MaxRoundsCap int
	MaxBudgetCap time.Duration
	// Profiles are the COMMAND and OPENAI providers requests may select;
	// none means those kinds are refused (CLIENT and REPLAY need none).
	Profiles provider.Profiles
}

// withDefaults fills zero fields.
func (c Config) withDefaults() Config {
	if c.TimeBudget <= 0 {
		c.TimeBudget = DefaultTimeBudget
	}
	if c.MaxAttempts <= 0 {
		c.MaxAttempts = DefaultMaxAttempts
	}
	if c.MaxRounds <= 0 {
		c.MaxRounds = DefaultMaxRounds
	}
	if c.FixTimeBudget <= 0 {
		c.FixTimeBudget = DefaultFixTimeBudget
	}
	if c.ScoreThreshold <= 0 {
		c.ScoreThreshold = DefaultScoreThreshold
	}
	if c.Owner == "" {
		c.Owner = LocalOwner()
	}
	if c.MaxRoundsCap <= 0 {
		c.MaxRoundsCap = 50
	}
	if c.MaxBudgetCap <= 0 {
		c.MaxBudgetCap = 24 * time.Hour
	}
	return c
}

// Validate reports the first unusable setting.
func (c Config) Validate() error {
	switch {
	case c.TimeBudget < 0 || c.FixTimeBudget < 0 || c.MaxBudgetCap < 0:
		return fmt.Errorf("%w: budgets must not be negative", ErrInvalidArgument)
	case c.MaxAttempts < 0 || c.MaxRounds < 0 || c.MaxRoundsCap < 0:
		return fmt.Errorf("%w: attempt and round limits must not be negative", ErrInvalidArgument)
	case c.ScoreThreshold < 0 || c.ScoreThreshold > 10:
		return fmt.Errorf("%w: score threshold %.1f is outside 0..10", ErrInvalidArgument, c.ScoreThreshold)
	}
	for _, p := range c.Profiles {
		if err := p.Validate(); err != nil {
			return fmt.Errorf("%w: %w", ErrInvalidArgument, err)
		}
	}
	return nil
}
