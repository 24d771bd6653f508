package contract

import (
	"encoding/json"
	"fmt"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// FromRun renders a run: its result (the final verification) and, for a
// fix run, the repair record. A run without a result yet (pending,
// running, or an ERROR before anything ran) still yields every field.
func FromRun(run *glv1.Run) *Result {
	out := FromResult(run.GetResult())
	out.Kind = RunKind(run.GetKind())
	if out.Kind == "UNSPECIFIED" {
		out.Kind = "VERIFY"
	}
	out.RunID = run.GetId()
	out.RunStatus = RunStatus(run.GetStatus())
	out.Error = run.GetError()
	out.Status = statusOf(run)
	if out.Status == StatusError {
		out.Score = nil
	}
	if out.Summary == "" && run.GetError() != "" {
		out.Summary = run.GetError()
	}
	if run.GetKind() == glv1.RunKind_RUN_KIND_FIX {
		out.Fix = fixOf(run)
	}
	return out
}

// FromResult renders a bare result (no run around it: the executor's or a
// stored result.json). Kind is VERIFY.
func FromResult(r *glv1.Result) *Result {
	out := &Result{
		SchemaVersion: SchemaVersion, Kind: "VERIFY", Status: Verdict(r.GetStatus()), RunID: r.GetRunId(),
		RunStatus: "UNSPECIFIED", Summary: r.GetSummary(), TailLog: r.GetTailLog(),
		ArtifactPaths: list(r.GetArtifactPaths()), Manifest: ManifestOf(r.GetManifest()), Level: Level(r.GetLevel()),
		Score: scoreOf(r.GetScore()), Counts: countsOf(r.GetCounts()), Steps: mapList(r.GetSteps(), stepOf),
		Tests: mapList(r.GetTests(), testOf), Inventory: inventoryOf(r.GetInventory()),
		Failures: mapList(r.GetFailures(), failureOf), Tiers: mapList(r.GetTiers(), tierOf), StopMemo: r.GetStopMemo(),
		InfraRetries: list(r.GetInfraRetries()), Partial: partialOf(r.GetPartial()), Review: reviewOf(r.GetReview()),
		Coverage: coverageOf(r.GetCoverage()), Plan: mapList(r.GetPlan(), planCommandOf),
	}
	if out.Status == StatusError {
		out.Score = nil
	}
	return out
}

// statusOf is the contract status of a run: the verdict once it has
// finished, PENDING before, ERROR for a finished run without a verdict
// (a PASSED or FAILED run listed without its result says PASS or FAIL).
func statusOf(run *glv1.Run) string {
	switch run.GetStatus() {
	case glv1.RunStatus_RUN_STATUS_PENDING, glv1.RunStatus_RUN_STATUS_RUNNING:
		return StatusPending
	}
	if run.GetResult() == nil {
		// A run listed without its result (ListRuns) still says how it ended.
		switch run.GetStatus() {
		case glv1.RunStatus_RUN_STATUS_PASSED:
			return StatusPass
		case glv1.RunStatus_RUN_STATUS_FAILED:
			return StatusFail
		}
	}
	return Verdict(run.GetResult().GetStatus())
}

// Marshal renders v (a Result or an eval report) as indented JSON with a
// final newline.
func Marshal(v any) ([]byte, error) {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("contract: %w", err)
	}
	return append(b, '\n'), nil
}
