package cireport

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// coverageFixture is the coverage of a fix run's final verification whose patch
// added an untested file (the numbers of testdata in
// services/loop/internal/coverage: coverage.py on a small project).
func coverageFixture(baseline bool) *glv1.Coverage {
	c := &glv1.Coverage{CoveredLines: 3, TotalLines: 8, Percent: 37.5, Tools: []string{"coverage.py (pytest-cov)"},
		Files: []*glv1.FileCoverage{
			{Path: "calc/__init__.py", CoveredLines: 3, TotalLines: 6, Percent: 50},
			{Path: "calc/new|`x`.py", CoveredLines: 0, TotalLines: 2, Percent: 0},
		}}
	if baseline {
		c.Baseline = &glv1.CoverageBaseline{CoveredLines: 3, TotalLines: 6, Percent: 50}
		c.Files[1].UncoveredChange, c.Files[1].NewFile = 2, true
	}
	return c
}

// TestMarkdownCoverage: the section gives the total, the tool, the note
// that it does not change the verdict, the files (a patch's new uncovered
// lines first) with escaped names; the verdict line stays the run's.
func TestMarkdownCoverage(t *testing.T) {
	tests := []struct {
		name     string
		coverage *glv1.Coverage
		want     []string
		notWant  []string
	}{
		{"not measured", nil, []string{"## ❌ greenlight FAIL"}, []string{"### Coverage"}},
		{"measured", coverageFixture(false),
			[]string{"## ❌ greenlight FAIL", "### Coverage: 37.5% (3 of 8)", "By `coverage.py (pytest-cov)` (measured by the toolchain's own tool; does not change the verdict).",
				"| File | Covered | % |\n", "| ``calc/new\\|`x`.py`` | 0/2 | 0.0 |"},
			[]string{"baseline", "New uncovered"}},
		{"fix run against its baseline", coverageFixture(true),
			[]string{"### Coverage: 37.5% (3 of 8), baseline 50.0% (-12.5 points)", "| File | Covered | % | New uncovered |",
				"0/2 | 0.0 | +2 (new file) |\n| `calc/__init__.py` | 3/6 | 50.0 | +0 |"},
			nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			run := failRun()
			run.Result.Coverage = tc.coverage
			md := markdown(t, run)
			for _, w := range tc.want {
				if !strings.Contains(md, w) {
					t.Errorf("markdown lacks %q:\n%s", w, md)
				}
			}
			for _, w := range tc.notWant {
				if strings.Contains(md, w) {
					t.Errorf("markdown has %q:\n%s", w, md)
				}
			}
		})
	}
}

// TestSARIFCoverage: the totals are run properties, and the log still
// validates.
func TestSARIFCoverage(t *testing.T) {
	s := sarifValidator(t)
	tests := []struct {
		name     string
		coverage *glv1.Coverage
		want     map[string]any
	}{
		{"not measured", nil, nil},
		{"measured", coverageFixture(false), map[string]any{"percent": 37.5, "coveredLines": 3.0, "totalLines": 8.0}},
		{"with baseline", coverageFixture(true), map[string]any{"percent": 37.5, "baselinePercent": 50.0}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			run := failRun()
			run.Result.Coverage = tc.coverage
			var buf bytes.Buffer
			if err := WriteSARIF(&buf, run, Options{Version: "dev"}); err != nil {
				t.Fatal(err)
			}
			doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(buf.Bytes()))
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Validate(doc); err != nil {
				t.Fatalf("SARIF does not validate: %v", err)
			}
			var log struct {
				Runs []struct {
					Properties map[string]any `json:"properties"`
				} `json:"runs"`
			}
			if err := json.Unmarshal(buf.Bytes(), &log); err != nil {
				t.Fatal(err)
			}
			got, has := log.Runs[0].Properties["coverage"].(map[string]any)
			if tc.want == nil {
				if has {
					t.Fatalf("coverage property without coverage: %v", got)
				}
				return
			}
			for k, v := range tc.want {
				if got[k] != v {
					t.Errorf("coverage.%s = %v, want %v", k, got[k], v)
				}
			}
		})
	}
}
