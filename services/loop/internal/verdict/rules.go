package verdict

import (
	"io/fs"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/loop/internal/parse"
)

// Stage is when a step rule runs.
type Stage int

const (
	// OnExit rules read what the executor returned: the exit status and
	// the log's tail. They run before the log is parsed, and the parser
	// reads the status they leave (a step made an ERROR is not parsed).
	OnExit Stage = iota + 1
	// OnReport rules read the parsed log and report files too. They run
	// after parsing and before any re-run of failed tests, so a step
	// they fail is never excused as flaky.
	OnReport
)

// StepInput is what the step rules read of one step.
type StepInput struct {
	// Step is the planned step.
	Step *glv1.Step
	// Result is the step's result as the rules before left it (nil when
	// the step never ran).
	Result *glv1.StepResult
	// Report is the parsed log and report files (nil at OnExit, or when
	// nothing could be parsed).
	Report *parse.StepReport
	// IndexUnreachable: an install step of the same run said the package
	// index could not be reached (see IndexUnreachable).
	IndexUnreachable bool
	// Tree is the snapshot's files (nil when too large or unreadable); it
	// tells the project's own modules from third-party ones.
	Tree fs.FS
	// Selected are the test ids a selective verification narrowed the
	// step to (VerifyOptions.tests); nil when the step runs whole.
	Selected []string
}

// StepRule is one named rule that may change a step's status from what
// its exit code said. Apply returns the result unchanged (the same
// pointer) when the rule does not apply, or a changed copy with a reason.
type StepRule struct {
	// Name names the rule; the rules that record themselves write it to
	// StepResult.rule.
	Name string
	// Stage is when it runs.
	Stage Stage
	// Doc says, in one line, what it decides and why.
	Doc string
	// Apply is the rule.
	Apply func(StepInput) *glv1.StepResult
}

// stepRules are the step rules in the order they run; each sees the
// result the ones before it left. A step is OK only when its exit code
// and every rule agree.
var stepRules = []StepRule{
	{Name: RuleToolUnavailable, Stage: OnExit, Apply: toolUnavailable,
		Doc: "the step's own program (or `python -m` module) is not in its image: an advisory step is SKIPPED, a required one an ERROR saying how to add it"},
	{Name: RuleInstallEnv, Stage: OnExit, Apply: installEnv,
		Doc: "an install with network failed on TLS trust, an unreachable index (and no sign of a code problem) or a lockfile-pinned archive the index no longer serves: an ERROR of the environment naming the setting"},
	{Name: RuleOldToolchain, Stage: OnExit, Apply: oldToolchain,
		Doc: "a tool refused the project for its version (cargo's rust-version, pytest's minversion, requires-python, the go directive, CMake, engines, the JDK): an ERROR naming both versions, the code was never built or tested"},
	{Name: RuleMissingDeps, Stage: OnExit, Apply: missingDeps,
		Doc: "the index was unreachable and a required test step stopped at a third-party import, an uninstalled plugin's option or an uninstalled distribution's metadata: an ERROR of the environment"},
	{Name: RuleUnpinnedCheck, Stage: OnExit, Apply: unpinnedCheck,
		Doc: "the index was unreachable and a lint or type check the maintainers' CI requires ran the image's version, not the pinned one: an ERROR, its findings cannot decide"},
	{Name: RuleTimeLimit, Stage: OnReport, Apply: timeLimit,
		Doc: "a required install or build step ran out of greenlight's time limit, or any step the run's budget cut short, with no test failed before: an ERROR naming the limit and the setting (a test step that times out on its own limit stays a failure; records its rule)"},
	{Name: RuleToolAbsent, Stage: OnReport, Apply: toolAbsent,
		Doc: "the log says a build tool the step calls was not found: an ERROR naming the tools and the image, whatever the exit code (records its rule)"},
	{Name: RuleDiskFull, Stage: OnReport, Apply: diskFull,
		Doc: "a required step failed saying a device had no space left (ENOSPC) and no test failed otherwise: an ERROR of the environment naming the full mount and the setting that raises its cap (records its rule)"},
	{Name: RuleNeedsNetwork, Stage: OnReport, Apply: needsNetwork,
		Doc: "a step without network (not an install) failed reaching the network and no test failed otherwise: an ERROR of the environment naming the line (records its rule)"},
	{Name: RuleNeedsHostService, Stage: OnReport, Apply: needsHostService,
		Doc: "every failed test of a required step failed on a host service the sandbox lacks (journald, D-Bus, /dev/log, a Docker engine): an ERROR of the environment naming the line (records its rule)"},
	{Name: RuleNoTestsRan, Stage: OnReport, Apply: noTestsRan,
		Doc: "a required test step finished OK but its runner said it found no tests (CTest, unittest, pytest, mocha, TAP, Jest): an ERROR, nothing was verified (records its rule)"},
	{Name: RuleNoSelectedTest, Stage: OnReport, Apply: noSelectedTest,
		Doc: "a test step narrowed to the tests a selective run names exited having counted none of them (a misspelt id, a test of another step): an ERROR, nothing was verified (records its rule)"},
	{Name: RuleReportDisagrees, Stage: OnReport, Apply: reportDisagrees,
		Doc: "exit 0 while the runner's report counts failed or errored tests, or two reports of the run disagree: FAILED (records its rule)"},
}

// Steps runs the step rules of a stage, in order, on one step and
// returns its result (in.Result itself when no rule applied).
func Steps(stage Stage, in StepInput) *glv1.StepResult {
	for _, r := range stepRules {
		if r.Stage == stage {
			in.Result = r.Apply(in)
		}
	}
	return in.Result
}

// Names of the step rules. Only time-limit, tool-absent, disk-full,
// needs-network, needs-host-service, no-tests-ran, no-selected-test and report-disagrees are written to StepResult.rule; the others say what they found in
// StepResult.reason alone.
const (
	RuleToolUnavailable = "tool-unavailable"
	RuleInstallEnv      = "install-env"
	RuleOldToolchain    = "old-toolchain"
	RuleMissingDeps     = "missing-deps"
	RuleUnpinnedCheck   = "unpinned-check"
)
