package eval

import (
	"encoding/json"
	"slices"
	"sort"

	"github.com/greenlight-dev/greenlight/pkg/contract"
	"github.com/greenlight-dev/greenlight/services/loop/internal/transition"
)

// SWEReport is an eval of SWE-bench instances in the shape of
// swebench.harness's run report (counts and id lists, schema_version 2)
// with each instance's tests_status as its per-instance report gives it,
// plus greenlight's figures.
type SWEReport struct {
	TotalInstances      int      `json:"total_instances"`
	SubmittedInstances  int      `json:"submitted_instances"`
	CompletedInstances  int      `json:"completed_instances"`
	ResolvedInstances   int      `json:"resolved_instances"`
	UnresolvedInstances int      `json:"unresolved_instances"`
	EmptyPatchInstances int      `json:"empty_patch_instances"`
	ErrorInstances      int      `json:"error_instances"`
	CompletedIDs        []string `json:"completed_ids"`
	IncompleteIDs       []string `json:"incomplete_ids"`
	EmptyPatchIDs       []string `json:"empty_patch_ids"`
	SubmittedIDs        []string `json:"submitted_ids"`
	ResolvedIDs         []string `json:"resolved_ids"`
	UnresolvedIDs       []string `json:"unresolved_ids"`
	ErrorIDs            []string `json:"error_ids"`
	SchemaVersion       int      `json:"schema_version"`
	// Instances is each instance's report, by id.
	Instances map[string]InstanceReport `json:"instances"`
	// Greenlight's figures over the same runs.
	PassAt1                  float64 `json:"pass_at_1"`
	MedianPatchLines         float64 `json:"median_patch_lines"`
	MedianTimeToGreenSeconds float64 `json:"median_time_to_green_seconds"`
}

// InstanceReport is one instance's grading, as swebench's per-instance
// report: whether a patch existed and applied, whether it resolved the
// instance, and each target test's outcome.
type InstanceReport struct {
	PatchIsNone              bool                   `json:"patch_is_None"`
	PatchExists              bool                   `json:"patch_exists"`
	PatchSuccessfullyApplied bool                   `json:"patch_successfully_applied"`
	Resolved                 bool                   `json:"resolved"`
	TestsStatus              map[string]TestsStatus `json:"tests_status"`
	// Greenlight's: the run, its resolution and transitions in words.
	RunID       string `json:"run_id,omitempty"`
	Resolution  string `json:"resolution,omitempty"`
	Transitions string `json:"transitions,omitempty"`
	Error       string `json:"error,omitempty"`
}

// TestsStatus splits a target list into the tests that passed and those
// that did not (skipped and missing ones fail, as in swebench).
type TestsStatus struct {
	Success []string `json:"success"`
	Failure []string `json:"failure"`
}

