package contract

// EvalReport is greenlight eval's result: per-suite figures (pass@
// averaged over tasks, medians and the rollback rate over all samples)
// and every task's samples.
type EvalReport struct {
	SchemaVersion            string     `json:"schema_version" jsonschema:"const=greenlight.contract/v1"`
	Kind                     string     `json:"kind" jsonschema:"const=EVAL"`
	Samples                  int        `json:"samples"`
	K                        int        `json:"k"`
	PassAt1                  float64    `json:"pass_at_1"`
	PassAtK                  float64    `json:"pass_at_k"`
	MedianPatchLines         float64    `json:"median_patch_lines"`
	MedianAttemptsToGreen    float64    `json:"median_attempts_to_green"`
	MedianTimeToGreenSeconds float64    `json:"median_time_to_green_seconds"`
	RollbackRate             float64    `json:"rollback_rate"`
	Tasks                    []EvalTask `json:"tasks"`
}

// EvalTask aggregates one task's samples. Medians are over passing
// samples; the rollback rate is rolled-back patches over proposed ones.
type EvalTask struct {
	Name                     string       `json:"name"`
	Passed                   int          `json:"passed"`
	PassAt1                  float64      `json:"pass_at_1"`
	PassAtK                  float64      `json:"pass_at_k"`
	MedianPatchLines         float64      `json:"median_patch_lines"`
	MedianAttemptsToGreen    float64      `json:"median_attempts_to_green"`
	MedianTimeToGreenSeconds float64      `json:"median_time_to_green_seconds"`
	RollbackRate             float64      `json:"rollback_rate"`
	Runs                     []EvalSample `json:"runs"`
}

// EvalSample is one repair run of a task.
type EvalSample struct {
	RunID string `json:"run_id"`
	// Passed: green, and the task's reference check (if any) passed too.
	Passed bool `json:"passed"`
	Green  bool `json:"green"`
	// Status is the run's verdict, PASS, FAIL or ERROR (ERROR also when
	// the run could not be carried out: Error says why).
	Status string `json:"status" jsonschema:"enum=PASS,enum=FAIL,enum=ERROR"`
	// RunStatus is how the run ended (PASSED, FAILED, ERROR, CANCELED;
	// UNSPECIFIED when it never finished).
	RunStatus string `json:"run_status"`
	// Summary is the run's verdict in one line (for an ERROR run: why).
	Summary string `json:"summary"`
	// ReferencePassed is null when the task has no reference check or the
	// run never got green.
	ReferencePassed    *bool   `json:"reference_passed" jsonschema:"nullable"`
	StopReason         string  `json:"stop_reason"`
	Rounds             int32   `json:"rounds"`
	AttemptsToGreen    int32   `json:"attempts_to_green"`
	TimeToGreenSeconds float64 `json:"time_to_green_seconds"`
	PatchLines         int32   `json:"patch_lines"`
	Patches            int     `json:"patches"`
	Rollbacks          int32   `json:"rollbacks"`
	Tokens             int64   `json:"tokens"`
	Cost               float64 `json:"cost"`
	FinalSnapshot      string  `json:"final_snapshot"`
	WallSeconds        float64 `json:"wall_seconds"`
	Error              string  `json:"error"`
	// Resolution is the final state against the baseline in the
	// SWE-bench sense (FULL, PARTIAL, NO; UNSPECIFIED when not compared);
	// Transitions says it in words.
	Resolution  string `json:"resolution"`
	Transitions string `json:"transitions"`
	FailToPass  int32  `json:"fail_to_pass"`
	PassToFail  int32  `json:"pass_to_fail"`
	// FailingFailToPass and FailingPassToPass are the target ids (as the
	// task named them) that do not pass at the end.
	FailingFailToPass []string `json:"failing_fail_to_pass"`
	FailingPassToPass []string `json:"failing_pass_to_pass"`
	// Applied: some patch of the run applied (kept or rolled back).
	Applied bool `json:"applied"`
	// Reruns counts failing tests re-run alone to tell flaky ones apart.
	Reruns int32 `json:"reruns"`
	// LastPatch grades the tree the last applied patch produced, even when
	// it was rolled back (a SWE-bench harness grades the patch as
	// submitted); null when no patch applied.
	LastPatch *EvalGrade `json:"last_patch" jsonschema:"nullable"`
	// HiddenTests are the task's hidden tests in the run's final grading
	// verification; null when the task has none.
	HiddenTests *HiddenTests `json:"hidden_tests" jsonschema:"nullable"`
}

// EvalGrade is one verification's resolution against the targets.
type EvalGrade struct {
	Resolution        string   `json:"resolution"`
	FailingFailToPass []string `json:"failing_fail_to_pass"`
	FailingPassToPass []string `json:"failing_pass_to_pass"`
}

// Normalize makes every list non-null and fills the constant fields, so
// the report has every field present.
func (r *EvalReport) Normalize() {
	r.SchemaVersion, r.Kind = SchemaVersion, "EVAL"
	r.Tasks = list(r.Tasks)
	for i := range r.Tasks {
		t := &r.Tasks[i]
		t.Runs = list(t.Runs)
		for j := range t.Runs {
			s := &t.Runs[j]
			s.FailingFailToPass, s.FailingPassToPass = list(s.FailingFailToPass), list(s.FailingPassToPass)
			if s.HiddenTests != nil {
				s.HiddenTests.Failing = list(s.HiddenTests.Failing)
			}
			if s.LastPatch != nil {
				s.LastPatch.FailingFailToPass = list(s.LastPatch.FailingFailToPass)
				s.LastPatch.FailingPassToPass = list(s.LastPatch.FailingPassToPass)
			}
			if s.Resolution == "" {
				s.Resolution = "UNSPECIFIED"
			}
		}
	}
}
