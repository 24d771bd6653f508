package loopsvc

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/greenlight-dev/greenlight/pkg/blob"
	"github.com/greenlight-dev/greenlight/pkg/config"
	"github.com/greenlight-dev/greenlight/services/loop/internal/engine"
	"github.com/greenlight-dev/greenlight/services/loop/internal/provider"
	"github.com/greenlight-dev/greenlight/services/loop/internal/store"
)

// ErrConfig is wrapped by Config.Validate errors.
var ErrConfig = errors.New("invalid loop configuration")

// Config holds the loop's own settings (the gRPC server's are in
// server.Config).
type Config struct {
	// DataDir holds the run database and the blob store.
	DataDir string
	// DiscoveryAddr and ExecutorAddr are the services the loop calls.
	DiscoveryAddr string
	ExecutorAddr  string

	// TimeBudget is one verification's default budget (the seeds'
	// max_verify_time_per_milestone).
	TimeBudget time.Duration
	// MaxAttempts is the default retry-with-fix-instructions limit.
	MaxAttempts int
	// MaxRounds is the repair loop's default round limit.
	MaxRounds int
	// FixTimeBudget is a repair run's default budget.
	FixTimeBudget time.Duration
	// ScoreThreshold is the default score a green repair run must reach.
	ScoreThreshold float64

	// RetentionDays deletes finished runs older than this many days (0: keep).
	RetentionDays int
	// RetentionRuns keeps only the newest N runs (0: keep all).
	RetentionRuns int
	// PruneEvery is how often retention runs (0: only at start-up).
	PruneEvery time.Duration

	// UploadInFlightBytes caps the declared bytes of all BlobService uploads
	// in progress at once (0: no cap); past it uploads get ResourceExhausted.
	UploadInFlightBytes int
	// RunEventBytes and RunEvents cap one run's stored event log (0: no
	// cap); past either, live log chunks are no longer stored, while the
	// events that end a run still are.
	RunEventBytes int
	RunEvents     int
	// ProviderProfiles are the COMMAND and OPENAI patch providers Fix
	// requests may select by name; none by default (requests may then use
	// only CLIENT and REPLAY).
	ProviderProfiles []ProviderProfile
	// Getenv reads the profiles' key variables at Validate; nil means
	// os.Getenv.
	Getenv func(string) string
}

// ProviderProfile is one configured COMMAND or OPENAI patch provider; see
// ParseProviderProfile for the flag syntax.
type ProviderProfile = provider.Profile

// ParseProviderProfile reads a --provider-profile value:
// name=NAME,kind=command,[timeout=5m,]command=CMD (command comes last and
// takes the rest, commas included) or
// name=NAME,kind=openai,model=M[,base-url=URL][,key-env=VAR][,allow-model=true][,timeout=2m][,cost-per-1k=0.002].
func ParseProviderProfile(spec string) (ProviderProfile, error) { return provider.ParseProfile(spec) }

// DefaultConfig returns the defaults: the user's data directory, the
// default local addresses of discovery and executor, the seeds' budgets
// (600 s per verification, 3 attempts, 3 rounds, score 8.0) and a retention
// of 30 days, checked hourly.
func DefaultConfig() Config {
	return Config{
		DataDir:        config.DefaultDataDir(),
		DiscoveryAddr:  config.DefaultDiscoveryAddr,
		ExecutorAddr:   config.DefaultExecutorAddr,
		TimeBudget:     engine.DefaultTimeBudget,
		MaxAttempts:    engine.DefaultMaxAttempts,
		MaxRounds:      engine.DefaultMaxRounds,
		FixTimeBudget:  engine.DefaultFixTimeBudget,
		ScoreThreshold: engine.DefaultScoreThreshold,
		RetentionDays:  30,
		PruneEvery:     time.Hour,

		UploadInFlightBytes: int(blob.DefaultMaxInFlightBytes),
		RunEventBytes:       store.DefaultMaxRunEventBytes,
		RunEvents:           store.DefaultMaxRunEvents,
	}
}

