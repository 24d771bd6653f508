package parse

import (
	"strings"
	"testing"
)

func TestMarkFlakyRealRerun(t *testing.T) {
	rows := readManifest(t)
	first := runGolden(t, "go-json/flaky-first", goldenCases["go-json/flaky-first"], rows["go-json/flaky-first"])
	cmd, ok := RerunCommand(rows["go-json/flaky-first"].command, first)
	if !ok {
		t.Fatal("no rerun command for go-json")
	}
	// The captured re-run was produced by exactly this command.
	if want := strings.Fields(rows["go-json/flaky-rerun"].command); !strings.HasPrefix(rows["go-json/flaky-rerun"].command, cmd) {
		t.Fatalf("rerun command %q, captured %q", cmd, want)
	}
	rerun := runGolden(t, "go-json/flaky-rerun", goldenCases["go-json/flaky-rerun"], rows["go-json/flaky-rerun"])
	ids := MarkFlaky(first, rerun)
	if len(ids) != 1 || ids[0] != "example.com/svc/calc.TestFlaky" {
		t.Fatalf("flaky = %v", ids)
	}
	if first.Counts != (Counts{Passed: 6, Skipped: 1, Flaky: 1}) {
		t.Errorf("counts after rerun = %+v", first.Counts)
	}
	if !first.PassedOnRerun {
		t.Error("every failure was flaky: PassedOnRerun should be set")
	}
	if len(first.Failures) != 1 || !first.Failures[0].Flaky {
		t.Errorf("the failure must stay recorded, marked flaky: %+v", first.Failures)
	}
	if !first.Tests[0].Flaky {
		t.Error("test record not marked flaky")
	}
}

func TestMarkFlakyKeepsRealFailures(t *testing.T) {
	rows := readManifest(t)
	// A "rerun" in which the failing test fails again is not flaky.
	first := runGolden(t, "go-json/fail", goldenCases["go-json/fail"], rows["go-json/fail"])
	again := runGolden(t, "go-json/fail", goldenCases["go-json/fail"], rows["go-json/fail"])
	if ids := MarkFlaky(first, again); len(ids) != 0 {
		t.Fatalf("flaky = %v, want none", ids)
	}
	if first.PassedOnRerun || first.Counts.Failed != 1 {
		t.Errorf("report changed: %+v passedOnRerun=%v", first.Counts, first.PassedOnRerun)
	}
}

func TestRerunCommand(t *testing.T) {
	rows := readManifest(t)
	tests := []struct {
		name string
		want string
	}{
		{"pytest/fail", "python3 -m pytest -rA 'tests/test_calc.py::test_mean' 'tests/test_calc.py::test_add_wrong'"},
		{"cargo/fail", "cargo test -- --exact 'tests::adds_wrong' 'tests::indexes'"},
		{"maven/fail", "mvn -B -o test '-Dtest=CalcTest#addsWrong,CalcTest#divides'"},
		{"go-text/fail", "go test -count=1 -run '^(TestMode)$' example.com/svc/calc"},
		{"unittest/fail-verbose", "python3 -m unittest -v 'tests.test_calc.CalcTest.test_add_wrong' 'tests.test_calc.CalcTest.test_mean' 'tests.test_calc.CalcTest.test_signs'"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rep := runGolden(t, tc.name, goldenCases[tc.name], rows[tc.name])
			got, ok := RerunCommand(rows[tc.name].command, rep)
			if !ok || got != tc.want {
				t.Errorf("RerunCommand = %q, %v; want %q", got, ok, tc.want)
			}
		})
	}
	rep := runGolden(t, "generic/fail", goldenCases["generic/fail"], rows["generic/fail"])
	if _, ok := RerunCommand("./check.sh", rep); ok {
		t.Error("generic format cannot select tests")
	}
}
