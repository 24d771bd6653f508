package eval

import (
	"encoding/json"
	"fmt"
	"strings"
	"text/tabwriter"
)

// Sample is one repair run of a task.
type Sample struct {
	RunID  string `json:"run_id"`
	Passed bool   `json:"passed"`
	Green  bool   `json:"green"`
	// Status is how the repair run ended: passed, failed, error or
	// canceled ("" when it never finished; Error says why).
	Status string `json:"status,omitempty"`
	// Summary is the run's verdict in one line (for an ERROR run: why).
	Summary string `json:"summary,omitempty"`
	// ReferencePassed is set when the task has a reference check and the
	// run got green.
	ReferencePassed    *bool   `json:"reference_passed,omitempty"`
	StopReason         string  `json:"stop_reason"`
	Rounds             int32   `json:"rounds"`
	AttemptsToGreen    int32   `json:"attempts_to_green"`
	TimeToGreenSeconds float64 `json:"time_to_green_seconds"`
	PatchLines         int32   `json:"patch_lines"`
	Patches            int     `json:"patches"`
	Rollbacks          int32   `json:"rollbacks"`
	Tokens             int64   `json:"tokens"`
	Cost               float64 `json:"cost"`
	FinalSnapshot      string  `json:"final_snapshot,omitempty"`
	WallSeconds        float64 `json:"wall_seconds"`
	Error              string  `json:"error,omitempty"`
	// Resolution is the final state against the baseline in the
	// SWE-bench sense (FULL, PARTIAL, NO); Transitions says it in words.
	Resolution  string `json:"resolution,omitempty"`
	Transitions string `json:"transitions,omitempty"`
	FailToPass  int32  `json:"fail_to_pass"`
	PassToFail  int32  `json:"pass_to_fail"`
	// FailingFailToPass and FailingPassToPass are the target ids (as the
	// task named them) that do not pass at the end.
	FailingFailToPass []string `json:"failing_fail_to_pass,omitempty"`
	FailingPassToPass []string `json:"failing_pass_to_pass,omitempty"`
	// Applied: some patch of the run applied (kept or rolled back).
	Applied bool `json:"applied"`
	// Reruns counts failing tests re-run alone to tell flaky ones apart.
	Reruns int32 `json:"reruns"`
	// LastPatch grades the tree the last applied patch produced, even
	// when it was rolled back (a SWE-bench harness grades the patch as
	// submitted); nil when no patch applied.
	LastPatch *Grade `json:"last_patch,omitempty"`
}

// Grade is one verification's resolution against the targets.
type Grade struct {
	Resolution        string   `json:"resolution"`
	FailingFailToPass []string `json:"failing_fail_to_pass,omitempty"`
	FailingPassToPass []string `json:"failing_pass_to_pass,omitempty"`
}

// TaskReport aggregates one task's samples. Medians are over passing
// samples; the rollback rate is rolled-back patches over proposed ones.
type TaskReport struct {
	Name                     string   `json:"name"`
	Passed                   int      `json:"passed"`
	PassAt1                  float64  `json:"pass_at_1"`
	PassAtK                  float64  `json:"pass_at_k"`
	MedianPatchLines         float64  `json:"median_patch_lines"`
	MedianAttemptsToGreen    float64  `json:"median_attempts_to_green"`
	MedianTimeToGreenSeconds float64  `json:"median_time_to_green_seconds"`
	RollbackRate             float64  `json:"rollback_rate"`
	Runs                     []Sample `json:"runs"`
}

// Report is an eval's result: per-suite figures (pass@ averaged over
// tasks, medians and rollback rate over all samples) and the tasks.
type Report struct {
	Samples                  int          `json:"samples"`
	K                        int          `json:"k"`
	PassAt1                  float64      `json:"pass_at_1"`
	PassAtK                  float64      `json:"pass_at_k"`
	MedianPatchLines         float64      `json:"median_patch_lines"`
	MedianAttemptsToGreen    float64      `json:"median_attempts_to_green"`
	MedianTimeToGreenSeconds float64      `json:"median_time_to_green_seconds"`
	RollbackRate             float64      `json:"rollback_rate"`
	Tasks                    []TaskReport `json:"tasks"`
}

