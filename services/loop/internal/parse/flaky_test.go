package parse

import (
	"strings"
	"testing"

	"github.com/greenlight-dev/greenlight/pkg/pylaunch"
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
		{"pytest/fail", "CASE=fail python3 -m pytest -rA 'tests/test_calc.py::test_mean' 'tests/test_calc.py::test_add_wrong'"},
		{"cargo/fail", "cargo test -- --exact 'tests::adds_wrong' 'tests::indexes'"},
		{"maven/fail", "mvn -B -o test '-Dtest=CalcTest#addsWrong,CalcTest#divides'"},
		{"go-text/fail", "go test -count=1 -run '^(TestMode)$' example.com/svc/calc"},
		{"unittest/fail-verbose", "CASE=fail /usr/bin/python3 -m unittest -v 'tests.test_calc.CalcTest.test_add_wrong' 'tests.test_calc.CalcTest.test_mean' 'tests.test_calc.CalcTest.test_signs'"},
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

// The re-run keeps the interpreter and wrapper the step used: Debian has
// no `python`, and a venv's packages are only in the venv's python.
func TestRerunRunnerKeepsTheInterpreter(t *testing.T) {
	for _, tc := range []struct{ command, want string }{
		{".venv/bin/python -m pytest -rA --junitxml=/tmp/r.xml", ".venv/bin/python -m pytest"},
		{"poetry run python -m pytest -rA", "poetry run python -m pytest"},
		{"pipenv run python -m pytest", "pipenv run python -m pytest"},
		{"python3 -m pytest -rA tests", "python3 -m pytest"},
		{"python -m pytest", "python -m pytest"},
		{"pytest -x tests", "pytest"},
		{"uv run pytest -q", "uv run pytest"},
		{"cd sub && .venv/bin/pytest -q", ".venv/bin/pytest"},
		{"FOO=1 python3.11 -m pytest -rA", "FOO=1 python3.11 -m pytest"},
		{"./check.sh", pylaunch.Tool("python3", "pytest")},
		// greenlight's launcher, with the src layout's path.
		{pylaunch.Tool(".venv/bin/python", "pytest", "src") + " -rA --junitxml=/tmp/r.xml", pylaunch.Tool(".venv/bin/python", "pytest", "src")},
		{"cd sub && " + pylaunch.Tool("poetry run python", "pytest") + " -rA", pylaunch.Tool("poetry run python", "pytest")},
	} {
		if got := pytestRunner(tc.command); got != tc.want {
			t.Errorf("pytestRunner(%q) = %q, want %q", tc.command, got, tc.want)
		}
	}
	for _, tc := range []struct{ command, want string }{
		{".venv/bin/python -m unittest discover -v", ".venv/bin/python -m unittest"},
		{"python -m unittest -v", "python -m unittest"},
		{"python3 -m unittest", "python3 -m unittest"},
		{"make test", pylaunch.Tool("python3", "unittest")},
		{pylaunch.Tool(".venv/bin/python", "unittest") + " discover -v -s tests", pylaunch.Tool(".venv/bin/python", "unittest")},
	} {
		if got := unittestRunner(tc.command); got != tc.want {
			t.Errorf("unittestRunner(%q) = %q, want %q", tc.command, got, tc.want)
		}
	}
}
