package parse

import (
	"testing"
)

// Several runner invocations in one step (src/multirun; see
// testdata/golden/README.md): `npm run test:unit && npm run test:e2e`
// prints two summaries, and the step ran both suites. A run of files an
// earlier run already ran is a re-run (`jest || jest --onlyFailures`), not
// more tests: it replaces their outcome.
var multirunGoldenCases = map[string]goldenCase{
	// jest: two projects, one run each (`jest --selectProjects unit &&
	// jest --selectProjects e2e`); the displayName before each file path
	// is no file.
	"multirun/jest-pass": {src: "multirun", phase: tTest, format: FormatJestText, counts: Counts{Passed: 4, Skipped: 1}},
	"multirun/jest-fail": {src: "multirun", phase: tTest, format: FormatJestText, counts: Counts{Passed: 3, Failed: 1, Skipped: 1},
		failures: []wantFailure{{"TEST_ASSERTION", "web/jest/e2e/checkout.test.js", 6, "web/jest/e2e/checkout.test.js > checkout > totals the cart", "Received: 9"}}},
	// jest.retryTimes prints the failed attempt's error, then one summary.
	"multirun/jest-retry": {src: "multirun", phase: tTest, format: FormatJestText, counts: Counts{Passed: 2}},
	// A test failing once, then the command again: its second outcome
	// stands, whether the re-run ran every file or only the failed one.
	"multirun/jest-rerun":      {src: "multirun", phase: tTest, format: FormatJestText, counts: Counts{Passed: 4, Skipped: 1}},
	"multirun/jest-rerun-same": {src: "multirun", phase: tTest, format: FormatJestText, counts: Counts{Passed: 4, Skipped: 1}},
	"multirun/vitest-rerun":    {src: "multirun", phase: tTest, format: FormatVitestText, counts: Counts{Passed: 4, Skipped: 1}},
	// vitest with --root: its paths start at the root its banner names.
	"multirun/vitest-pass": {src: "multirun", phase: tTest, format: FormatVitestText, counts: Counts{Passed: 4, Skipped: 1}},
	"multirun/vitest-fail": {src: "multirun", phase: tTest, format: FormatVitestText, counts: Counts{Passed: 3, Failed: 1, Skipped: 1},
		failures: []wantFailure{{"TEST_ASSERTION", "web/vitest/e2e/checkout.test.js", 7, "web/vitest/e2e/checkout.test.js > checkout > totals the cart", "expected 9 to be 10"}}},
	"multirun/mocha-pass": {src: "multirun", phase: tTest, format: FormatMocha, counts: Counts{Passed: 4, Skipped: 1}},
	"multirun/mocha-fail": {src: "multirun", phase: tTest, format: FormatMocha, counts: Counts{Passed: 3, Failed: 1, Skipped: 1},
		failures: []wantFailure{{"TEST_ASSERTION", "web/mocha/e2e/checkout.js", 7, "web/mocha/e2e/checkout.js > checkout totals the cart", "-9\n+10"}}},
	"multirun/node-fail": {src: "multirun", phase: tTest, format: FormatNodeTAP, counts: Counts{Passed: 3, Failed: 1, Skipped: 1},
		failures: []wantFailure{{"TEST_ASSERTION", "web/node/e2e/checkout.test.js", 7, "checkout totals the cart", "9 !== 10"}}},
	// A lint step that finished OK with findings (flake8 --exit-zero): its
	// findings are reported, the step is not failed by them.
	"flake8/exit-zero": {src: "py-lint", phase: tLint, format: FormatUnparsed, lint: 3, failures: []wantFailure{
		{"LINT", "api/app/util.py", 1, "", "F401 'os' imported but unused"},
		{"LINT", "api/app/util.py", 2, "", "F401 'sys' imported but unused"},
		{"LINT", "api/app/util.py", 6, "", "F841 local variable 'unused'"}}},
}

func init() {
	for name, c := range multirunGoldenCases {
		goldenCases[name] = c
	}
}

// TestMultirunSummariesAddUp: the same shapes with hand-joined runs whose
// summaries would overwrite each other: node's spec reporter (`ℹ pass 2`),
// mocha run twice without anything between, a jest run and a vitest run.
func TestMultirunSummariesAddUp(t *testing.T) {
	for _, c := range []struct {
		name, log string
		format    string
		counts    Counts
	}{
		{"node spec twice", "ℹ tests 3\nℹ pass 2\nℹ fail 0\nℹ skipped 1\nℹ tests 2\nℹ pass 1\nℹ fail 1\nℹ skipped 0\n",
			FormatNodeSpec, Counts{Passed: 3, Failed: 1, Skipped: 1}},
		{"mocha twice, a top-level failing test listed in the second run", "\n  ✔ adds\n  - later\n\n  1 passing (3ms)\n  1 pending\n\n" +
			"\n  1) totals\n  ✔ rejects\n\n  1 passing (2ms)\n  1 failing\n\n  1) totals:\n     AssertionError: 9 == 10\n      at Context.<anonymous> (test/b.js:7:12)\n",
			FormatMocha, Counts{Passed: 2, Failed: 1, Skipped: 1}},
		{"tape twice", "TAP version 13\n# a\nok 1 one\n\n1..1\n# tests 1\n# pass  1\n\n# ok\n\nTAP version 13\n# b\nok 1 two\nnot ok 2 three\n  ---\n    operator: ok\n  ...\n\n1..2\n# tests 2\n# pass  1\n# fail  1\n",
			FormatTAP, Counts{Passed: 2, Failed: 1}},
	} {
		t.Run(c.name, func(t *testing.T) {
			rep := parseText(t, c.log)
			if rep.Format != c.format || rep.Counts != c.counts {
				t.Errorf("format %q counts %+v, want %q %+v", rep.Format, rep.Counts, c.format, c.counts)
			}
		})
	}
}

// TestMochaSecondRunListingIsNoFailure: in a second mocha run, a failing
// top-level test's spec line (`  1) totals`, no ':') is no failure
// section: the failures listed are the sections'.
func TestMochaSecondRunListingIsNoFailure(t *testing.T) {
	log := "\n  1) totals\n\n  0 passing (3ms)\n  1 failing\n\n  1) totals:\n     AssertionError: 9 == 10\n      at Context.<anonymous> (test/a.js:7:12)\n\n" +
		"\n  1) sums\n  ✔ rejects\n\n  1 passing (2ms)\n  1 failing\n\n  1) sums:\n     AssertionError: 1 == 2\n      at Context.<anonymous> (test/b.js:3:5)\n"
	rep := parseText(t, log)
	var got []string
	for _, f := range rep.Failures {
		got = append(got, f.Test)
	}
	if rep.Counts != (Counts{Passed: 1, Failed: 2}) || len(got) != 2 || got[0] != "test/a.js > totals" || got[1] != "test/b.js > sums" {
		t.Errorf("counts %+v failures %q, want 1 passed 2 failed, [test/a.js > totals test/b.js > sums]", rep.Counts, got)
	}
}
