package sandbox

import (
	"fmt"
	"os"
	"time"
)

// Config is the server-side policy of a Runner.
type Config struct {
	// Owner labels the containers the executor creates for itself (pool).
	Owner string
	// Defaults apply to zero request limits; Max clamps request limits.
	Defaults Limits
	Max      Limits
	// StepTimeout is the default timeout of a step; InstallTimeout that of
	// an install step.
	StepTimeout    time.Duration
	InstallTimeout time.Duration
	// EgressNetwork is the engine network install steps are attached to.
	EgressNetwork string
	// CABundlePath is a PEM file (e.g. /etc/ssl/certs/ca-certificates.crt)
	// trusted by install steps; "" for none.
	CABundlePath string
	// InstallEnv is added to the environment of install steps only (proxy
	// settings, registry mirrors).
	InstallEnv map[string]string
	// TempDir holds step log spool files; "" means os.TempDir().
	TempDir string
	// Live shapes the live log stream.
	Live LiveConfig
	// TailLines bounds StepResult.Tail.
	TailLines int
	// CleanupTimeout bounds each container removal.
	CleanupTimeout time.Duration
	// DeadlineGrace is how long a run's sandbox outlives the run budget
	// before its main process exits and stops it (see keepaliveCmd), so
	// that a sandbox whose creator died does not run on.
	DeadlineGrace time.Duration
	// StepRunner chooses how steps run: StepRunnerAuto (the default, "")
	// uses the image's greenlight-runner when it has one and one `docker
	// exec` per step otherwise; StepRunnerExec always execs;
	// StepRunnerAgent requires the runner.
	StepRunner string
	// PullMissing pulls an image the engine lacks from its registry
	// (upstream images) instead of failing at once.
	PullMissing bool
	// NoLoopbackIPv6 leaves the sandbox without the IPv6 loopback
	// (loopbackIPv6), for engines whose kernel was booted without IPv6,
	// where the setting does not exist and no container could start.
	NoLoopbackIPv6 bool
}

// Step runner modes (Config.StepRunner).
const (
	StepRunnerAuto  = "auto"
	StepRunnerExec  = "exec"
	StepRunnerAgent = "agent"
)

// LiveConfig shapes the live log stream: chunks are coalesced up to
// ChunkBytes or FlushEvery, sent at most at RateBytes per second per step,
// and dropped (never blocking the sandbox) beyond MaxPendingBytes.
type LiveConfig struct {
	ChunkBytes      int
	FlushEvery      time.Duration
	RateBytes       int
	BurstBytes      int
	MaxPendingBytes int
}

// Default limits and timeouts. The home directory holds the tools' caches
// (Go's module and build caches, npm's, pip's, cargo's registry), which a
// CI runner keeps on a disk of many gigabytes: a project with large
// dependencies fills a few hundred MiB at once (spf13/viper's nested
// module: 740 MB of Go modules, then 500 MB of build cache). Its 2 GiB
// cap is a tmpfs cap like the others, so the default memory limit is 4
// GiB: every cap fits under it with the headroom fitTmpfs keeps (see
// docs/architecture.md, "Sandbox storage", for why not a disk volume).
const (
	DefaultCPUs            = 1.0
	DefaultMemoryBytes     = 4 << 30
	DefaultPids            = 256
	DefaultTmpfsBytes      = 384 << 20
	DefaultHomeBytes       = 2 << 30
	DefaultWorkspaceBytes  = 1 << 30
	DefaultLogBytesPerStep = 4 << 20
	DefaultRunTimeout      = 30 * time.Minute
	DefaultStepTimeout     = 10 * time.Minute
	DefaultInstallTimeout  = 15 * time.Minute
	DefaultTailLines       = 200
	DefaultDeadlineGrace   = 2 * time.Minute
)

// DefaultConfig returns the defaults: 1 CPU, 4 GiB, 256 pids, 384 MiB /tmp,
// 2 GiB home, 1 GiB workspace (together under 4 GiB minus the headroom
// fitTmpfs keeps), 4 MiB of log per step, 30 minutes per run.
func DefaultConfig() Config {
	return Config{
		Owner: "greenlight-executor",
		Defaults: Limits{
			CPUs: DefaultCPUs, MemoryBytes: DefaultMemoryBytes, Pids: DefaultPids,
			TmpfsBytes: DefaultTmpfsBytes, HomeBytes: DefaultHomeBytes, WorkspaceBytes: DefaultWorkspaceBytes,
			LogBytesPerStep: DefaultLogBytesPerStep, RunTimeout: DefaultRunTimeout,
		},
		Max: Limits{
			CPUs: 4, MemoryBytes: 8 << 30, Pids: 4096,
			TmpfsBytes: 4 << 30, HomeBytes: 8 << 30, WorkspaceBytes: 8 << 30,
			LogBytesPerStep: 64 << 20, RunTimeout: 2 * time.Hour,
		},
		StepTimeout:    DefaultStepTimeout,
		InstallTimeout: DefaultInstallTimeout,
		EgressNetwork:  "bridge",
		Live: LiveConfig{
			ChunkBytes: 32 << 10, FlushEvery: 100 * time.Millisecond,
			RateBytes: 2 << 20, BurstBytes: 256 << 10, MaxPendingBytes: 256 << 10,
		},
		TailLines:      DefaultTailLines,
		CleanupTimeout: 30 * time.Second,
		DeadlineGrace:  DefaultDeadlineGrace,
	}
}

