package contract

import glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"

// CoverageNote is what every rendering of coverage says next to it.
const CoverageNote = "measured by the toolchain's own tool; does not change the verdict"

// Coverage is line coverage measured by the toolchain's own tool (Go's
// -coverprofile, counted in statements as `go test -cover` does;
// coverage.py through pytest-cov, in lines), per file and in total over
// the test steps that measured it. Information beside the verdict: it never
// changes PASS/FAIL.
type Coverage struct {
	CoveredLines int64   `json:"covered_lines"`
	TotalLines   int64   `json:"total_lines"`
	Percent      float64 `json:"percent"`
	// Tools are what measured it, e.g. "go test -coverprofile".
	Tools []string `json:"tools"`
	// Files are per file, by workspace path; at most 500, the rest counted in FilesOmitted.
	Files        []FileCoverage `json:"files"`
	FilesOmitted int32          `json:"files_omitted"`
	// Baseline is the unpatched code's coverage in a fix run; null otherwise.
	Baseline *CoverageBaseline `json:"baseline" jsonschema:"nullable"`
}

// FileCoverage is one file's coverage.
type FileCoverage struct {
	Path         string  `json:"path"`
	CoveredLines int64   `json:"covered_lines"`
	TotalLines   int64   `json:"total_lines"`
	Percent      float64 `json:"percent"`
	// UncoveredChange is uncovered lines now minus at the baseline (fix
	// runs): positive when a patch added code no test runs.
	UncoveredChange int64 `json:"uncovered_change"`
	// NewFile: the baseline did not measure this file.
	NewFile bool `json:"new_file"`
}

// CoverageBaseline is the baseline's total in a fix run.
type CoverageBaseline struct {
	CoveredLines int64   `json:"covered_lines"`
	TotalLines   int64   `json:"total_lines"`
	Percent      float64 `json:"percent"`
}

// coverageOf is nil when nothing was measured.
func coverageOf(c *glv1.Coverage) *Coverage {
	if c == nil {
		return nil
	}
	out := &Coverage{CoveredLines: c.GetCoveredLines(), TotalLines: c.GetTotalLines(), Percent: c.GetPercent(),
		Tools: list(c.GetTools()), FilesOmitted: c.GetFilesOmitted(),
		Files: mapList(c.GetFiles(), func(f *glv1.FileCoverage) FileCoverage {
			return FileCoverage{Path: f.GetPath(), CoveredLines: f.GetCoveredLines(), TotalLines: f.GetTotalLines(),
				Percent: f.GetPercent(), UncoveredChange: f.GetUncoveredChange(), NewFile: f.GetNewFile()}
		})}
	if b := c.GetBaseline(); b != nil {
		out.Baseline = &CoverageBaseline{CoveredLines: b.GetCoveredLines(), TotalLines: b.GetTotalLines(), Percent: b.GetPercent()}
	}
	return out
}
