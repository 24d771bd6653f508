package repoconfig

// The types below are the shape of greenlight.yaml for its JSON Schema,
// docs/greenlight.schema.json, which editors use to complete and check the
// file (yaml-language-server). The loader (loadGreenlight) reads the YAML
// nodes itself, to report every error with its line and key; the schema
// test (schema_test.go) generates the schema from these types, fails when
// the committed file is stale, checks key by key that the loader accepts
// exactly the keys these types declare, takes the phase, level and tier
// names from the command package, and validates the repository's example
// configurations against the schema.

// FileSchema is a repository's greenlight.yaml: the steps greenlight runs,
// how they are tiered and budgeted, and what a repair patch may touch.
// Every key is optional; an unknown key is an error.
type FileSchema struct {
	// Version of the file format: 1.
	Version int `json:"version,omitempty" jsonschema:"enum=1"`
	// Mode says how steps combine with what discovery finds: replace (the
	// default) makes them the pipeline (discovered commands stay
	// whitelisted, run only when selected); merge runs both, a step named
	// like a discovered command replacing it.
	Mode string `json:"mode,omitempty" jsonschema:"enum=replace,enum=merge"`
	// TimeBudget is the whole verification's budget when the request sets
	// none (within the server's maximum).
	TimeBudget DurationSchema `json:"time_budget,omitempty"`
	// Timeouts are per-phase defaults for steps without their own.
	Timeouts *TimeoutsSchema `json:"timeouts,omitempty"`
	// Limits are the sandbox resources of the whole run (within the
	// server's maxima).
	Limits *LimitsSchema `json:"limits,omitempty"`
	// Images maps a runtime (python, node, go, ...) to the sandbox image
	// its steps run in, over the server's table; only images on the
	// server's allow-list.
	Images map[string]string `json:"images,omitempty"`
	// RiskTriggers select tier1 (or tier2) when a changed file matches.
	RiskTriggers []TriggerSchema `json:"risk_triggers,omitempty"`
	// DefaultRiskTriggers: false drops the built-in dependencies, ci, auth
	// and migrations triggers.
	DefaultRiskTriggers bool `json:"default_risk_triggers,omitempty"`
	// Patch constrains repair patches.
	Patch *PatchSchema `json:"patch,omitempty"`
	// Coverage says what the measured coverage counts for.
	Coverage *CoverageSchema `json:"coverage,omitempty"`
	// Security is the mode of greenlight's own scans (a secret scan for
	// every toolchain, bandit for Python, gosec for Go, flawfinder for C/C++): advisory (the default: findings
	// reported and scored, never in the verdict), required (a finding
	// fails the verdict) or off (none planned).
	Security string `json:"security,omitempty" jsonschema:"enum=advisory,enum=required,enum=off"`
	// Tiers moves commands (configured or discovered, by name) between
	// tiers.
	Tiers *TiersSchema `json:"tiers,omitempty"`
	// Required promotes commands (configured or discovered, by name):
	// their failure fails the verdict.
	Required []string `json:"required,omitempty"`
	// Advisory demotes commands: they run, are reported and scored, never
	// fail the verdict.
	Advisory []string `json:"advisory,omitempty"`
	// Steps are the configured commands, in order.
	Steps []StepSchema `json:"steps,omitempty"`
}