// RegisterFlags binds the settings to flags (and GREENLIGHT_LOOP_* variables).
func (c *Config) RegisterFlags(fs *config.FlagSet) {
	fs.String(&c.DataDir, "data-dir", "`directory` for the run database and blob store")
	fs.Addr(&c.DiscoveryAddr, "discovery-addr", "discovery service address `host:port`")
	fs.Addrs(&c.ExecutorAddr, "executor-addr", "executor `addresses`: comma-separated host:port entries; a DNS name stands for every "+
		"address it resolves to (re-resolved every 30 s). Runs go to the healthy executor with the most free sandboxes and queue when all are full")
	fs.Duration(&c.TimeBudget, "time-budget", "default time budget of one verification")
	fs.Int(&c.MaxAttempts, "max-attempts", "default attempts of the retry-with-fix-instructions policy")
	fs.Int(&c.MaxRounds, "max-rounds", "default patch rounds of a repair run")
	fs.Duration(&c.FixTimeBudget, "fix-time-budget", "default time budget of a whole repair run")
	fs.Var((*floatValue)(&c.ScoreThreshold), "score-threshold", "default score (0-10) a repair run must reach to be green")
	fs.Int(&c.RetentionDays, "retention-days", "delete finished runs older than this many days (0 keeps them)")
	fs.Int(&c.RetentionRuns, "retention-runs", "keep only the newest `N` runs (0 keeps all)")
	fs.Duration(&c.PruneEvery, "prune-every", "how often retention runs (0: only at start-up)")
	fs.Bytes(&c.UploadInFlightBytes, "upload-inflight-bytes", "cap on the declared `bytes` of all blob uploads in progress at once; over it an upload gets ResourceExhausted (0: no cap)")
	fs.Bytes(&c.RunEventBytes, "run-event-bytes", "cap on the `bytes` of one run's stored events; past it live log chunks are dropped (0: no cap)")
	fs.Int(&c.RunEvents, "run-events", "cap on the `number` of one run's stored events; past it live log chunks are dropped (0: no cap)")
	fs.Var((*profilesValue)(&c.ProviderProfiles), "provider-profile",
		"a COMMAND or OPENAI patch provider Fix requests may select by name; repeat it (a YAML list in the config file) for several: "+
			provider.ProfileSyntax)
}

// Validate reports the first unusable setting.
func (c *Config) Validate() error {
	switch {
	case c.DataDir == "":
		return fmt.Errorf("%w: data-dir is empty", ErrConfig)
	case c.TimeBudget <= 0 || c.FixTimeBudget <= 0:
		return fmt.Errorf("%w: time-budget and fix-time-budget must be positive", ErrConfig)
	case c.MaxAttempts <= 0 || c.MaxRounds <= 0:
		return fmt.Errorf("%w: max-attempts and max-rounds must be positive", ErrConfig)
	case c.ScoreThreshold < 0 || c.ScoreThreshold > 10:
		return fmt.Errorf("%w: score-threshold %g is outside 0..10", ErrConfig, c.ScoreThreshold)
	case c.RetentionDays < 0 || c.RetentionRuns < 0 || c.PruneEvery < 0:
		return fmt.Errorf("%w: retention-days, retention-runs and prune-every must not be negative", ErrConfig)
	case c.UploadInFlightBytes < 0 || c.RunEventBytes < 0 || c.RunEvents < 0:
		return fmt.Errorf("%w: upload-inflight-bytes, run-event-bytes and run-events must not be negative", ErrConfig)
	}
	getenv := c.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	if err := provider.Profiles(c.ProviderProfiles).Check(getenv); err != nil {
		return fmt.Errorf("%w: --provider-profile: %w", ErrConfig, err)
	}
	return nil
}

// engineConfig is the engine's part of the configuration.
func (c *Config) engineConfig() engine.Config {
	return engine.Config{
		TimeBudget: c.TimeBudget, MaxAttempts: c.MaxAttempts, MaxRounds: c.MaxRounds,
		FixTimeBudget: c.FixTimeBudget, ScoreThreshold: c.ScoreThreshold, Profiles: c.ProviderProfiles,
	}
}

// storeOptions applies the run event caps to so where it leaves them zero.
func (c *Config) storeOptions(so store.Options) store.Options {
	if so.MaxRunEventBytes == 0 {
		so.MaxRunEventBytes = capOrOff(c.RunEventBytes)
	}
	if so.MaxRunEvents == 0 {
		so.MaxRunEvents = capOrOff(c.RunEvents)
	}
	return so
}

// capOrOff turns a configured cap (0: none) into a store/blob option value
// (negative: none, since zero there means the package default).
func capOrOff(n int) int64 {
	if n == 0 {
		return -1
	}
	return int64(n)
}

// floatValue is a float64 flag.
type floatValue float64

func (f *floatValue) String() string { return strconv.FormatFloat(float64(*f), 'g', -1, 64) }

func (f *floatValue) Set(s string) error {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return fmt.Errorf("not a number: %q", s)
	}
	*f = floatValue(v)
	return nil
}

// profilesValue is the repeatable --provider-profile flag: each value adds
// one profile (values are not split on commas: a command may hold some).
type profilesValue []ProviderProfile

func (v *profilesValue) String() string {
	if v == nil {
		return ""
	}
	names := make([]string, len(*v))
	for i, p := range *v {
		names[i] = p.String()
	}
	return strings.Join(names, "; ")
}

func (v *profilesValue) Set(s string) error {
	p, err := provider.ParseProfile(s)
	if err != nil {
		return err
	}
	*v = append(*v, p)
	return nil
}
