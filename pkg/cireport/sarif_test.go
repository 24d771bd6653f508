package cireport

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// sarifSchemaFile is a JSON Schema of the parts of SARIF 2.1.0 greenlight
// writes, with the constraints the OASIS standard puts on them (version,
// required tool.driver.name, message text, level and kind enums, regions
// from line 1, URI references). It is written here from the standard's
// text: the official schema is not vendored into this repository.
const sarifSchemaFile = "testdata/sarif-subset.schema.json"

// sarifValidator compiles the schema with format assertions on.
func sarifValidator(t *testing.T) *jsonschema.Schema {
	t.Helper()
	f, err := os.Open(sarifSchemaFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource(sarifSchemaFile, doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(sarifSchemaFile)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestSARIFValidatesAgainstTheSchema(t *testing.T) {
	s := sarifValidator(t)
	runs := fixtures()
	runs["hostile"] = hostileRun()
	runs["empty"] = &glv1.Run{Id: "r_empty", Error: "the executor is not reachable"}
	for name, run := range runs {
		t.Run(name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := WriteSARIF(&buf, run, Options{Version: "dev"}); err != nil {
				t.Fatal(err)
			}
			doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(buf.Bytes()))
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Validate(doc); err != nil {
				t.Errorf("SARIF does not validate: %v\n%s", err, buf.String())
			}
		})
	}
}

func TestSARIFSchemaRejectsABrokenLog(t *testing.T) {
	// The validator must be able to fail: a region's startLine is at
	// least 1, the version is 2.1.0, levels are an enum, a result has a
	// message.
	s := sarifValidator(t)
	var buf bytes.Buffer
	if err := WriteSARIF(&buf, failRun(), Options{}); err != nil {
		t.Fatal(err)
	}
	for _, broken := range []struct{ from, to string }{
		{`"startLine": 27`, `"startLine": 0`},
		{`"version": "2.1.0"`, `"version": "2.0.0"`},
		{`"level": "error"`, `"level": "fatal"`},
		{`"message": {`, `"note": {`},
	} {
		doc, err := jsonschema.UnmarshalJSON(strings.NewReader(strings.Replace(buf.String(), broken.from, broken.to, 1)))
		if err != nil {
			t.Fatal(err)
		}
		if s.Validate(doc) == nil {
			t.Errorf("%s → %s still validates", broken.from, broken.to)
		}
	}
}

func TestSARIFResults(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteSARIF(&buf, failRun(), Options{}); err != nil {
		t.Fatal(err)
	}
	var log sarifLog
	if err := json.Unmarshal(buf.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	run := log.Runs[0]
	if run.Tool.Driver.Name != "greenlight" || len(run.Tool.Driver.Rules) != 2 {
		t.Fatalf("driver %q with %d rules, want greenlight with test-assertion and lint", run.Tool.Driver.Name, len(run.Tool.Driver.Rules))
	}
	levels := map[string]string{}
	for _, r := range run.Results {
		loc := r.Locations[0].PhysicalLocation
		levels[loc.ArtifactLocation.URI] = r.Level
		if run.Tool.Driver.Rules[r.RuleIndex].ID != r.RuleID {
			t.Errorf("result %s: ruleIndex %d names rule %s", r.RuleID, r.RuleIndex, run.Tool.Driver.Rules[r.RuleIndex].ID)
		}
	}
	want := map[string]string{
		"cart/cart_test.go": "error", "cart/parse_test.go": "error", "tools/tests/test_prices.py": "error",
		"cart/cart.go": "warning", "api/serve_test.go": "warning",
	}
	for uri, lvl := range want {
		if levels[uri] != lvl {
			t.Errorf("%s: level %q, want %q", uri, levels[uri], lvl)
		}
	}
}

func TestFileURI(t *testing.T) {
	for in, want := range map[string]string{
		"cart/cart_test.go":       "cart/cart_test.go",
		"./web/src/app.test.ts":   "web/src/app.test.ts",
		"dir with space/a#b%c.py": "dir%20with%20space/a%23b%25c.py",
		"c:/x.go":                 "./c:/x.go",
		"/usr/lib/go/src/fmt.go":  "file:///usr/lib/go/src/fmt.go",
		`win\path\x_test.go`:      "win/path/x_test.go",
	} {
		if got := fileURI(in); got != want {
			t.Errorf("fileURI(%q) = %q, want %q", in, got, want)
		}
	}
}

// hostileRun has sandbox text that tries every format's escaping: markup,
// escape sequences, control characters, CDATA ends, workflow-command
// separators, backticks and a path with spaces.
func hostileRun() *glv1.Run {
	const msg = "want 100%, got 50%: off\r\nby \x1b[31m50,0\x1b[0m ]]> <b>@here</b> ``` | \x00\x07 \u202e::error::pwned"
	s := step("py test", glv1.Phase_PHASE_TEST, "pytest 'a b'", glv1.StepStatus_STEP_STATUS_FAILED, 1, 0, 10)
	s.Tail = msg
	return &glv1.Run{
		Id: "r_hostile", Error: "",
		Result: &glv1.Result{
			Status: glv1.Verdict_VERDICT_FAIL, RunId: "r_hostile", Summary: "FAIL: # py test <script>",
			Steps: []*glv1.StepResult{s},
			Tests: []*glv1.TestCase{{Id: "t/test a.py::test_`x`[1,2]", Suite: "t.test a", Name: "test_`x`[1,2]",
				Status: glv1.TestStatus_TEST_STATUS_FAILED, Message: msg, File: "t/test a,b:c.py", Line: 3, Step: "py test"}},
			Failures: []*glv1.Failure{{File: "t/test a,b:c.py", Line: 3, Kind: glv1.FailureKind_FAILURE_KIND_TEST_ASSERTION,
				Test: "t/test a.py::test_`x`[1,2]", Message: msg, Evidence: evidence(s, 0)}},
		},
	}
}
