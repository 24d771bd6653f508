package parse

import (
	"testing"

	"github.com/greenlight-dev/greenlight/pkg/pylaunch"
)

func TestSelectCommand(t *testing.T) {
	pytest := pylaunch.Tool("python3", "pytest") + " -rA --junitxml=.greenlight/reports/pytest.xml"
	tests := []struct {
		name    string
		command string
		script  string
		ids     []string
		want    string
		ok      bool
	}{
		{"go id with its package", "go test -json ./... 2>&1 | tee r.json", "", []string{"example.com/svc/calc.TestAdd"},
			"go test -json -count=1 -run '^(TestAdd)$' example.com/svc/calc", true},
		{"go bare name runs in every package", "go test ./...", "", []string{"TestAdd", "TestMode/sub"},
			"go test -count=1 -run '^(TestAdd|TestMode)$' ./...", true},
		{"pytest node id and -k name", pytest, "", []string{"tests/test_calc.py::test_mean", "test_add"},
			pylaunch.Tool("python3", "pytest") + " -rA 'tests/test_calc.py::test_mean' -k 'test_add'", true},
		{"pytest names only", "python3 -m pytest -q", "", []string{"test_a", "test_b"},
			"python3 -m pytest -rA -k 'test_a or test_b'", true},
		{"unittest", "python3 -m unittest discover -v", "", []string{"tests.test_calc.CalcTest.test_add"},
			"python3 -m unittest -v 'tests.test_calc.CalcTest.test_add'", true},
		{"maven ids as reported, by #, and a class", "mvn -B -o verify", "", []string{"com.x.CalcTest.adds", "ParserTest#parses", "com.x.IOTest"},
			"mvn -B -o test '-Dtest=CalcTest#adds,ParserTest#parses,IOTest'", true},
		{"cargo through its pack", "cargo test --workspace", "", []string{"tests::adds"},
			"cargo test -- --exact 'tests::adds'", true},
		{"jest full id", "npx jest --ci", "", []string{"src/sum.test.js > sum > adds"},
			`npx jest --ci 'src/sum.test.js' -t '^sum adds$'`, true},
		{"npm test whose script is vitest", "npm test", "vitest run", []string{"adds", "src/a.test.ts > b"},
			`npm test -- 'src/a.test.ts' -t 'adds|^b$'`, true},
		{"pnpm test whose script is jest", "pnpm test", "jest", []string{"adds"}, `pnpm test -t 'adds'`, true},
		{"npm test whose script runs more than the runner", "npm test", "jest && eslint .", []string{"adds"}, "", false},
		{"npm test of an unknown runner", "npm test", "node --test", []string{"adds"}, "", false},
		{"a script greenlight cannot narrow", "./check.sh", "", []string{"adds"}, "", false},
		{"an id unsafe in a shell word", "go test ./...", "", []string{"TestA$(reboot)"}, "", false},
		{"no ids", "go test ./...", "", nil, "", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := SelectCommand(tc.command, tc.script, tc.ids)
			if ok != tc.ok || got != tc.want {
				t.Errorf("SelectCommand(%q, %q, %q) = %q, %v; want %q, %v", tc.command, tc.script, tc.ids, got, ok, tc.want, tc.ok)
			}
		})
	}
}
