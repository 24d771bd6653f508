package contract

// Fix is a fix run's record: the repair loop's metrics, every proposed
// patch with what it did to the tests, and the final state against the
// baseline (the run's first verification, of the unpatched snapshot).
type Fix struct {
	Green bool `json:"green"`
	// Rounds is how many patches were asked for.
	Rounds int32 `json:"rounds"`
	// AttemptsToGreen is the round that reached green (0: never).
	AttemptsToGreen int32 `json:"attempts_to_green"`
	// TimeToGreenMS is 0 when never green.
	TimeToGreenMS int64  `json:"time_to_green_ms"`
	Rollbacks     int32  `json:"rollbacks"`
	PatchLines    int32  `json:"patch_lines"`
	Reruns        int32  `json:"reruns"`
	StopReason    string `json:"stop_reason"`
	Usage         Usage  `json:"usage"`
	// Targets are the goal as the caller named it (empty lists: the tests
	// and required steps failing at baseline).
	Targets Targets `json:"targets"`
	// BaselineInventory is every test of the baseline with its outcome.
	BaselineInventory *Inventory `json:"baseline_inventory" jsonschema:"nullable"`
	// Transitions compares the final accepted verification with the baseline.
	Transitions *Transitions `json:"transitions" jsonschema:"nullable"`
	Patches     []Patch      `json:"patches"`
	// FinalSnapshot is the tree after the last kept patch.
	FinalSnapshot *Digest `json:"final_snapshot" jsonschema:"nullable"`
	// HiddenTests are the caller's hidden tests in the final accepted
	// grading verification, BaselineHiddenTests in the baseline's; null
	// when the run had none.
	HiddenTests         *HiddenTests `json:"hidden_tests" jsonschema:"nullable"`
	BaselineHiddenTests *HiddenTests `json:"baseline_hidden_tests" jsonschema:"nullable"`
}

// HiddenTests counts how a fix run's hidden tests (tests the model never
// sees) fared in one grading verification.
type HiddenTests struct {
	Passed int32 `json:"passed"`
	// Failed counts hidden targets that failed, errored, were skipped or
	// did not run; Missing those that did not run.
	Failed  int32 `json:"failed"`
	Missing int32 `json:"missing"`
	// Failing names the failed ones (at most 100).
	Failing []string `json:"failing"`
}

// Usage counts model tokens and cost.
type Usage struct {
	PromptTokens     int64   `json:"prompt_tokens"`
	CompletionTokens int64   `json:"completion_tokens"`
	Cost             float64 `json:"cost"`
}

// Targets name a fix run's goal.
type Targets struct {
	FailToPass []string `json:"fail_to_pass"`
	PassToPass []string `json:"pass_to_pass"`
	Steps      []string `json:"steps"`
}

// Patch is one proposed patch and what happened to it.
type Patch struct {
	Attempt int32 `json:"attempt"`
	Applied bool  `json:"applied"`
	// RolledBack: applied, verified, and undone (a regression).
	RolledBack bool `json:"rolled_back"`
	// Rule is the guardrail that refused it, or "regression"; "" when kept.
	Rule           string       `json:"rule"`
	Reason         string       `json:"reason"`
	Format         string       `json:"format"`
	Files          []string     `json:"files"`
	LinesAdded     int32        `json:"lines_added"`
	LinesRemoved   int32        `json:"lines_removed"`
	FailingBefore  int32        `json:"failing_before"`
	FailingAfter   int32        `json:"failing_after"`
	Diff           string       `json:"diff"`
	Usage          Usage        `json:"usage"`
	Transitions    *Transitions `json:"transitions" jsonschema:"nullable"`
	SnapshotBefore *Digest      `json:"snapshot_before" jsonschema:"nullable"`
	SnapshotAfter  *Digest      `json:"snapshot_after" jsonschema:"nullable"`
	// HiddenTests are the run's hidden tests in the patched snapshot's
	// grading verification; null without hidden tests or when the patch
	// was not graded.
	HiddenTests *HiddenTests `json:"hidden_tests" jsonschema:"nullable"`
}

// Transitions compares one verification with the baseline, per test.
type Transitions struct {
	// Resolution is FULL, PARTIAL or NO in the SWE-bench sense.
	Resolution  string `json:"resolution"`
	FailToPass  int32  `json:"fail_to_pass"`
	PassToPass  int32  `json:"pass_to_pass"`
	PassToFail  int32  `json:"pass_to_fail"`
	FailToFail  int32  `json:"fail_to_fail"`
	NewTests    int32  `json:"new_tests"`
	Disappeared int32  `json:"disappeared"`
	// Complete: both inventories list every test, so DISAPPEARED is exact.
	Complete bool `json:"complete"`
	// Changes lists every transition but PASS_TO_PASS, targets first (at
	// most 500; ChangesOmitted counts the rest).
	Changes                []Transition `json:"changes"`
	ChangesOmitted         int32        `json:"changes_omitted"`
	TargetFailToPass       int32        `json:"target_fail_to_pass"`
	TargetFailToPassPassed int32        `json:"target_fail_to_pass_passed"`
	TargetPassToPass       int32        `json:"target_pass_to_pass"`
	TargetPassToPassPassed int32        `json:"target_pass_to_pass_passed"`
	FailingFailToPass      []string     `json:"failing_fail_to_pass"`
	FailingPassToPass      []string     `json:"failing_pass_to_pass"`
	FailingTargetSteps     []string     `json:"failing_target_steps"`
	FailingOutsideTarget   []string     `json:"failing_outside_target"`
}

// Transition is one test's change against the baseline.
type Transition struct {
	Step string `json:"step"`
	ID   string `json:"id"`
	Kind string `json:"kind"`
	// Before and After are test statuses; UNSPECIFIED: it did not run.
	Before string `json:"before"`
	After  string `json:"after"`
	Target bool   `json:"target"`
}
