package contract

// Result is one verification: the seeds' output contract plus what
// greenlight adds. For a fix run it is the final verification, with Fix
// set; for a verify run Fix is null.
type Result struct {
	SchemaVersion string `json:"schema_version" jsonschema:"const=greenlight.contract/v1"`
	// Kind is VERIFY or FIX.
	Kind string `json:"kind" jsonschema:"enum=VERIFY,enum=FIX"`
	// Status is PASS, FAIL or ERROR; PENDING while the run has not finished.
	Status string `json:"status" jsonschema:"enum=PASS,enum=FAIL,enum=ERROR,enum=PENDING"`
	RunID  string `json:"run_id"`
	// RunStatus is the run's lifecycle state (PASSED, FAILED, ERROR,
	// CANCELED, INTERRUPTED, RUNNING, PENDING).
	RunStatus string `json:"run_status"`
	// Summary says why the verdict is what it is, in one line.
	Summary string `json:"summary"`
	// Error is the infrastructure error of an ERROR run ("" otherwise).
	Error string `json:"error"`
	// TailLog is the last at most 200 lines of combined output.
	TailLog       string    `json:"tail_log"`
	ArtifactPaths []string  `json:"artifact_paths"`
	Manifest      *Manifest `json:"manifest" jsonschema:"nullable"`
	// Level is the strongest signal reached: L1…L4 or NONE.
	Level string `json:"level" jsonschema:"enum=NONE,enum=L1,enum=L2,enum=L3,enum=L4"`
	// Score is null on ERROR: nothing was measured.
	Score     *Score          `json:"score" jsonschema:"nullable"`
	Counts    Counts          `json:"counts"`
	Steps     []Step          `json:"steps"`
	Tests     []Test          `json:"tests"`
	Inventory *Inventory      `json:"inventory" jsonschema:"nullable"`
	Failures  []Failure       `json:"failures"`
	Tiers     []TierSelection `json:"tiers"`
	// Partial is set when the verification ran a chosen part of the
	// project (selected steps or tests, `verify --step`/`--test`): its PASS
	// is that part's, not the project's. Null for a full verification.
	Partial *Partial `json:"partial" jsonschema:"nullable"`
	// StopMemo is the memo written when a retry or repair loop gave up.
	StopMemo string `json:"stop_memo"`
	// InfraRetries are the infrastructure failures (an executor lost, an
	// engine error) after which the verification ran again elsewhere.
	InfraRetries []string `json:"infra_retries"`
	// Review is a reviewer model's report, shown beside the verdict and
	// never part of it; null when no reviewer was asked.
	Review *Review `json:"review" jsonschema:"nullable"`
	// Coverage is what the test steps measured with the toolchain's own
	// tool; null when none did. It never changes the verdict.
	Coverage *Coverage `json:"coverage" jsonschema:"nullable"`
	// Plan lists the commands of the plan document the verification was
	// given (`verify --plan`), each with the step it ran as or why it was
	// refused; [] without a plan.
	Plan []PlanCommand `json:"plan"`
	// Fix is the repair loop's record; null for a verify run.
	Fix *Fix `json:"fix" jsonschema:"nullable"`
}

// Partial says what part of the project a selective verification ran.
type Partial struct {
	// Steps are the steps chosen by name or command.
	Steps []string `json:"steps"`
	// Tests are the test ids the test steps were narrowed to.
	Tests []string `json:"tests"`
}

// Digest names a blob in the content-addressed store.
type Digest struct {
	Hash      string `json:"hash"`
	SizeBytes int64  `json:"size_bytes"`
}

// Manifest is the run manifest of the seeds' contract.
type Manifest struct {
	RunID            string          `json:"run_id"`
	TimestampStart   *string         `json:"timestamp_start" jsonschema:"nullable"`
	TimestampEnd     *string         `json:"timestamp_end" jsonschema:"nullable"`
	CommitSHA        string          `json:"commit_sha"`
	Snapshot         *Digest         `json:"snapshot" jsonschema:"nullable"`
	CommandsExecuted []CommandRecord `json:"commands_executed"`
	Platform         Platform        `json:"platform"`
	Limits           Limits          `json:"limits"`
}

