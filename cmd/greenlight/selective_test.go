package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// verify --test and --step against the embedded stack and a real engine,
// on the example whose test_feels fails: the other test alone PASSes and
// says partial (banner and JSON), test_feels alone FAILs, an id that
// matches nothing is an ERROR (exit 2), and a step name no step has exits
// 2 naming the steps there are; the same for go test -run on a Go module.
func TestVerifySelectiveRuns(t *testing.T) {
	requireDocker(t)
	u := newUser(t)
	dir := examples("fail")
	tests := []struct {
		name   string
		args   []string
		code   int
		stdout []string
	}{
		{"one passing test by node id", []string{"--test", "tests/test_temperature.py::test_fahrenheit"}, 0,
			[]string{" PASS (partial) ", "partial: selected tests tests/test_temperature.py::test_fahrenheit, not the whole project", "1 passed, 0 failed of 1"}},
		{"the failing test by name (pytest -k)", []string{"--test", "test_feels"}, 1,
			[]string{" FAIL (partial) ", "test_feels", "0 passed, 1 failed of 1"}},
		{"an id that matches nothing", []string{"--test", "test_nothing_like_it"}, 2,
			[]string{" ERROR (partial) ", "no test matched the selection (test_nothing_like_it)"}},
		{"an unknown step", []string{"--step", "nope"}, 2,
			[]string{" ERROR (partial) ", `name "nope"`, "the steps are: compileall, pytest"}},
		{"one step", []string{"--step", "compileall"}, 0,
			[]string{" PASS (partial) ", "partial: selected steps compileall"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := u.run(nil, append(append([]string{"verify", "-q"}, tc.args...), dir)...)
			r.wantExit(t, tc.code, "verify "+strings.Join(tc.args, " "))
			for _, want := range tc.stdout {
				if !strings.Contains(r.stdout, want) {
					t.Errorf("stdout lacks %q:\n%s", want, r.stdout)
				}
			}
		})
	}
	// Go: go test exits 0 when -run matches nothing, so a misspelt name
	// is an ERROR by rule no-selected-test, not a PASS.
	goMod := t.TempDir()
	writeGoModule(t, goMod)
	for _, tc := range []struct {
		id   string
		code int
		want string
	}{
		{"example.com/sel/calc.TestAdd", 0, "1 passed, 0 failed of 1"},
		{"TestSub", 1, "0 passed, 1 failed of 1"},
		{"TestNope", 2, "no test matched the selection (TestNope)"},
	} {
		t.Run("go "+tc.id, func(t *testing.T) {
			r := u.run(nil, "verify", "-q", "--test", tc.id, goMod)
			r.wantExit(t, tc.code, "verify --test "+tc.id)
			if !strings.Contains(r.stdout, tc.want) || !strings.Contains(r.stdout, "(partial)") {
				t.Errorf("stdout lacks %q or (partial):\n%s", tc.want, r.stdout)
			}
		})
	}
	t.Run("json", func(t *testing.T) {
		r := u.run(nil, "verify", "-q", "--json", "--test", "test_fahrenheit", dir)
		r.wantExit(t, 0, "verify --json --test")
		var res struct {
			Status  string `json:"status"`
			Partial *struct {
				Tests []string `json:"tests"`
			} `json:"partial"`
		}
		if err := json.Unmarshal([]byte(r.stdout), &res); err != nil {
			t.Fatalf("%v\n%s", err, r.stdout)
		}
		if res.Status != "PASS" || res.Partial == nil || strings.Join(res.Partial.Tests, ",") != "test_fahrenheit" {
			t.Errorf("status %s partial %+v", res.Status, res.Partial)
		}
	})
}

// writeGoModule writes a Go module whose TestAdd passes and TestSub fails.
func writeGoModule(t *testing.T, dir string) {
	t.Helper()
	files := map[string]string{
		"go.mod":            "module example.com/sel\n\ngo 1.22\n",
		"calc/calc.go":      "package calc\n\nfunc Add(a, b int) int { return a + b }\n\nfunc Sub(a, b int) int { return a + b }\n",
		"calc/calc_test.go": "package calc\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(1, 2) != 3 {\n\t\tt.Fatal(\"add\")\n\t}\n}\n\nfunc TestSub(t *testing.T) {\n\tif Sub(3, 1) != 2 {\n\t\tt.Fatal(\"sub\")\n\t}\n}\n",
	}
	writeFiles(t, dir, files)
}

// verify --test on a jest project run by `npm test`: the id as greenlight
// reports it runs that test alone (the package.json script is the runner,
// so the selector is passed through npm). jest needs the npm registry for
// its install: without network the test is skipped, saying so.
func TestVerifyTestNarrowsJest(t *testing.T) {
	requireDocker(t)
	u := newUser(t)
	dir := t.TempDir()
	for name, body := range map[string]string{
		"package.json": `{"name": "sel-js", "version": "1.0.0", "private": true, "scripts": {"test": "jest"}, "devDependencies": {"jest": "29.7.0"}}` + "\n",
		"src/sum.js":   "module.exports = { add: (a, b) => a + b, sub: (a, b) => a + b };\n",
		"src/sum.test.js": "const { add, sub } = require('./sum');\ndescribe('sum', () => {\n" +
			"  test('adds', () => { expect(add(1, 2)).toBe(3); });\n  test('subtracts', () => { expect(sub(3, 1)).toBe(2); });\n});\n",
	} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r := u.run(nil, "verify", "-q", "--json", "--test", "src/sum.test.js > sum > adds", dir)
	var res struct {
		Status string `json:"status"`
		Steps  []struct {
			Name    string `json:"name"`
			Status  string `json:"status"`
			Command string `json:"command"`
		} `json:"steps"`
		Counts struct {
			Passed, Failed, Skipped int
		} `json:"counts"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &res); err != nil {
		t.Fatalf("%v\n%s\n%s", err, r.stdout, r.stderr)
	}
	for _, s := range res.Steps {
		if s.Name == "npm-install" && s.Status != "OK" {
			t.Skipf("jest could not be installed (no npm registry here?): %s\n%s", s.Status, r.stderr)
		}
	}
	r.wantExit(t, 0, "verify --test on jest")
	if res.Status != "PASS" || res.Counts.Passed != 1 || res.Counts.Failed != 0 {
		t.Errorf("status %s counts %+v, want PASS with 1 passed (subtracts, which fails, not run)", res.Status, res.Counts)
	}
}
