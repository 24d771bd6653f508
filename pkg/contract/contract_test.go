package contract

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

var update = flag.Bool("update", false, "rewrite the golden files and docs/contract.schema.json")

const schemaFile = "../../docs/contract.schema.json"

// golden compares got with testdata/NAME (rewritten with -update).
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./contract -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (go test ./contract -update after checking the change):\n%s", name, got)
	}
}

// compiled is the committed schema, compiled for validation.
func compiled(t *testing.T) *jsonschema.Schema {
	t.Helper()
	c := jsonschema.NewCompiler()
	f, err := os.Open(schemaFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.AddResource(SchemaID, doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(SchemaID)
	if err != nil {
		t.Fatalf("compile %s: %v", schemaFile, err)
	}
	return s
}

// validate checks a rendered document against the committed schema.
func validate(t *testing.T, s *jsonschema.Schema, b []byte) {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Validate(doc); err != nil {
		t.Errorf("document does not match %s: %v", schemaFile, err)
	}
}

func TestSchemaIsCurrent(t *testing.T) {
	got, err := generateSchema(".")
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile(schemaFile, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(schemaFile)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s is stale: run go test ./contract -update in pkg/ and review the diff", schemaFile)
	}
}

func TestGoldenDocumentsMatchSchema(t *testing.T) {
	s := compiled(t)
	docs := map[string]any{
		"verify-fail.json":    FromRun(verifyRun(failingResult(), glv1.RunStatus_RUN_STATUS_FAILED)),
		"verify-error.json":   FromRun(errorRun()),
		"verify-pending.json": FromRun(&glv1.Run{Id: "r_new", Kind: glv1.RunKind_RUN_KIND_VERIFY, Status: glv1.RunStatus_RUN_STATUS_RUNNING}),
		"fix-two-rounds.json": FromRun(fixRun()),
		"eval.json":           evalReport(),
	}
	for name, doc := range docs {
		t.Run(name, func(t *testing.T) {
			b, err := Marshal(doc)
			if err != nil {
				t.Fatal(err)
			}
			validate(t, s, b)
			golden(t, name, b)
		})
	}
}

func TestSchemaRejectsWhatTheContractForbids(t *testing.T) {
	s := compiled(t)
	good, err := Marshal(FromRun(verifyRun(failingResult(), glv1.RunStatus_RUN_STATUS_FAILED)))
	if err != nil {
		t.Fatal(err)
	}
	for name, edit := range map[string]func(map[string]any){
		"long enum":       func(m map[string]any) { m["status"] = "VERDICT_FAIL" },
		"missing field":   func(m map[string]any) { delete(m, "failures") },
		"number string":   func(m map[string]any) { m["steps"].([]any)[0].(map[string]any)["duration_ms"] = "2300" },
		"unknown field":   func(m map[string]any) { m["verdict"] = "FAIL" },
		"null list":       func(m map[string]any) { m["tests"] = nil },
		"bad level value": func(m map[string]any) { m["level"] = "LEVEL_L4" },
	} {
		var m map[string]any
		if err := json.Unmarshal(good, &m); err != nil {
			t.Fatal(err)
		}
		edit(m)
		b, _ := json.Marshal(m)
		doc, _ := jsonschema.UnmarshalJSON(bytes.NewReader(b))
		if err := s.Validate(doc); err == nil {
			t.Errorf("%s: the schema accepted it", name)
		}
	}
}

func TestEveryFieldPresentAndShortEnums(t *testing.T) {
	pass := failingResult()
	pass.Status, pass.Failures = glv1.Verdict_VERDICT_PASS, nil
	b, err := Marshal(FromRun(verifyRun(pass, glv1.RunStatus_RUN_STATUS_PASSED)))
	if err != nil {
		t.Fatal(err)
	}
	out := string(b)
	for _, want := range []string{
		`"status": "PASS"`, `"failures": []`, `"fix": null`, `"exit_code": 0`, `"level": "L4"`, `"phase": "BUILD"`,
		`"status": "OK"`, `"tier": "TIER_0"`, `"decided_by": "DETERMINISTIC"`, `"duration_ms": 2300`, `"size_bytes": 2048`,
		`"timestamp_start": "2026-11-24T09:30:00Z"`, `"model_score": null`, `"kind": "VERIFY"`, `"run_status": "PASSED"`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("PASS result lacks %s", want)
		}
	}
	for _, banned := range []string{"STEP_STATUS_", "LEVEL_", "VERDICT_", "PHASE_", `"2300"`} {
		if strings.Contains(out, banned) {
			t.Errorf("PASS result contains %s", banned)
		}
	}
}

func TestErrorHasNoScoreAndPendingIsNotAVerdict(t *testing.T) {
	e := FromRun(errorRun())
	if e.Status != StatusError || e.Score != nil || e.Summary == "" || e.Error == "" {
		t.Errorf("ERROR run: status %s score %v summary %q error %q", e.Status, e.Score, e.Summary, e.Error)
	}
	p := FromRun(&glv1.Run{Id: "r", Status: glv1.RunStatus_RUN_STATUS_RUNNING})
	if p.Status != StatusPending || p.Kind != "VERIFY" || p.Steps == nil || p.ArtifactPaths == nil {
		t.Errorf("running run: %+v", p)
	}
	// ListRuns sends runs without their result: the status still says how
	// they ended.
	if l := FromRun(&glv1.Run{Id: "r", Status: glv1.RunStatus_RUN_STATUS_PASSED}); l.Status != StatusPass {
		t.Errorf("listed PASSED run: status %s, want PASS", l.Status)
	}
	// A finished run without a verdict concluded nothing: ERROR, never PASS.
	u := FromRun(&glv1.Run{Id: "r", Status: glv1.RunStatus_RUN_STATUS_CANCELED})
	if u.Status != StatusError {
		t.Errorf("canceled run without a result: status %s, want ERROR", u.Status)
	}
}

func TestFixRecord(t *testing.T) {
	f := FromRun(fixRun()).Fix
	if f == nil || !f.Green || f.AttemptsToGreen != 2 || f.TimeToGreenMS != 31500 || len(f.Patches) != 2 {
		t.Fatalf("fix record %+v", f)
	}
	p := f.Patches[0]
	if !p.RolledBack || p.Rule != "regression" || p.Transitions.PassToFail != 1 || p.Transitions.Changes[0].Kind != "PASS_TO_FAIL" ||
		p.Transitions.Resolution != "NO" || p.Format != "UNIFIED" {
		t.Errorf("first patch %+v", p)
	}
	if f.Transitions.Resolution != "FULL" || f.Transitions.Changes[0].Before != "FAILED" || f.Targets.FailToPass[0] != "TestAdd" ||
		f.Targets.PassToPass == nil || f.BaselineInventory == nil || f.FinalSnapshot == nil {
		t.Errorf("final %+v targets %+v", f.Transitions, f.Targets)
	}
}

func evalReport() *EvalReport {
	yes := true
	r := &EvalReport{Samples: 1, K: 1, PassAt1: 0.5, PassAtK: 0.5, MedianPatchLines: 2, MedianAttemptsToGreen: 1,
		MedianTimeToGreenSeconds: 8.3, RollbackRate: 0.5, Tasks: []EvalTask{
			{Name: "fixable", Passed: 1, PassAt1: 1, PassAtK: 1, MedianPatchLines: 2, MedianAttemptsToGreen: 1, MedianTimeToGreenSeconds: 8.3,
				Runs: []EvalSample{{RunID: "r_1", Passed: true, Green: true, Status: "PASS", RunStatus: "PASSED", ReferencePassed: &yes,
					StopReason: "green", Rounds: 1, AttemptsToGreen: 1, TimeToGreenSeconds: 8.3, PatchLines: 2, Patches: 1, Resolution: "FULL",
					FailToPass: 1, Applied: true, LastPatch: &EvalGrade{Resolution: "FULL"}}}},
			{Name: "hopeless", RollbackRate: 1, Runs: []EvalSample{{RunID: "r_2", Status: "FAIL", RunStatus: "FAILED", StopReason: "max_rounds",
				Rounds: 2, Patches: 2, Rollbacks: 2, Resolution: "NO", FailingFailToPass: []string{"tests/test_calc.py::test_add"}}}},
		}}
	r.Normalize()
	return r
}