// Validate reports the first unusable setting.
func (c *Config) Validate() error {
	d, m := c.Defaults, c.Max
	switch {
	case d.CPUs <= 0 || d.MemoryBytes <= 0 || d.Pids <= 0 || d.TmpfsBytes <= 0 || d.HomeBytes <= 0 ||
		d.WorkspaceBytes <= 0 || d.LogBytesPerStep <= 0 || d.RunTimeout <= 0:
		return fmt.Errorf("every default limit must be positive: %+v", d)
	case m.CPUs < d.CPUs || m.MemoryBytes < d.MemoryBytes || m.Pids < d.Pids || m.TmpfsBytes < d.TmpfsBytes ||
		m.HomeBytes < d.HomeBytes || m.WorkspaceBytes < d.WorkspaceBytes || m.LogBytesPerStep < d.LogBytesPerStep ||
		m.RunTimeout < d.RunTimeout:
		return fmt.Errorf("every maximum limit must be at least its default: max %+v, defaults %+v", m, d)
	case c.StepTimeout <= 0 || c.InstallTimeout <= 0:
		return fmt.Errorf("step timeouts must be positive")
	case c.DeadlineGrace <= 0:
		return fmt.Errorf("the sandbox deadline grace must be positive")
	case c.Live.ChunkBytes <= 0 || c.Live.FlushEvery <= 0 || c.Live.RateBytes <= 0 ||
		c.Live.BurstBytes < c.Live.ChunkBytes || c.Live.MaxPendingBytes < c.Live.ChunkBytes:
		return fmt.Errorf("live log settings must be positive, with burst and pending at least one chunk: %+v", c.Live)
	case c.TailLines <= 0:
		return fmt.Errorf("tail lines must be positive")
	case c.StepRunner != "" && c.StepRunner != StepRunnerAuto && c.StepRunner != StepRunnerExec && c.StepRunner != StepRunnerAgent:
		return fmt.Errorf("step runner must be %s, %s or %s, got %q", StepRunnerAuto, StepRunnerExec, StepRunnerAgent, c.StepRunner)
	}
	if c.CABundlePath != "" {
		if _, err := os.Stat(c.CABundlePath); err != nil {
			return fmt.Errorf("CA bundle: %w", err)
		}
	}
	return nil
}

// limits resolves a request's limits (see resolve) and fits the tmpfs
// caps under the memory limit (see fitTmpfs); note says what was reduced,
// "" when nothing was.
func (c *Config) limits(req Limits) (lim Limits, note string) {
	return fitTmpfs(c.resolve(req))
}

// resolve applies defaults to zero fields and clamps to the maxima.
func (c *Config) resolve(req Limits) Limits {
	d, m := c.Defaults, c.Max
	return Limits{
		CPUs:            pick(req.CPUs, d.CPUs, m.CPUs),
		MemoryBytes:     pick(req.MemoryBytes, d.MemoryBytes, m.MemoryBytes),
		Pids:            pick(req.Pids, d.Pids, m.Pids),
		TmpfsBytes:      pick(req.TmpfsBytes, d.TmpfsBytes, m.TmpfsBytes),
		HomeBytes:       pick(req.HomeBytes, d.HomeBytes, m.HomeBytes),
		WorkspaceBytes:  pick(req.WorkspaceBytes, d.WorkspaceBytes, m.WorkspaceBytes),
		LogBytesPerStep: pick(req.LogBytesPerStep, d.LogBytesPerStep, m.LogBytesPerStep),
		RunTimeout:      pick(req.RunTimeout, d.RunTimeout, m.RunTimeout),
	}
}

// pick returns def for a non-positive v, else v clamped to max.
func pick[T int64 | float64 | time.Duration](v, def, max T) T {
	if v <= 0 {
		return def
	}
	return min(v, max)
}

// stepTimeout is the timeout of a step before the run budget is applied.
func (c *Config) stepTimeout(s *Step) time.Duration {
	switch {
	case s.Timeout > 0:
		return s.Timeout
	case s.Install:
		return c.InstallTimeout
	}
	return c.StepTimeout
}
