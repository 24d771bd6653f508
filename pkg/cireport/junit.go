package cireport

import (
	"encoding/xml"
	"fmt"
	"io"
	"path"
	"strconv"
	"strings"
	"time"

	"google.golang.org/protobuf/types/known/timestamppb"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// The JUnit document follows the schema Jenkins' JUnit plugin and GitLab
// read (the de-facto one, junit-10.xsd): testsuites > testsuite >
// testcase with failure, error and skipped; plus pytest's file and line
// attributes on testcase, which GitLab and most reporters show.
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Skipped  int          `xml:"skipped,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name       string          `xml:"name,attr"`
	Tests      int             `xml:"tests,attr"`
	Failures   int             `xml:"failures,attr"`
	Errors     int             `xml:"errors,attr"`
	Skipped    int             `xml:"skipped,attr"`
	Time       string          `xml:"time,attr"`
	Timestamp  string          `xml:"timestamp,attr,omitempty"`
	Properties []junitProperty `xml:"properties>property,omitempty"`
	Cases      []junitCase     `xml:"testcase"`
}

type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitCase struct {
	Name      string       `xml:"name,attr"`
	Classname string       `xml:"classname,attr"`
	Time      string       `xml:"time,attr"`
	File      string       `xml:"file,attr,omitempty"`
	Line      int32        `xml:"line,attr,omitempty"`
	Skipped   *junitSkip   `xml:"skipped,omitempty"`
	Error     *junitResult `xml:"error,omitempty"`
	Failure   *junitResult `xml:"failure,omitempty"`
	SystemOut *junitText   `xml:"system-out,omitempty"`
}

type junitResult struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Body    string `xml:",cdata"`
}

// junitText is element text kept as written: CDATA keeps a message's
// line breaks (character data would turn each into &#xA;).
type junitText struct {
	Text string `xml:",cdata"`
}

type junitSkip struct {
	Message string `xml:"message,attr,omitempty"`
}

// WriteJUnit writes run as JUnit XML: one testsuite per step with parsed
// tests, and a "greenlight" testsuite whose testcases are the steps
// without tests (install, build, lint), so a failed build is a failed
// testcase too. An advisory check that failed is a skipped testcase whose
// message says so: it does not decide the verdict.
func WriteJUnit(w io.Writer, run *glv1.Run) error {
	doc := junitDoc(run)
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return fmt.Errorf("write junit: %w", err)
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return fmt.Errorf("write junit: %w", err)
	}
	if _, err := io.WriteString(w, "\n"); err != nil {
		return fmt.Errorf("write junit: %w", err)
	}
	return nil
}

// junitDoc builds the document.
func junitDoc(run *glv1.Run) junitSuites {
	res := run.GetResult()
	doc := junitSuites{Name: "greenlight " + run.GetId(), Time: runSeconds(res)}
	for i, s := range collect(run) {
		js := junitSuiteOf(s, res)
		if i == 0 {
			js.Properties = append(runProperties(run), js.Properties...)
		}
		doc.Tests += js.Tests
		doc.Failures += js.Failures
		doc.Errors += js.Errors
		doc.Skipped += js.Skipped
		doc.Suites = append(doc.Suites, js)
	}
	return doc
}

// junitSuiteOf converts one suite.
func junitSuiteOf(s suite, res *glv1.Result) junitSuite {
	js := junitSuite{Name: s.name, Time: "0.000"}
	started := res.GetManifest().GetTimestampStart()
	if s.step != nil {
		js.Time = seconds(s.step.GetDuration())
		started = s.step.GetStartedAt()
		js.Properties = stepProperties(s.step)
	} else {
		var total time.Duration
		for _, c := range s.cases {
			total += c.duration.AsDuration()
		}
		js.Time = fmt.Sprintf("%.3f", total.Seconds())
	}
	js.Timestamp = junitTime(started)
	for _, c := range s.cases {
		jc := junitCaseOf(c)
		js.Tests++
		switch {
		case jc.Failure != nil:
			js.Failures++
		case jc.Error != nil:
			js.Errors++
		case jc.Skipped != nil:
			js.Skipped++
		}
		js.Cases = append(js.Cases, jc)
	}
	return js
}

// junitCaseOf converts one case.
func junitCaseOf(c testCase) junitCase {
	jc := junitCase{Name: c.name, Classname: c.classname, Time: seconds(c.duration), File: c.file, Line: c.line}
	body := c.message
	if c.trace != "" {
		body += "\n\n" + c.trace
	}
	switch c.outcome {
	case failed:
		jc.Failure = &junitResult{Message: junitMessage(c), Type: c.kind, Body: body}
	case errored:
		jc.Error = &junitResult{Message: junitMessage(c), Type: c.kind, Body: body}
	case skipped:
		jc.Skipped = &junitSkip{Message: firstLine(c.message)}
	case advisory:
		msg := junitMessage(c)
		if !c.isStep { // a step's message says it is advisory
			msg = "advisory, it does not decide the verdict: " + msg
		}
		jc.Skipped = &junitSkip{Message: msg}
		jc.SystemOut = &junitText{body}
	case passed:
		if c.flaky {
			// The trace says it was flaky.
			jc.SystemOut = &junitText{body}
		}
	}
	return jc
}

// junitMessage is the message attribute: file:line and the first line.
func junitMessage(c testCase) string {
	m := firstLine(c.message)
	loc := location(c.file, c.line)
	// Go's messages start with the file's base name and line already.
	if loc == "" || c.isStep || strings.HasPrefix(m, location(path.Base(c.file), c.line)) {
		return m
	}
	return loc + ": " + m
}

// runProperties describe the run on the first testsuite (testsuites has
// no properties in the schema).
func runProperties(run *glv1.Run) []junitProperty {
	res := run.GetResult()
	ps := []junitProperty{
		{"greenlight.run_id", run.GetId()},
		{"greenlight.verdict", verdictWord(res.GetStatus())},
		{"greenlight.level", levelWord(res.GetLevel())},
	}
	if sc := res.GetScore(); sc != nil {
		ps = append(ps, junitProperty{"greenlight.score", strconv.FormatFloat(sc.GetTotal(), 'f', 2, 64)})
	}
	if s := res.GetSummary(); s != "" {
		ps = append(ps, junitProperty{"greenlight.summary", clean(s)})
	}
	return ps
}

// stepProperties describe the step a suite of tests came from.
func stepProperties(s *glv1.StepResult) []junitProperty {
	ps := []junitProperty{
		{"greenlight.command", clean(command(s))},
		{"greenlight.status", statusWord(s.GetStatus())},
		{"greenlight.exit_code", strconv.Itoa(int(s.GetExitCode()))},
	}
	if n := s.GetCounts().GetOmitted(); n > 0 {
		ps = append(ps, junitProperty{"greenlight.tests_omitted", strconv.Itoa(int(n))})
	}
	if s.GetCounts().GetIncomplete() {
		ps = append(ps, junitProperty{"greenlight.counts_incomplete", clean(s.GetCounts().GetIncompleteReason())})
	}
	return ps
}

// junitTime is the schema's timestamp: ISO 8601 without a zone, in UTC.
func junitTime(ts *timestamppb.Timestamp) string {
	if ts == nil {
		return ""
	}
	return ts.AsTime().UTC().Format("2006-01-02T15:04:05")
}

// runSeconds is the run's wall time.
func runSeconds(res *glv1.Result) string {
	m := res.GetManifest()
	if m.GetTimestampStart() == nil || m.GetTimestampEnd() == nil {
		return "0.000"
	}
	return fmt.Sprintf("%.3f", m.GetTimestampEnd().AsTime().Sub(m.GetTimestampStart().AsTime()).Seconds())
}
