package cireport

import (
	"bytes"
	"encoding/xml"
	"strings"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// The reader side of the round trip: what a JUnit consumer reads, declared
// apart from the writer's types so a mistake in those cannot hide here.
type readSuites struct {
	XMLName  xml.Name    `xml:"testsuites"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Skipped  int         `xml:"skipped,attr"`
	Suites   []readSuite `xml:"testsuite"`
}

type readSuite struct {
	Name       string `xml:"name,attr"`
	Tests      int    `xml:"tests,attr"`
	Failures   int    `xml:"failures,attr"`
	Errors     int    `xml:"errors,attr"`
	Skipped    int    `xml:"skipped,attr"`
	Properties []struct {
		Name  string `xml:"name,attr"`
		Value string `xml:"value,attr"`
	} `xml:"properties>property"`
	Cases []readCase `xml:"testcase"`
}

type readCase struct {
	Name      string `xml:"name,attr"`
	Classname string `xml:"classname,attr"`
	Time      string `xml:"time,attr"`
	File      string `xml:"file,attr"`
	Line      int    `xml:"line,attr"`
	Failure   *struct {
		Message string `xml:"message,attr"`
		Type    string `xml:"type,attr"`
		Body    string `xml:",chardata"`
	} `xml:"failure"`
	Error *struct {
		Message string `xml:"message,attr"`
		Body    string `xml:",chardata"`
	} `xml:"error"`
	Skipped *struct {
		Message string `xml:"message,attr"`
	} `xml:"skipped"`
	SystemOut string `xml:"system-out"`
}

// readJUnit writes run as JUnit and parses it back.
func readJUnit(t *testing.T, run *glv1.Run) readSuites {
	t.Helper()
	var buf bytes.Buffer
	if err := WriteJUnit(&buf, run); err != nil {
		t.Fatal(err)
	}
	var doc readSuites
	if err := xml.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatalf("JUnit does not parse: %v\n%s", err, buf.String())
	}
	return doc
}

// find returns the case named name in suite, or fails.
func find(t *testing.T, doc readSuites, suite, name string) readCase {
	t.Helper()
	for _, s := range doc.Suites {
		for _, c := range s.Cases {
			if s.Name == suite && c.Name == name {
				return c
			}
		}
	}
	t.Fatalf("no testcase %s in suite %s", name, suite)
	return readCase{}
}

func TestJUnitRoundTrip(t *testing.T) {
	doc := readJUnit(t, failRun())
	// The counts add up, suite by suite and in total.
	var tests, failures, errors, skipped int
	for _, s := range doc.Suites {
		var f, e, sk int
		for _, c := range s.Cases {
			switch {
			case c.Failure != nil:
				f++
			case c.Error != nil:
				e++
			case c.Skipped != nil:
				sk++
			}
		}
		if s.Tests != len(s.Cases) || s.Failures != f || s.Errors != e || s.Skipped != sk {
			t.Errorf("suite %s says tests=%d failures=%d errors=%d skipped=%d, has %d/%d/%d/%d", s.Name, s.Tests, s.Failures, s.Errors, s.Skipped, len(s.Cases), f, e, sk)
		}
		tests, failures, errors, skipped = tests+s.Tests, failures+s.Failures, errors+s.Errors, skipped+s.Skipped
	}
	if doc.Tests != tests || doc.Failures != failures || doc.Errors != errors || doc.Skipped != skipped || failures != 3 {
		t.Errorf("testsuites %d/%d/%d/%d, suites add up to %d/%d/%d/%d (want 3 failures)", doc.Tests, doc.Failures, doc.Errors, doc.Skipped, tests, failures, errors, skipped)
	}

	total := find(t, doc, "go-test", "TestTotal")
	if total.Classname != "example.com/shop/cart" || total.File != "cart/cart_test.go" || total.Line != 27 || total.Failure == nil ||
		total.Failure.Type != "TEST_ASSERTION" || !strings.Contains(total.Failure.Message, "Total() = 90, want 100 (discount 10%, coupon: none)") {
		t.Errorf("TestTotal: %+v", total)
	}
	py := find(t, doc, "pytest", "test_rounding")
	if py.Failure == nil || !strings.HasPrefix(py.Failure.Message, "tools/tests/test_prices.py:14: AssertionError") ||
		!strings.Contains(py.Failure.Body, "+  where 10.01 = round_price(10.005)\n") || !strings.Contains(py.Failure.Body, "at round_price (tools/prices.py:8)") {
		t.Errorf("test_rounding: %+v", py.Failure)
	}
	if c := find(t, doc, "pytest", "test_remote"); c.Skipped == nil || c.Skipped.Message != "needs network" {
		t.Errorf("test_remote is not skipped: %+v", c)
	}
	if c := find(t, doc, "go-test", "TestServe"); c.Failure != nil || !strings.Contains(c.SystemOut, "flaky") {
		t.Errorf("the flaky test must pass and say it was flaky: %+v", c)
	}
	// Steps without tests stand for themselves; an advisory failure is
	// not a failed testcase.
	if c := find(t, doc, "greenlight", "go-build"); c.Failure != nil || c.Error != nil || c.Skipped != nil {
		t.Errorf("go-build passed: %+v", c)
	}
	if c := find(t, doc, "greenlight", "go-vet"); c.Skipped == nil || !strings.Contains(c.Skipped.Message, "advisory") || !strings.Contains(c.SystemOut, "cart/cart.go:41") {
		t.Errorf("go-vet (advisory, failed): %+v", c)
	}
	if c := find(t, doc, "greenlight", "ruff"); c.Skipped == nil || !strings.Contains(c.Skipped.Message, "not in the image") {
		t.Errorf("ruff (skipped): %+v", c)
	}
	props := map[string]string{}
	for _, p := range doc.Suites[0].Properties {
		props[p.Name] = p.Value
	}
	if props["greenlight.verdict"] != "FAIL" || props["greenlight.run_id"] != "r_20260102T030405_failfix" || props["greenlight.level"] != "L3" {
		t.Errorf("run properties: %v", props)
	}
}

func TestJUnitFailingBuildAndErrorShow(t *testing.T) {
	doc := readJUnit(t, errorRun())
	if c := find(t, doc, "greenlight", "npm-ci"); c.Error == nil || !strings.Contains(c.Error.Message, "package registry could not be reached") {
		t.Errorf("the install step that could not run must be an error: %+v", c)
	}
	// A FAIL that no test record shows (a compile error) fails a testcase.
	run := passRun()
	run.Result.Status = glv1.Verdict_VERDICT_FAIL
	build := run.Result.Steps[0]
	build.Status, build.ExitCode = glv1.StepStatus_STEP_STATUS_FAILED, 1
	run.Result.Failures = []*glv1.Failure{{File: "temperature/__init__.py", Line: 3, Kind: glv1.FailureKind_FAILURE_KIND_COMPILE,
		Message: "SyntaxError: invalid syntax", Evidence: evidence(build, 0)}}
	doc = readJUnit(t, run)
	c := find(t, doc, "greenlight", "compileall")
	if c.Failure == nil || c.File != "temperature/__init__.py" || c.Line != 3 || !strings.Contains(c.Failure.Body, "temperature/__init__.py:3: COMPILE: SyntaxError") {
		t.Errorf("failed build: %+v", c)
	}
	// A run that ended in ERROR before any step still fails in JUnit.
	doc = readJUnit(t, &glv1.Run{Id: "r_x", Error: "the executor is not reachable"})
	if doc.Errors != 1 || find(t, doc, "greenlight", "verdict").Error.Message != "the executor is not reachable" {
		t.Errorf("an ERROR without steps: %+v", doc)
	}
}

func TestJUnitHostileTextStaysWellFormed(t *testing.T) {
	doc := readJUnit(t, hostileRun())
	c := find(t, doc, "py test", "test_`x`[1,2]")
	if c.Failure == nil {
		t.Fatalf("no failure: %+v", c)
	}
	for _, bad := range []string{"\x1b", "\x00", "\x07", "\u202e"} {
		if strings.Contains(c.Failure.Body+c.Failure.Message, bad) {
			t.Errorf("%q reached the XML", bad)
		}
	}
	if !strings.Contains(c.Failure.Body, "]]> <b>@here</b>") || !strings.Contains(c.Failure.Body, "by 50,0") {
		t.Errorf("the message did not survive: %q", c.Failure.Body)
	}
}
