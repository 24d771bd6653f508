package parse

import (
	"slices"
	"strings"
	"testing"
)

// TAP of every producer (src/tape, src/prove; see testdata/golden/README.md):
// tape 5 and tape 4, alone, through nyc and twice in one step; Perl's
// Test::More under prove (quiet, verbose, dying, bailing out, twice) and
// raw.
var tapGoldenCases = map[string]goldenCase{
	// tape prints `ok 1 should be equal` (no " - "), names each test in a
	// `# name` comment, and explains a failure in YAML indented past its
	// `---`, whose `at:` is the assertion's call site. A failing `# TODO`
	// point and a `# SKIP` one are skipped.
	"tape/pass":     {src: "tape", phase: tTest, format: FormatTAP, counts: Counts{Passed: 11, Skipped: 2}},
	"tape/fail":     {src: "tape", phase: tTest, format: FormatTAP, counts: Counts{Passed: 7, Failed: 4, Skipped: 2}, failures: tapeFail("should be strictly equal", "should be deeply equivalent")},
	"tape/nyc-pass": {src: "tape", phase: tTest, format: FormatTAP, counts: Counts{Passed: 11, Skipped: 2}},
	"tape/nyc-fail": {src: "tape", phase: tTest, format: FormatTAP, counts: Counts{Passed: 7, Failed: 4, Skipped: 2}, failures: tapeFail("should be strictly equal", "should be deeply equivalent")},
	"tape/v4-pass":  {src: "tape", phase: tTest, format: FormatTAP, counts: Counts{Passed: 11, Skipped: 2}},
	"tape/v4-fail":  {src: "tape", phase: tTest, format: FormatTAP, counts: Counts{Passed: 7, Failed: 4, Skipped: 2}, failures: tapeFail("should be equal", "should be equivalent")},
	// Two tape runs (`npm run test:strings && npm run test:calc`): two
	// streams, counted together.
	"tape/twice-fail": {src: "tape", phase: tTest, format: FormatTAP, counts: Counts{Passed: 7, Failed: 4, Skipped: 2}, failures: tapeFail("should be strictly equal", "should be deeply equivalent")},
	// An exception outside any assertion kills tape mid-run: the points
	// before it count, the crash is the failure.
	"tape/throw": {src: "tape", phase: tTest, format: FormatTAP, counts: Counts{Passed: 5},
		failures: []wantFailure{{"CRASH", "web/src/calc.js", 14, "", "TypeError: not a range: a..b"}}},
	// `tape | tap-spec`: only tap-spec's rendering is in the log. It counts
	// the failing TODO assertion as failing (and exits 1 for it).
	"tape/spec-pass": {src: "tape", phase: tTest, format: FormatTapSpec, counts: Counts{Passed: 12, Failed: 1}, failures: tapeSpecTodo},
	"tape/spec-fail": {src: "tape", phase: tTest, format: FormatTapSpec, counts: Counts{Passed: 8, Failed: 5},
		failures: append(tapeFail("should be strictly equal", "should be deeply equivalent"), tapeSpecTodo...)},

	// prove counts as its totals do (`Files=3, Tests=12`), a subtest block
	// being one test; Test::More's `#   Failed test 'adds'` / `#   at
	// t/basic.t line 6.` name and place each failure.
	"prove/pass":         {src: "prove", phase: tTest, format: FormatProve, counts: Counts{Passed: 12}},
	"prove/fail":         {src: "prove", phase: tTest, format: FormatProve, counts: Counts{Passed: 9, Failed: 3}, failures: proveFail},
	"prove/fail-verbose": {src: "prove", phase: tTest, format: FormatProve, counts: Counts{Passed: 6, Failed: 3, Skipped: 3}, failures: proveFail},
	"prove/twice":        {src: "prove", phase: tTest, format: FormatProve, counts: Counts{Passed: 12}},
	// A test file that dies is an error at the place Perl's die names.
	"prove/die": {src: "prove", phase: tTest, format: FormatProve, counts: Counts{Passed: 10, Errors: 1},
		failures: []wantFailure{{"TEST_ERROR", "perl/lib/Calc.pm", 26, "t/die.t", "not a range: a..b"}}},
	// `make test` of ExtUtils::MakeMaker runs the same harness on the
	// blib/ copies, then dies with Test::Harness's totals; a die in a
	// blib/lib copy is placed in its lib/ source.
	"prove/make-fail": {src: "prove", phase: tTest, format: FormatProve, counts: Counts{Passed: 9, Failed: 3}, failures: proveFail},
	"prove/make-die": {src: "prove", phase: tTest, format: FormatProve, counts: Counts{Passed: 10, Errors: 1},
		failures: []wantFailure{{"TEST_ERROR", "perl/lib/Calc.pm", 26, "t/die.t", "blib/lib/Calc.pm line 26"}}},
	"prove/bail": {src: "prove", phase: tTest, format: FormatProve, counts: Counts{Passed: 4, Errors: 1},
		failures: []wantFailure{{"TEST_ERROR", "perl/t/die.t", 0, "t/die.t", "Bail out! no database to test against"}}},
	// Raw Test::More TAP of two files, one after the other (no version
	// line, a plan at the end, then one at the start).
	"prove/raw-fail": {src: "prove", phase: tTest, format: FormatTAP, counts: Counts{Passed: 4, Failed: 3, Skipped: 3},
		failures: []wantFailure{
			{"TEST_ASSERTION", "perl/t/basic.t", 6, "adds", "got: '4'"},
			{"TEST_ASSERTION", "perl/t/basic.t", 7, "negatives cancel", "got: '1'"},
			{"TEST_ASSERTION", "perl/t/basic.t", 9, "range", "Structures begin differing"}}},
	"prove/raw-bail": {src: "prove", phase: tTest, format: FormatTAP, counts: Counts{Errors: 1},
		failures: []wantFailure{{"TEST_ERROR", "", 0, "Bail out!", "Bail out! no database to test against"}}},
}

