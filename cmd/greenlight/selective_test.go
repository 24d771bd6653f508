package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// verify --test and --step against the embedded stack and a real engine,
// on the example whose test_feels fails: the other test alone PASSes and
// says partial (banner and JSON), test_feels alone FAILs, an id that
// matches nothing is an ERROR (exit 2), and a step name no step has exits
// 2 naming the steps there are.
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
