package cireport

import (
	"encoding/json"
	"fmt"
	"io"
	"time"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// ctrfSpecVersion is the CTRF specification version the report follows
// (https://ctrf.io, schema/ctrf.schema.json: "currently 0.0.0").
const ctrfSpecVersion = "0.0.0"

// The CTRF document (Common Test Report Format).
type ctrfReport struct {
	ReportFormat string      `json:"reportFormat"`
	SpecVersion  string      `json:"specVersion"`
	Timestamp    string      `json:"timestamp,omitempty"`
	GeneratedBy  string      `json:"generatedBy"`
	Results      ctrfResults `json:"results"`
}

type ctrfResults struct {
	Tool        ctrfTool         `json:"tool"`
	Summary     ctrfSummary      `json:"summary"`
	Tests       []ctrfTest       `json:"tests"`
	Environment *ctrfEnvironment `json:"environment,omitempty"`
	Extra       ctrfExtra        `json:"extra"`
}

type ctrfTool struct {
	Name    string `json:"name"`
	Version string `json:"version,omitempty"`
}

type ctrfSummary struct {
	Tests    int   `json:"tests"`
	Passed   int   `json:"passed"`
	Failed   int   `json:"failed"`
	Pending  int   `json:"pending"`
	Skipped  int   `json:"skipped"`
	Other    int   `json:"other"`
	Flaky    int   `json:"flaky,omitempty"`
	Suites   int   `json:"suites"`
	Start    int64 `json:"start"`
	Stop     int64 `json:"stop"`
	Duration int64 `json:"duration"`
}

type ctrfTest struct {
	Name      string   `json:"name"`
	Status    string   `json:"status"`
	Duration  int64    `json:"duration"`
	Message   string   `json:"message,omitempty"`
	Trace     string   `json:"trace,omitempty"`
	FilePath  string   `json:"filePath,omitempty"`
	Line      int32    `json:"line,omitempty"`
	Suite     []string `json:"suite,omitempty"`
	RawStatus string   `json:"rawStatus"`
	Type      string   `json:"type"`
	Flaky     bool     `json:"flaky,omitempty"`
}

type ctrfEnvironment struct {
	Commit string `json:"commit,omitempty"`
}

// ctrfExtra is greenlight's own verdict, which the test counts alone do
// not give (a build or a required step can fail with every test green).
type ctrfExtra struct {
	RunID        string   `json:"run_id"`
	Verdict      string   `json:"verdict"`
	Level        string   `json:"level"`
	Score        *float64 `json:"score,omitempty"`
	Summary      string   `json:"summary,omitempty"`
	TestsOmitted int32    `json:"tests_omitted,omitempty"`
}

// WriteCTRF writes run as a CTRF JSON report: every test record, and
// every step without parsed tests as a test of type "step". An advisory
// check that failed has status "other"; an erroring test or step has
// status "failed" and rawStatus "error".
func WriteCTRF(w io.Writer, run *glv1.Run, opts Options) error {
	b, err := json.MarshalIndent(ctrfDoc(run, opts), "", "  ")
	if err != nil {
		return fmt.Errorf("write ctrf: %w", err)
	}
	if _, err := w.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("write ctrf: %w", err)
	}
	return nil
}

// ctrfDoc builds the document.
func ctrfDoc(run *glv1.Run, opts Options) ctrfReport {
	res := run.GetResult()
	m := res.GetManifest()
	doc := ctrfReport{ReportFormat: "CTRF", SpecVersion: ctrfSpecVersion, GeneratedBy: "greenlight"}
	if m.GetTimestampEnd() != nil {
		doc.Timestamp = m.GetTimestampEnd().AsTime().UTC().Format(time.RFC3339)
	}
	r := &doc.Results
	r.Tool = ctrfTool{Name: "greenlight", Version: opts.Version}
	r.Tests = []ctrfTest{}
	suites := collect(run)
	for _, s := range suites {
		for _, c := range s.cases {
			t := ctrfTestOf(s, c)
			r.Tests = append(r.Tests, t)
			r.Summary.count(t)
		}
	}
	r.Summary.Suites = len(suites)
	if m.GetTimestampStart() != nil && m.GetTimestampEnd() != nil {
		r.Summary.Start = m.GetTimestampStart().AsTime().UnixMilli()
		r.Summary.Stop = m.GetTimestampEnd().AsTime().UnixMilli()
		r.Summary.Duration = r.Summary.Stop - r.Summary.Start
	}
	if sha := m.GetCommitSha(); sha != "" {
		r.Environment = &ctrfEnvironment{Commit: sha}
	}
	r.Extra = ctrfExtra{RunID: run.GetId(), Verdict: verdictWord(res.GetStatus()), Level: levelWord(res.GetLevel()),
		Summary: clean(res.GetSummary()), TestsOmitted: res.GetCounts().GetOmitted()}
	if sc := res.GetScore(); sc != nil {
		total := sc.GetTotal()
		r.Extra.Score = &total
	}
	return doc
}

// ctrfTestOf converts one case.
func ctrfTestOf(s suite, c testCase) ctrfTest {
	t := ctrfTest{
		Name: firstNonEmpty(c.id, c.name), Duration: millis(c.duration), FilePath: c.file, Line: c.line,
		Message: c.message, Trace: c.trace, Flaky: c.flaky, Type: "test",
	}
	if c.isStep {
		t.Type = "step"
	}
	t.Suite = []string{s.name}
	if c.classname != "" && c.classname != s.name && !c.isStep {
		t.Suite = append(t.Suite, c.classname)
	}
	switch c.outcome {
	case passed:
		t.Status, t.RawStatus = "passed", "passed"
	case failed:
		t.Status, t.RawStatus = "failed", "failed"
	case errored:
		t.Status, t.RawStatus = "failed", "error"
	case skipped:
		t.Status, t.RawStatus = "skipped", "skipped"
	case advisory:
		t.Status, t.RawStatus = "other", "advisory-failed"
	}
	return t
}

// count adds one test to the summary.
func (s *ctrfSummary) count(t ctrfTest) {
	s.Tests++
	switch t.Status {
	case "passed":
		s.Passed++
	case "failed":
		s.Failed++
	case "skipped":
		s.Skipped++
	default:
		s.Other++
	}
	if t.Flaky {
		s.Flaky++
	}
}