// CommandRecord is one executed command.
type CommandRecord struct {
	Name       string `json:"name"`
	Command    string `json:"command"`
	Workdir    string `json:"workdir"`
	ExitCode   int32  `json:"exit_code"`
	DurationMS int64  `json:"duration_ms"`
	Status     string `json:"status"`
}

// Platform says where the commands ran.
type Platform struct {
	OS             string `json:"os"`
	Arch           string `json:"arch"`
	ContainerImage string `json:"container_image"`
	ImageDigest    string `json:"image_digest"`
	EngineVersion  string `json:"engine_version"`
	// Executor is the executor that ran the commands ("" for one executor).
	Executor string `json:"executor"`
}

// Limits are the sandbox's resource limits (0: the server default).
type Limits struct {
	CPUs            float64 `json:"cpus"`
	MemoryBytes     int64   `json:"memory_bytes"`
	Pids            int64   `json:"pids"`
	TmpfsBytes      int64   `json:"tmpfs_bytes"`
	WorkspaceBytes  int64   `json:"workspace_bytes"`
	LogBytesPerStep int64   `json:"log_bytes_per_step"`
	RunTimeoutMS    int64   `json:"run_timeout_ms"`
}

// Score is the 3/4/2/1 automated score and how it was decided.
type Score struct {
	Total      float64 `json:"total"`
	Build      float64 `json:"build"`
	Tests      float64 `json:"tests"`
	Lint       float64 `json:"lint"`
	NoCritical float64 `json:"no_critical"`
	// ModelScore is null when no model scored.
	ModelScore *float64 `json:"model_score" jsonschema:"nullable"`
	DecidedBy  string   `json:"decided_by"`
	Rule       string   `json:"rule"`
	LintIssues int32    `json:"lint_issues"`
	// Coverage is the coverage component, 0 to 1 (the measured line
	// coverage), beside the total and never added to it; null when the
	// tests measured none.
	Coverage *float64 `json:"coverage" jsonschema:"nullable"`
	// Security is the security component, 0 to 1 (1: no finding, 0.5:
	// only low or medium ones, 0: a high one), beside the total and never
	// added to it; null when no security step ran.
	Security         *float64 `json:"security" jsonschema:"nullable"`
	SecurityFindings int32    `json:"security_findings"`
}

// Counts aggregates test outcomes.
type Counts struct {
	Passed  int32 `json:"passed"`
	Failed  int32 `json:"failed"`
	Skipped int32 `json:"skipped"`
	Errors  int32 `json:"errors"`
	Total   int32 `json:"total"`
	Flaky   int32 `json:"flaky"`
	// Format is the parser that produced the counts ("go-json", …, "unparsed").
	Format string `json:"format"`
	// Omitted counts test records not kept in tests (the record cap).
	Omitted int32 `json:"omitted"`
	// Incomplete: the counts may miss tests (IncompleteReason says why).
	Incomplete       bool   `json:"incomplete"`
	IncompleteReason string `json:"incomplete_reason"`
}