// tapeFail is src/tape's four failures under CASE=fail; tape 4 and 5 name
// equal and deepEqual differently.
func tapeFail(equal, deep string) []wantFailure {
	return []wantFailure{
		{"TEST_ASSERTION", "web/test/calc.js", 7, "add > " + equal, equal + ": expected 3, actual 4 (equal)"},
		{"TEST_ASSERTION", "web/test/calc.js", 8, "add > negatives cancel", "negatives cancel: expected 0, actual 1 (equal)"},
		{"TEST_ASSERTION", "web/test/calc.js", 29, "merge keeps both tag lists > " + deep,
			"expected { id: 1, tags: [ 'a', 'b' ] }, actual { id: 1, tags: [ 'a' ] } (deepEqual)"},
		// t.error(err): the point is the error, located at the t.error call.
		{"TEST_ERROR", "web/test/calc.js", 35, "load calls back without an error > Error: cannot load missing", "Error: cannot load missing"},
	}
}

var tapeSpecTodo = []wantFailure{{"TEST_ASSERTION", "web/test/calc.js", 47, "TODO known bug > todo assertion # TODO", "expected 2, actual 1 (equal)"}}

var proveFail = []wantFailure{
	{"TEST_ASSERTION", "perl/t/basic.t", 6, "t/basic.t > adds", "got: '4'\nexpected: '3'"},
	{"TEST_ASSERTION", "perl/t/basic.t", 7, "t/basic.t > negatives cancel", "got: '1'\nexpected: '0'"},
	{"TEST_ASSERTION", "perl/t/basic.t", 9, "t/basic.t > range", "$expected->[2] = '3'"},
}

func init() {
	for name, c := range tapGoldenCases {
		goldenCases[name] = c
	}
}

// TestTAPCutShortOnlyWhenFailed: a TAP stream that ended without its plan
// (tape killed by an exception) or a bail-out makes the counts of the
// failed step incomplete, saying why; finished runs are complete.
func TestTAPCutShortOnlyWhenFailed(t *testing.T) {
	rows := readManifest(t)
	for _, c := range []struct {
		name, why string
	}{
		{"tape/throw", "without its plan"},
		{"prove/bail", "Bail out! no database to test against"},
		{"prove/raw-bail", "Bail out! no database to test against"},
		{"tape/fail", ""},
		{"tape/twice-fail", ""},
		{"tape/nyc-pass", ""},
		{"prove/raw-fail", ""},
		{"prove/die", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			rep := runGolden(t, c.name, tapGoldenCases[c.name], rows[c.name])
			if rep.Incomplete != (c.why != "") || !strings.Contains(rep.IncompleteReason, c.why) {
				t.Errorf("incomplete %v %q, want %v containing %q", rep.Incomplete, rep.IncompleteReason, c.why != "", c.why)
			}
		})
	}
	// The same stream in a step that exited 0 was not cut short: its
	// counts stay complete (an OK step with incomplete counts is an ERROR).
	ok := rows["tape/throw"]
	ok.exit = 0
	if rep := runGolden(t, "tape/throw", tapGoldenCases["tape/throw"], ok); rep.Incomplete {
		t.Errorf("tape/throw as an OK step: incomplete %q, want complete", rep.IncompleteReason)
	}
}