// StepSchema is one configured step.
type StepSchema struct {
	// Name is unique: letters, digits, '.', '_', ':', '-'; `greenlight
	// verify --step NAME` runs it alone.
	Name string `json:"name" jsonschema:"required,pattern=^[A-Za-z0-9][A-Za-z0-9._:\\-]{0\\,127}$"`
	// Command runs with /bin/sh -c in workdir, in the sandbox.
	Command string `json:"command" jsonschema:"required,minLength=1"`
	// Phase classifies the step (default: inferred from the command).
	Phase string `json:"phase,omitempty"`
	// Level is the signal the step gives: L2 typecheck/lint, L3
	// build/compile/startup, L4 test assertions (default: from the phase).
	Level string `json:"level,omitempty"`
	// Tier is the step's tier (default tier0: always selected).
	Tier string `json:"tier,omitempty"`
	// Workdir is relative to the workspace root.
	Workdir string `json:"workdir,omitempty"`
	// Timeout is the step's own limit.
	Timeout DurationSchema `json:"timeout,omitempty"`
	// Network: only install steps may have network (theirs by default).
	Network bool `json:"network,omitempty"`
	// Env are extra environment variables.
	Env map[string]string `json:"env,omitempty"`
	// ContinueOnFailure: a failure does not stop the pipeline (it still
	// fails the verdict).
	ContinueOnFailure bool `json:"continue_on_failure,omitempty"`
	// Optional: informational, its failure does not fail the verdict.
	Optional bool `json:"optional,omitempty"`
	// Group: adjacent steps with the same group may run concurrently.
	Group string `json:"group,omitempty"`
	// CacheKeyFiles are the lockfiles keying an install step's dependency
	// cache.
	CacheKeyFiles []string `json:"cache_key_files,omitempty"`
	// CachePaths are what the dependency cache keeps, relative to workdir.
	CachePaths []string `json:"cache_paths,omitempty"`
}

// TimeoutsSchema are per-phase default timeouts.
type TimeoutsSchema struct {
	Install   DurationSchema `json:"install,omitempty"`
	Build     DurationSchema `json:"build,omitempty"`
	Typecheck DurationSchema `json:"typecheck,omitempty"`
	Lint      DurationSchema `json:"lint,omitempty"`
	Test      DurationSchema `json:"test,omitempty"`
	Smoke     DurationSchema `json:"smoke,omitempty"`
	Security  DurationSchema `json:"security,omitempty"`
}

// LimitsSchema are sandbox resources.
type LimitsSchema struct {
	// CPUs such as 2 or 1.5.
	CPUs float64 `json:"cpus,omitempty" jsonschema:"exclusiveMinimum=0"`
	// Memory such as 4GiB or 512MiB, or a number of bytes.
	Memory SizeSchema `json:"memory,omitempty"`
	// Pids is the process limit.
	Pids int64 `json:"pids,omitempty" jsonschema:"minimum=1"`
}

// TriggerSchema is a risk trigger.
type TriggerSchema struct {
	Name string `json:"name" jsonschema:"required,minLength=1"`
	// Patterns are globs of changed files.
	Patterns []string `json:"patterns" jsonschema:"required,minItems=1"`
	// Tier it selects: tier1 (default) or tier2.
	Tier string `json:"tier,omitempty" jsonschema:"enum=tier1,enum=tier2"`
}

// PatchSchema constrains repair patches.
type PatchSchema struct {
	// Allow are globs a repair patch may touch (empty: the whole
	// workspace).
	Allow []string `json:"allow,omitempty"`
}

// TiersSchema assigns step names to tiers.
type TiersSchema struct {
	Tier0 []string `json:"tier0,omitempty"`
	Tier1 []string `json:"tier1,omitempty"`
	Tier2 []string `json:"tier2,omitempty"`
}

// DurationSchema is a duration such as 90s, 5m or 1h30m, or a positive
// number of seconds.
type DurationSchema string

// SizeSchema is a byte size such as 4GiB, 512MiB or 2GB, or a number of
// bytes.
type SizeSchema string

// CoverageSchema is what the coverage the test steps measure (Go's
// -coverprofile, coverage.py) counts for; it is always reported.
type CoverageSchema struct {
	// Score: true feeds the measured coverage into the score's tests
	// component (2 points for the pass rate, 2 for the pass rate times the
	// coverage), for repositories whose CI measures coverage. Off by
	// default: the score and every verdict ignore coverage.
	Score bool `json:"score,omitempty"`
	// Measure: false runs the test steps without coverage collection
	// (default true): measuring slows some suites, and then nothing is
	// reported.
	Measure *bool `json:"measure,omitempty"`
}