// Step is what happened to one step of the pipeline.
type Step struct {
	Name    string `json:"name"`
	Phase   string `json:"phase"`
	Command string `json:"command"`
	// DisplayCommand is the command as a person would type it.
	DisplayCommand string  `json:"display_command"`
	Workdir        string  `json:"workdir"`
	Status         string  `json:"status"`
	ExitCode       int32   `json:"exit_code"`
	StartedAt      *string `json:"started_at" jsonschema:"nullable"`
	FinishedAt     *string `json:"finished_at" jsonschema:"nullable"`
	DurationMS     int64   `json:"duration_ms"`
	Reason         string  `json:"reason"`
	Tier           string  `json:"tier"`
	Level          string  `json:"level"`
	Image          string  `json:"image"`
	// Optional steps (advisory) never decide the verdict.
	Optional    bool    `json:"optional"`
	CacheHit    bool    `json:"cache_hit"`
	CacheNote   string  `json:"cache_note"`
	Truncated   bool    `json:"truncated"`
	OutputBytes int64   `json:"output_bytes"`
	LintIssues  int32   `json:"lint_issues"`
	Counts      *Counts `json:"counts" jsonschema:"nullable"`
	Log         *Digest `json:"log" jsonschema:"nullable"`
	Tail        string  `json:"tail"`
	// Rule is the verdict rule that changed the status from what the exit
	// code said ("needs-network", "time-limit", …); "" when it stands.
	Rule string `json:"rule"`
	// Source is where the step's command came from; null when unknown.
	Source *CommandSource `json:"source" jsonschema:"nullable"`
}

// CommandSource is where a step's command came from.
type CommandSource struct {
	// Origin is "ci" (a line or block of the repository's CI workflow),
	// "discovered" (a manifest: package.json scripts, a Makefile target),
	// "greenlight.yaml", "agent.yaml", "runr.config.json" or "default".
	Origin string `json:"origin"`
	// File is relative to the workspace root, e.g. ".github/workflows/ci.yml".
	File string `json:"file"`
	// Key inside the file, e.g. "jobs.test.steps[2].run" or "scripts.test".
	Key string `json:"key"`
	// Line in the file when known (1-based), 0 otherwise.
	Line int32 `json:"line"`
}

// Test is one parsed test record.
type Test struct {
	ID         string `json:"id"`
	Step       string `json:"step"`
	Suite      string `json:"suite"`
	Name       string `json:"name"`
	Status     string `json:"status"`
	DurationMS int64  `json:"duration_ms"`
	Message    string `json:"message"`
	File       string `json:"file"`
	Line       int32  `json:"line"`
	Flaky      bool   `json:"flaky"`
}

// Inventory is where the complete test list is stored (tests keeps a
// capped number of records).
type Inventory struct {
	Blob     Digest `json:"blob"`
	Tests    int32  `json:"tests"`
	Complete bool   `json:"complete"`
}

// Failure is one structured failure with its evidence.
type Failure struct {
	Kind     string    `json:"kind"`
	Test     string    `json:"test"`
	Message  string    `json:"message"`
	File     string    `json:"file"`
	Line     int32     `json:"line"`
	Column   int32     `json:"column"`
	Flaky    bool      `json:"flaky"`
	Frames   []Frame   `json:"frames"`
	Evidence *Evidence `json:"evidence" jsonschema:"nullable"`
	// Rule and Severity name a security finding's scanner rule (B602,
	// private-key) and its severity (high, medium, low); empty otherwise.
	Rule     string `json:"rule"`
	Severity string `json:"severity"`
	// Introduced: in a fix run, a security finding the baseline did not
	// have.
	Introduced bool `json:"introduced"`
}

// Frame is one stack frame, innermost first.
type Frame struct {
	File     string `json:"file"`
	Line     int32  `json:"line"`
	Column   int32  `json:"column"`
	Function string `json:"function"`
	// Project: in the workspace's own code.
	Project bool `json:"project"`
}

// Evidence ties a failure to the step and log that produced it.
type Evidence struct {
	Step      string  `json:"step"`
	Command   string  `json:"command"`
	Workdir   string  `json:"workdir"`
	ExitCode  int32   `json:"exit_code"`
	LogOffset int64   `json:"log_offset"`
	Log       *Digest `json:"log" jsonschema:"nullable"`
}

// TierSelection says whether a tier was selected and why.
type TierSelection struct {
	Tier     string   `json:"tier"`
	Selected bool     `json:"selected"`
	Reasons  []string `json:"reasons"`
}
