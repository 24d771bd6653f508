package eval

import (
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/greenlight-dev/greenlight/pkg/contract"
)

// Sample is one repair run of a task (the contract's shape).
type Sample = contract.EvalSample

// Grade is one verification's resolution against the targets.
type Grade = contract.EvalGrade

// TaskReport aggregates one task's samples.
type TaskReport = contract.EvalTask

// Report is an eval's result in the output contract's shape
// (contract.EvalReport), with the figures computed here.
type Report struct {
	contract.EvalReport
}

// Unmeasured counts the samples that measured nothing about the provider:
// the run could not be carried out (an RPC error) or ended in ERROR (the
// sandbox, discovery or the provider's host failed). A report whose every
// sample is unmeasured says nothing, whatever its pass@ figures.
func (r *Report) Unmeasured() (n, total int) {
	for _, t := range r.Tasks {
		for _, s := range t.Runs {
			total++
			if s.Error != "" || s.Status == contract.StatusError {
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
	r.Normalize()
	return contract.Marshal(&r.EvalReport)
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
