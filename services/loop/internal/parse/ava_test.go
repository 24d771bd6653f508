package parse

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
)

// TestAVAChalk: chalk's own `npm test` (xo && c8 ava && tsd, AVA 3.15 on
// ES modules, so no source line: the place is the stack's `› file://…`)
// with the injected bug of docs/realworld-bugs-corpus2.txt, as greenlight's
// sandbox printed it (see testdata/realworld/README.md). AVA's summary says
// `5 tests failed`; 27 result lines are ✔.
func TestAVAChalk(t *testing.T) {
	b, err := os.ReadFile("testdata/realworld/chalk-ava3.log")
	if err != nil {
		t.Fatal(err)
	}
	rep := parseText(t, string(b))
	if rep.Format != FormatAVA || rep.Counts != (Counts{Passed: 27, Failed: 5}) {
		t.Errorf("format %q counts %+v, want ava 27 passed, 5 failed", rep.Format, rep.Counts)
	}
	want := []string{
		"TEST_ASSERTION test/chalk.js:34 chalk › support applying multiple styles at once",
		"TEST_ASSERTION test/chalk.js:39 chalk › support nesting styles",
		"TEST_ASSERTION test/chalk.js:53 chalk › reset all styles with `.reset()`",
		"TEST_ASSERTION test/chalk.js:85 chalk › keep Function.prototype methods",
		"TEST_ASSERTION test/chalk.js:119 chalk › sets correct level for chalkStderr and respects it",
	}
	var got []string
	for _, f := range rep.Failures {
		got = append(got, fmt.Sprintf("%s %s:%d %s", strings.TrimPrefix(f.Kind.String(), "FAILURE_KIND_"), f.File, f.Line, f.Test))
	}
	if !slices.Equal(got, want) {
		t.Errorf("failures\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

// TestAVAOnlyWithItsSummary: ✔ and `- ` lines are also mocha's, node's and
// tap-spec's; without AVA's rule and summary they are not AVA's, and a diff
// line (`  - 5`) in a failure section is never a skipped test.
func TestAVAOnlyWithItsSummary(t *testing.T) {
	for _, c := range []struct {
		name, log string
		ava       bool
		counts    Counts
	}{
		{"mocha spec", "\n  calc\n    ✔ adds\n    - skips\n\n\n  1 passing (3ms)\n  1 pending\n", false, Counts{}},
		{"ticks without a summary", "  ✔ adds\n  ✖ subtracts oops\n  - later\n", false, Counts{}},
		{"ava", "\n  ✔ adds\n  ✖ subtracts \n  ─\n\n  subtracts\n\n  Difference:\n\n  - 5\n  + 4\n\n  › test.js:9:4\n\n  ─\n\n  1 test failed\n",
			true, Counts{Passed: 1, Failed: 1}},
		{"two runs", "\n  ✔ a › one\n  ─\n\n  1 test passed\n\n  ✔ b › two\n  - b › three\n  ─\n\n  1 test passed\n  1 test skipped\n",
			true, Counts{Passed: 2, Skipped: 1}},
	} {
		t.Run(c.name, func(t *testing.T) {
			rep := parseText(t, c.log)
			if (rep.Format == FormatAVA) != c.ava {
				t.Fatalf("format %q, want ava: %v", rep.Format, c.ava)
			}
			if c.ava && rep.Counts != c.counts {
				t.Errorf("counts %+v, want %+v", rep.Counts, c.counts)
			}
			if c.name == "ava" && (len(rep.Failures) != 1 || rep.Failures[0].File != "test.js" || rep.Failures[0].Line != 9 || rep.Failures[0].Test != "subtracts") {
				t.Errorf("failures %+v, want subtracts at test.js:9", rep.Failures)
			}
		})
	}
}