// SWEReportOf grades an eval of instances (one sample each) from its
// report.
func SWEReportOf(instances []*Instance, patches map[string]string, rep *Report) *SWEReport {
	byName := map[string]TaskReport{}
	for _, t := range rep.Tasks {
		byName[t.Name] = t
	}
	out := &SWEReport{SchemaVersion: 2, Instances: map[string]InstanceReport{}, PassAt1: rep.PassAt1,
		MedianPatchLines: rep.MedianPatchLines, MedianTimeToGreenSeconds: rep.MedianTimeToGreenSeconds}
	for _, in := range instances {
		id := in.InstanceID
		out.TotalInstances++
		p := patches[id]
		ir := InstanceReport{PatchIsNone: p == "", PatchExists: p != "", TestsStatus: map[string]TestsStatus{}}
		tr, ran := byName[id]
		if p == "" {
			out.EmptyPatchIDs = append(out.EmptyPatchIDs, id)
		} else {
			out.SubmittedIDs = append(out.SubmittedIDs, id)
		}
		if !ran || len(tr.Runs) == 0 {
			out.IncompleteIDs = append(out.IncompleteIDs, id)
			out.Instances[id] = ir
			continue
		}
		s := tr.Runs[0]
		ir.RunID, ir.Resolution, ir.Transitions, ir.Error = s.RunID, s.Resolution, s.Transitions, s.Error
		ir.PatchSuccessfullyApplied = s.Applied
		// The patch as submitted is graded, even when the loop rolled it
		// back; without an applied patch, the tree as it stands.
		g := Grade{Resolution: s.Resolution, FailingFailToPass: s.FailingFailToPass, FailingPassToPass: s.FailingPassToPass}
		if s.LastPatch != nil {
			g = *s.LastPatch
		}
		ir.Resolved = s.Error == "" && p != "" && g.Resolution == "FULL"
		ir.TestsStatus["FAIL_TO_PASS"] = split(in.FailToPass, g.FailingFailToPass, g.Resolution == "FULL", g.Resolution == "NO" || g.Resolution == "PARTIAL")
		ir.TestsStatus["PASS_TO_PASS"] = split(in.PassToPass, g.FailingPassToPass, g.Resolution == "FULL" || g.Resolution == "PARTIAL", g.Resolution == "NO")
		switch {
		case s.Error != "" || s.Status == contract.StatusError:
			out.ErrorIDs = append(out.ErrorIDs, id)
		case ir.Resolved:
			out.CompletedIDs = append(out.CompletedIDs, id)
			out.ResolvedIDs = append(out.ResolvedIDs, id)
		case p != "":
			out.CompletedIDs = append(out.CompletedIDs, id)
			out.UnresolvedIDs = append(out.UnresolvedIDs, id)
		}
		out.Instances[id] = ir
	}
	for _, ids := range [][]string{out.CompletedIDs, out.IncompleteIDs, out.EmptyPatchIDs, out.SubmittedIDs,
		out.ResolvedIDs, out.UnresolvedIDs, out.ErrorIDs} {
		sort.Strings(ids)
	}
	out.SubmittedInstances, out.CompletedInstances = len(out.SubmittedIDs), len(out.CompletedIDs)
	out.ResolvedInstances, out.UnresolvedInstances = len(out.ResolvedIDs), len(out.UnresolvedIDs)
	out.EmptyPatchInstances, out.ErrorInstances = len(out.EmptyPatchIDs), len(out.ErrorIDs)
	out.nonNil()
	return out
}

// split divides targets into those the grade shows passing and the rest.
// A target succeeds only on positive evidence: allPass (the resolution
// says every target of the list passes), or named (the grade lists this
// list's failing targets, by a complete list) and the target is not
// among them. An ungraded record (a fail-fast probe's rollback, which ran
// only some tests) or a list cut at the transition cap proves nothing
// for the targets it does not name: they fail, as a missing test does in
// swebench.
func split(targets, failing []string, allPass, named bool) TestsStatus {
	st := TestsStatus{Success: []string{}, Failure: []string{}}
	complete := named && len(failing) < transition.MaxChanges
	for _, t := range targets {
		if allPass || (complete && !slices.Contains(failing, t)) {
			st.Success = append(st.Success, t)
		} else {
			st.Failure = append(st.Failure, t)
		}
	}
	return st
}

// nonNil makes every id list print as [] rather than null.
func (r *SWEReport) nonNil() {
	for _, p := range []*[]string{&r.CompletedIDs, &r.IncompleteIDs, &r.EmptyPatchIDs, &r.SubmittedIDs,
		&r.ResolvedIDs, &r.UnresolvedIDs, &r.ErrorIDs} {
		if *p == nil {
			*p = []string{}
		}
	}
}

// JSON renders the report, indented.
func (r *SWEReport) JSON() []byte {
	b, _ := json.MarshalIndent(r, "", "  ")
	return append(b, '\n')
}

// Patches maps each instance to the patch an eval submits for it: the
// gold patch, or the prediction's when preds is not nil.
func Patches(instances []*Instance, preds map[string]Prediction) map[string]string {
	out := map[string]string{}
	for _, in := range instances {
		if preds == nil {
			out[in.InstanceID] = in.Patch
		} else {
			out[in.InstanceID] = preds[in.InstanceID].ModelPatch
		}
	}
	return out
}