// Unmeasured counts the samples that measured nothing about the provider:
// the run could not be carried out (an RPC error) or ended in ERROR (the
// sandbox, discovery or the provider's host failed). A report whose every
// sample is unmeasured says nothing, whatever its pass@ figures.
func (r *Report) Unmeasured() (n, total int) {
	for _, t := range r.Tasks {
		for _, s := range t.Runs {
			total++
			if s.Error != "" || s.Status == "error" || s.Status == "" {
				n++
			}
		}
	}
	return n, total
}

// figures accumulates the medians and the rollback rate.
type figures struct {
	lines, attempts, times []float64
	rollbacks, patches     int
}

func (f *figures) add(s Sample) {
	f.rollbacks += int(s.Rollbacks)
	f.patches += s.Patches
	if s.Passed {
		f.lines = append(f.lines, float64(s.PatchLines))
		f.attempts = append(f.attempts, float64(s.AttemptsToGreen))
		f.times = append(f.times, s.TimeToGreenSeconds)
	}
}

func (f *figures) rollbackRate() float64 {
	if f.patches == 0 {
		return 0
	}
	return round3(float64(f.rollbacks) / float64(f.patches))
}

// summarize computes every figure from the samples.
func (r *Report) summarize() {
	var all figures
	var p1, pk float64
	for i := range r.Tasks {
		t := &r.Tasks[i]
		var f figures
		for _, s := range t.Runs {
			f.add(s)
			all.add(s)
			if s.Passed {
				t.Passed++
			}
		}
		n := len(t.Runs)
		t.PassAt1, t.PassAtK = round3(PassAtK(n, t.Passed, 1)), round3(PassAtK(n, t.Passed, r.K))
		t.MedianPatchLines, t.MedianAttemptsToGreen = median(f.lines), median(f.attempts)
		t.MedianTimeToGreenSeconds, t.RollbackRate = round3(median(f.times)), f.rollbackRate()
		p1 += t.PassAt1
		pk += t.PassAtK
	}
	if n := float64(len(r.Tasks)); n > 0 {
		r.PassAt1, r.PassAtK = round3(p1/n), round3(pk/n)
	}
	r.MedianPatchLines, r.MedianAttemptsToGreen = median(all.lines), median(all.attempts)
	r.MedianTimeToGreenSeconds, r.RollbackRate = round3(median(all.times)), all.rollbackRate()
}

// JSON renders the report, indented.
func (r *Report) JSON() ([]byte, error) {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("eval report: %w", err)
	}
	return append(b, '\n'), nil
}

// Table renders the report as a text table: one row per task, then the
// suite's figures.
func (r *Report) Table() string {
	var b strings.Builder
	w := tabwriter.NewWriter(&b, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(w, "task\tpassed\tpass@1\tpass@%d\tmedian lines\tmedian attempts\tmedian time-to-green\trollback rate\t\n", r.K)
	for _, t := range r.Tasks {
		fmt.Fprintf(w, "%s\t%d/%d\t%.3f\t%.3f\t%g\t%g\t%.1fs\t%.3f\t\n", t.Name, t.Passed, len(t.Runs), t.PassAt1, t.PassAtK,
			t.MedianPatchLines, t.MedianAttemptsToGreen, t.MedianTimeToGreenSeconds, t.RollbackRate)
	}
	fmt.Fprintf(w, "suite (%d tasks × %d)\t\t%.3f\t%.3f\t%g\t%g\t%.1fs\t%.3f\t\n", len(r.Tasks), r.Samples, r.PassAt1, r.PassAtK,
		r.MedianPatchLines, r.MedianAttemptsToGreen, r.MedianTimeToGreenSeconds, r.RollbackRate)
	_ = w.Flush()
	return b.String()
}
