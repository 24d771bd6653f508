package main

import (
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestVerifyFormatsForCI runs verify as a CI job would, on the failing
// example: --format junit must name the failing test with its file and
// line, --format github must annotate it and write the job summary.
func TestVerifyFormatsForCI(t *testing.T) {
	requireDocker(t)
	u := newUser(t)
	// The examples, outside any repository: their paths stay as they are
	// (inside this repository they would be rooted at examples/fail/, see
	// TestMonorepoSubdirPathsAreRepositoryRooted).
	examples := func(name string) string {
		dir := filepath.Join(t.TempDir(), name)
		copyDir(t, examples(name), dir) // the package-level examples: this one is declared after
		return dir
	}

	junit := u.run(nil, "verify", "-q", "--format", "junit", examples("fail"))
	junit.wantExit(t, 1, "verify --format junit examples/fail")
	var doc struct {
		Failures int `xml:"failures,attr"`
		Suites   []struct {
			Name  string `xml:"name,attr"`
			Cases []struct {
				Name    string `xml:"name,attr"`
				File    string `xml:"file,attr"`
				Line    int    `xml:"line,attr"`
				Failure *struct {
					Message string `xml:"message,attr"`
					Body    string `xml:",chardata"`
				} `xml:"failure"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal([]byte(junit.stdout), &doc); err != nil {
		t.Fatalf("stdout is not JUnit XML: %v\n%s", err, junit.stdout)
	}
	found := false
	for _, s := range doc.Suites {
		for _, c := range s.Cases {
			if c.Name == "test_feels" && c.Failure != nil && c.File == "tests/test_temperature.py" && c.Line == 17 &&
				strings.Contains(c.Failure.Message, "tests/test_temperature.py:17") && strings.Contains(c.Failure.Body, "assert 'mild' == 'hot'") {
				found = true
			}
		}
	}
	if !found || doc.Failures != 1 {
		t.Errorf("JUnit lacks the failing test_feels at tests/test_temperature.py:17 (failures=%d):\n%s", doc.Failures, junit.stdout)
	}

	summary := filepath.Join(t.TempDir(), "step-summary.md")
	u.env = append(u.env, "GITHUB_STEP_SUMMARY="+summary)
	gh := u.run(nil, "verify", "-q", "--format", "github", examples("fail"))
	gh.wantExit(t, 1, "verify --format github examples/fail")
	annotation := regexp.MustCompile(`(?m)^::error file=tests/test_temperature\.py,line=17,title=greenlight%3A tests/test_temperature\.py%3A%3Atest_feels::AssertionError: assert 'mild' == 'hot'`)
	if !annotation.MatchString(gh.stdout) || !strings.Contains(gh.stdout, "::notice title=greenlight FAIL::") {
		t.Errorf("github annotations lack the failing test or the verdict:\n%s", gh.stdout)
	}
	b, err := os.ReadFile(summary)
	if err != nil || !strings.Contains(string(b), "## ❌ greenlight FAIL") || !strings.Contains(string(b), "`tests/test_temperature.py:17`") {
		t.Errorf("job summary: %v\n%s", err, b)
	}

	// show --format renders a stored run the same way, with the same exit
	// code (1: the run failed).
	id := runIDPattern.FindString(gh.stdout)
	ctrf := u.run(nil, "show", "--format", "ctrf", id)
	ctrf.wantExit(t, 1, "show --format ctrf "+id)
	var report struct {
		Results struct {
			Tests []struct{ Name, Status, FilePath string } `json:"tests"`
			Extra struct{ Verdict string }                  `json:"extra"`
		} `json:"results"`
	}
	if err := json.Unmarshal([]byte(ctrf.stdout), &report); err != nil || report.Results.Extra.Verdict != "FAIL" ||
		!strings.Contains(ctrf.stdout, `"name": "tests/test_temperature.py::test_feels",
        "status": "failed"`) {
		t.Errorf("show --format ctrf: %v\n%s", err, ctrf.stdout)
	}

	// --output writes the report to a file and keeps the human summary on stdout.
	out := filepath.Join(t.TempDir(), "greenlight.sarif")
	sarif := u.run(nil, "verify", "-q", "--format", "sarif", "--output", out, examples("pass"))
	sarif.wantExit(t, 0, "verify --format sarif --output FILE examples/pass")
	if b, err := os.ReadFile(out); err != nil || !strings.Contains(string(b), `"version": "2.1.0"`) || !strings.Contains(sarif.stdout, " PASS ") {
		t.Errorf("sarif file: %v\n%s\nstdout:\n%s", err, b, sarif.stdout)
	}
}
