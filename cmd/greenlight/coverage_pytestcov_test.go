package main

import (
	"encoding/json"
	"testing"
)

// A project that configures pytest-cov itself runs exactly as in its CI:
// greenlight measures through the launcher, never through pytest options,
// so `-p no:pytest_cov` meets no unknown --cov, and `--cov=calc
// --cov-fail-under=50` keeps its own source (a --cov=. added beside it
// would count the never-imported scripts/tool.py and fail the threshold
// the project passes).
func TestCoverageLeavesTheProjectsPytestCovAlone(t *testing.T) {
	requireDocker(t)
	withConfig := func(addopts string, extra map[string]string) map[string]string {
		files := map[string]string{}
		for p, c := range coveragePython {
			files[p] = c
		}
		files["pyproject.toml"] += "\n[tool.pytest.ini_options]\naddopts = \"" + addopts + "\"\n"
		files["tests/test_calc.py"] = "from calc import add, div\n\n\ndef test_add():\n    assert add(1, 2) == 3\n\n\ndef test_div():\n    assert div(4, 2) == 2\n"
		for p, c := range extra {
			files[p] = c
		}
		return files
	}
	tool := "def main():\n" + "    x = 1\n    y = 2\n    z = x + y\n    print(z)\n    print(x)\n    print(y)\n    return z\n"
	for _, tc := range []struct {
		name     string
		files    map[string]string
		measured bool
	}{
		{"pytest-cov disabled by the project", withConfig("-p no:pytest_cov", nil), true},
		{"the project's own --cov and threshold", withConfig("--cov=calc --cov-fail-under=50", map[string]string{"scripts/tool.py": tool}), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := newUser(t).run(nil, "verify", "-q", "--json", writeTree(t, tc.files))
			res.wantExit(t, 0, "verify --json")
			var doc struct {
				Status   string `json:"status"`
				Coverage *struct {
					TotalLines int64 `json:"total_lines"`
				} `json:"coverage"`
			}
			if err := json.Unmarshal([]byte(res.stdout), &doc); err != nil {
				t.Fatalf("--json: %v\n%s", err, res.stdout)
			}
			if doc.Status != "PASS" {
				t.Fatalf("status %s, want PASS as in the project's CI:\n%s", doc.Status, res.stdout)
			}
			if measured := doc.Coverage != nil && doc.Coverage.TotalLines > 0; measured != tc.measured {
				t.Errorf("coverage measured = %v, want %v (the project's own pytest-cov measures for itself)", measured, tc.measured)
			}
		})
	}
}