// TestTAPPointShapes: the point syntax of every producer; a description
// without " - " only inside TAP.
func TestTAPPointShapes(t *testing.T) {
	for _, c := range []struct {
		line         string
		relaxed      bool
		ok           bool
		desc, dir    string
		indent       int
		wantNoMatch  bool
		wantNotPlain bool
	}{
		{line: "ok 1 - adds", ok: true, desc: "adds", wantNotPlain: true},
		{line: "not ok 2 should be equal", relaxed: true, desc: "should be equal"},
		{line: "not ok 2 should be equal", wantNoMatch: true},
		{line: "ok 3 # skip no network in the sandbox", ok: true, dir: "skip", wantNotPlain: true},
		{line: "ok 13 skipped assertion # SKIP", relaxed: true, ok: true, desc: "skipped assertion", dir: "skip"},
		{line: "not ok 10 todo assertion # TODO", relaxed: true, desc: "todo assertion", dir: "todo"},
		{line: "not ok 4 - three is even # TODO odd numbers not handled yet", desc: "three is even", dir: "todo", wantNotPlain: true},
		{line: "    ok 1 - group # time=3.1ms", ok: true, desc: "group", indent: 4, wantNotPlain: true},
		{line: `ok 5 - counts \# of items`, ok: true, desc: "counts # of items", wantNotPlain: true},
		{line: "ok 6 - a # b is no directive", ok: true, desc: "a # b is no directive", wantNotPlain: true},
		{line: "ok 7 - skip list # Skipped: not on linux", ok: true, desc: "skip list", dir: "skip", wantNotPlain: true},
		{line: "ok 8", ok: true, wantNotPlain: true},
		{line: "ok", wantNoMatch: true},
		{line: "ok 12abc", relaxed: true, wantNoMatch: true},
		{line: "ok  \texample.com/svc/calc\t0.01s", relaxed: true, wantNoMatch: true},
	} {
		pt, ok := matchTAPPoint([]byte(c.line), c.relaxed)
		if ok == c.wantNoMatch {
			t.Errorf("%q (relaxed %v): matched %v", c.line, c.relaxed, ok)
			continue
		}
		if !ok {
			continue
		}
		if pt.ok != c.ok || pt.desc != c.desc || pt.directive != c.dir || pt.indent != c.indent || pt.plain == c.wantNotPlain {
			t.Errorf("%q: %+v, want ok=%v desc=%q dir=%q indent=%d plain=%v", c.line, pt, c.ok, c.desc, c.dir, c.indent, !c.wantNotPlain)
		}
	}
}

// TestTAPTestNamesFromTapeComments: tape's `# name` comments name the
// assertions after them; node's `# Subtest:` streams keep their own names
// (a console.log there is a comment too), and Test::More's diagnostics
// never become names.
func TestTAPTestNamesFromTapeComments(t *testing.T) {
	rows := readManifest(t)
	rep := runGolden(t, "tape/pass", tapGoldenCases["tape/pass"], rows["tape/pass"])
	var ids []string
	for _, x := range rep.Tests {
		ids = append(ids, x.ID)
	}
	for _, want := range []string{"add > negatives cancel", "nested subtest > returns an array", "known bug > todo assertion", "strings > includes"} {
		if !slices.Contains(ids, want) {
			t.Errorf("tests %q lack %q", ids, want)
		}
	}
	rep = parseText(t, "TAP version 13\n# log line printed by the test\n# Subtest: adds\nok 1 - adds\n1..1\n")
	if len(rep.Tests) != 1 || rep.Tests[0].ID != "adds" || rep.Format != FormatNodeTAP {
		t.Errorf("node TAP: format %q tests %+v, want the node-tap test adds", rep.Format, rep.Tests)
	}
}
