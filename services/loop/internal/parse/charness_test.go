package parse

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// cFail is an expected failure of a C harness golden, in order: kind
// (without the FAILURE_KIND_ prefix), file, line, test id and a fragment of
// the message.
type cFail struct {
	kind, file string
	line       int
	test, msg  string
}

// cCase is what one captured C harness run must parse to.
type cCase struct {
	format   string
	counts   Counts
	failures []cFail
	// inventory is the number of tests named (complete when it equals
	// the counts' total).
	inventory int
}

// Failures shared by several captures of the same tests.
var (
	minctestFails = []cFail{
		{"TEST_ASSERTION", "c/tests/minctest_test.c", 15, "c/tests/minctest_test.c::mul", "mul: 12 != 13"},
		{"TEST_ASSERTION", "c/tests/minctest_test.c", 17, "c/tests/minctest_test.c::mul", "mul: 0.250000 != 0.500000"},
		{"TEST_ASSERTION", "c/tests/minctest_test.c", 21, "c/tests/minctest_test.c::clamp", "clamp: check failed"},
	}
	greatestFails = []cFail{
		{"TEST_ASSERTION", "c/tests/greatest_test.c", 12, "arith::mul_table", "failing() ? 13 : 12 != mul(3, 4)\nExpected: 13\nGot: 12"},
		{"TEST_ASSERTION", "c/tests/greatest_test.c", 17, "bounds::clamp_high", "clamp(5, 0, 3) == (failing() ? 4 : 3)"},
	}
	checkFails = []cFail{
		{"TEST_ASSERTION", "c/tests/check_test.c", 14, "core::test_mul", "Assertion 'mul(3, 4) == (failing() ? 13 : 12)' failed: mul(3, 4) == 12"},
		{"CRASH", "c/tests/check_test.c", 23, "edge::test_crash", "Received signal 11 (Segmentation fault)"},
	}
	gtestFails = []cFail{
		{"TEST_ASSERTION", "c/tests/gtest_test.cc", 11, "CalcTest.Mul", "Expected equality of these values:\n  mul(3, 4)\n    Which is: 12"},
		{"TEST_ASSERTION", "c/tests/gtest_test.cc", 19, "Values/ClampTest.StaysInRange/2", "Actual: false\nExpected: true\nclamp(9) = 3"},
	}
	tallyFails = []cFail{
		{"TEST_ASSERTION", "c/tests/summary_test.c", 17, "c/tests/summary_test.c::mul(3, 4) == (failing() ? 13 : 12)", "line 17: check failed"},
		{"TEST_ASSERTION", "c/tests/summary_test.c", 18, "c/tests/summary_test.c::clamp(5, 0, 3) == (failing() ? 4 : 3)", "line 18: check failed"},
		{"TEST_ASSERTION", "c/tests/summary_test.c", 20, "c/tests/summary_test.c::clamp(-1, 0, 3) == (failing() ? 1 : 0)", "line 20: check failed"},
	}
	// Line 20 of failed_only_test.c, not of summary_test.c: the line
	// holds the expression printed.
	failedOnlyFail = cFail{"TEST_ASSERTION", "c/tests/failed_only_test.c", 20, "c/tests/failed_only_test.c::mul(7, 6) == (failing() ? 43 : 42)", "line 20: check failed"}
)

func acutestFails(check string) []cFail {
	return []cFail{
		{"TEST_ASSERTION", "c/tests/acutest_test.c", 15, "mul", "acutest_test.c:15: " + check + "got == want... failed\nExpected: 13\nProduced: 12\nacutest_test.c:18: "},
		{"TEST_ASSERTION", "c/tests/acutest_test.c", 22, "clamp", "clamp(5, 0, 3) == (failing() ? 4 : 3)... failed"},
		{"CRASH", "", 0, "crash", "Test interrupted by SIGSEGV."},
	}
}

func cmockaFails(mul, clamp string) []cFail {
	return []cFail{
		{"TEST_ASSERTION", "c/tests/cmocka_test.c", 19, "test_mul", mul},
		{"TEST_ASSERTION", "c/tests/cmocka_test.c", 24, "test_clamp", clamp},
		{"CRASH", "", 0, "test_crash", "Test failed with exception: Segmentation fault(11)"},
	}
}

// cCases are the expectations of every capture listed in
// testdata/golden/charness.tsv (see charness-capture.sh).
var cCases = map[string]cCase{
	// minctest counts checks: 16 in one program, 3 in the other.
	"minctest/pass":     {FormatCHarness, Counts{Passed: 19}, nil, 0},
	"minctest/fail":     {FormatCHarness, Counts{Passed: 16, Failed: 3}, minctestFails, 0},
	"minctest/pass-0.2": {FormatCHarness, Counts{Passed: 19}, nil, 0},
	// 0.2 prints a test's first failed check after its padded name.
	"minctest/fail-0.2": {FormatCHarness, Counts{Passed: 16, Failed: 3}, minctestFails, 0},

	"greatest/pass":         {FormatCHarness, Counts{Passed: 3, Skipped: 1}, nil, 0},
	"greatest/fail":         {FormatCHarness, Counts{Passed: 1, Failed: 2, Skipped: 1}, greatestFails, 2},
	"greatest/fail-verbose": {FormatCHarness, Counts{Passed: 1, Failed: 2, Skipped: 1}, greatestFails, 4},
	"greatest/fail-1.0":     {FormatCHarness, Counts{Passed: 1, Failed: 2, Skipped: 1}, greatestFails, 2},

	"acutest/pass":     {FormatCHarness, Counts{Passed: 4}, nil, 4},
	"acutest/fail":     {FormatCHarness, Counts{Passed: 1, Failed: 3}, acutestFails(""), 4},
	"acutest/pass-old": {FormatCHarness, Counts{Passed: 4}, nil, 4},
	"acutest/fail-old": {FormatCHarness, Counts{Passed: 1, Failed: 3}, acutestFails("Check "), 4},

	"cmocka/pass":     {FormatCHarness, Counts{Passed: 4, Skipped: 1}, nil, 5},
	"cmocka/fail":     {FormatCHarness, Counts{Passed: 1, Failed: 3, Skipped: 1}, cmockaFails("0xc != 0xd", "clamp(5, 0, 3) == (failing() ? 4 : 3)"), 5},
	"cmocka/pass-2.0": {FormatCHarness, Counts{Passed: 4, Skipped: 1}, nil, 5},
	"cmocka/fail-2.0": {FormatCHarness, Counts{Passed: 1, Failed: 3, Skipped: 1}, cmockaFails("12 != 13", "clamp(5, 0, 3) == (failing() ? 4 : 3) is not true"), 5},

	"check/pass":         {FormatCHarness, Counts{Passed: 4}, nil, 0},
	"check/fail":         {FormatCHarness, Counts{Passed: 2, Failed: 1, Errors: 1}, checkFails, 2},
	"check/fail-verbose": {FormatCHarness, Counts{Passed: 2, Failed: 1, Errors: 1}, checkFails, 4},

	"gtest/pass": {FormatCHarness, Counts{Passed: 5, Skipped: 1}, nil, 6},
	"gtest/fail": {FormatCHarness, Counts{Passed: 3, Failed: 2, Skipped: 1}, gtestFails, 6},
	// --gtest_brief=1 prints no RUN or OK line, only failures and counts.
	"gtest/fail-brief": {FormatCHarness, Counts{Passed: 3, Failed: 2, Skipped: 1}, gtestFails, 2},

	"catch2/pass": {FormatCHarness, Counts{Passed: 3}, nil, 0},
	"catch2/fail": {FormatCHarness, Counts{Passed: 1, Failed: 2}, []cFail{
		{"TEST_ASSERTION", "c/tests/catch2_test.cc", 12, "Mul", "REQUIRE( mul(3, 4) == (failing() ? 13 : 12) )\nwith expansion:\n  12 == 13"},
		{"TEST_ASSERTION", "c/tests/catch2_test.cc", 16, "Clamp", "CHECK( clamp(9, 0, 3) == (failing() ? 4 : 3) )\nwith expansion:\n  3 == 4"},
	}, 2},
	"doctest/pass": {FormatCHarness, Counts{Passed: 3, Skipped: 1}, nil, 0},
	"doctest/fail": {FormatCHarness, Counts{Passed: 1, Failed: 2, Skipped: 1}, []cFail{
		{"TEST_ASSERTION", "c/tests/doctest_test.cc", 11, "Mul", "REQUIRE( mul(3, 4) == (failing() ? 13 : 12) ) is NOT correct!\n  values: REQUIRE( 12 == 13 )"},
		{"TEST_ASSERTION", "c/tests/doctest_test.cc", 15, "Clamp", "CHECK( clamp(9, 0, 3) == (failing() ? 4 : 3) ) is NOT correct!\n  values: CHECK( 3 == 4 )"},
	}, 2},

	// summary_test and failed_only_test print `Tests failed: N` / `Tests
	// passed: N`, tally_test `N tests, P passed, F failed`.
	"csummary/pass": {FormatCHarness, Counts{Passed: 11}, nil, 0},
	"csummary/fail": {FormatCHarness, Counts{Passed: 6, Failed: 5}, append(append([]cFail{}, tallyFails...), failedOnlyFail), 0},
	// Exit 0 with `Tests failed: 3`: the counts say what the exit hides.
	"csummary/fail-exit0":             {FormatCHarness, Counts{Passed: 2, Failed: 3}, tallyFails, 0},
	"csummary/fail-exit0-failed-only": {FormatCHarness, Counts{Passed: 2, Failed: 1}, []cFail{failedOnlyFail}, 0},

	"automake/pass": {FormatAutomake, Counts{Passed: 2}, nil, 2},
	"automake/fail": {FormatAutomake, Counts{Failed: 2}, []cFail{
		{"TEST_ASSERTION", "", 0, "check_test", "check_test: FAIL"},
		{"TEST_ASSERTION", "", 0, "minctest_test", "minctest_test: FAIL"},
	}, 2},
	// VERBOSE=1 prints the failed programs' logs: their checks come first.
	"automake/fail-verbose": {FormatAutomake, Counts{Failed: 2}, append(append(append([]cFail{}, checkFails...), minctestFails...),
		cFail{"TEST_ASSERTION", "", 0, "check_test", "check_test: FAIL"},
		cFail{"TEST_ASSERTION", "", 0, "minctest_test", "minctest_test: FAIL"}), 2},

	// Every harness in one make check: the programs' counts summed.
	"charness/mixed-pass": {FormatCHarness, Counts{Passed: 56, Skipped: 4}, nil, 15},
}

// cRow is one line of testdata/golden/charness.tsv.
type cRow struct {
	exit             int
	workdir, command string
}

func readCHarnessManifest(t *testing.T) map[string]cRow {
	t.Helper()
	f, err := os.Open("testdata/golden/charness.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows := map[string]cRow{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		p := strings.SplitN(sc.Text(), "\t", 5)
		if len(p) != 5 {
			t.Fatalf("bad manifest line %q", sc.Text())
		}
		code, err := strconv.Atoi(p[2])
		if err != nil {
			t.Fatal(err)
		}
		rows[p[0]+"/"+p[1]] = cRow{exit: code, workdir: p[3], command: p[4]}
	}
	return rows
}

// parseCHarness parses a capture as the loop parses a test step.
func parseCHarness(t *testing.T, name string, row cRow) (*StepReport, []byte) {
	t.Helper()
	log, err := os.ReadFile(filepath.Join("testdata/golden", name+".log"))
	if err != nil {
		t.Fatal(err)
	}
	status := glv1.StepStatus_STEP_STATUS_OK
	if row.exit != 0 {
		status = glv1.StepStatus_STEP_STATUS_FAILED
	}
	step := &glv1.Step{Name: strings.ReplaceAll(name, "/", "-"), Phase: glv1.Phase_PHASE_TEST, Command: row.command, Workdir: row.workdir}
	res := &glv1.StepResult{Name: step.Name, Status: status, ExitCode: int32(row.exit)}
	rep, err := Step(context.Background(), Input{Step: step, Result: res, Log: bytes.NewReader(log),
		Files: os.DirFS("testdata/golden/src/charness")})
	if err != nil {
		t.Fatal(err)
	}
	return rep, log
}

// TestCHarnessGoldens parses every captured run of minctest, greatest,
// acutest, cmocka, Check, GoogleTest, Catch2, doctest, hand-rolled tallies
// and automake's harness, inside make, and checks counts, failing tests, their file:line
// (the failed check's, workspace-relative) and messages.
func TestCHarnessGoldens(t *testing.T) {
	rows := readCHarnessManifest(t)
	for name := range rows {
		if _, ok := cCases[name]; !ok {
			t.Errorf("captured case %s has no expectations", name)
		}
	}
	for name, c := range cCases {
		t.Run(name, func(t *testing.T) {
			row, ok := rows[name]
			if !ok {
				t.Fatalf("case %s is not in charness.tsv", name)
			}
			rep, _ := parseCHarness(t, name, row)
			if rep.Format != c.format || rep.Counts != c.counts {
				t.Errorf("format %q counts %+v, want %q %+v", rep.Format, rep.Counts, c.format, c.counts)
			}
			if len(rep.Inventory) != c.inventory || rep.InventoryComplete != (c.inventory == c.counts.Total()) {
				t.Errorf("inventory of %d (complete %v), want %d", len(rep.Inventory), rep.InventoryComplete, c.inventory)
			}
			checkCFailures(t, rep, c.failures)
			if _, err := proto.Marshal(rep.TestsParsedProto()); err != nil {
				t.Errorf("marshal: %v", err)
			}
		})
	}
}

func checkCFailures(t *testing.T, rep *StepReport, want []cFail) {
	t.Helper()
	if len(rep.Failures) != len(want) {
		for _, f := range rep.Failures {
			t.Logf("got %s %s:%d test=%q msg=%q", f.Kind, f.File, f.Line, f.Test, f.Message)
		}
		t.Fatalf("%d failures, want %d", len(rep.Failures), len(want))
	}
	for i, w := range want {
		f := rep.Failures[i]
		if got := strings.TrimPrefix(f.Kind.String(), "FAILURE_KIND_"); got != w.kind {
			t.Errorf("failure %d kind %s, want %s", i, got, w.kind)
		}
		if f.File != w.file || f.Line != w.line || f.Test != w.test {
			t.Errorf("failure %d: %s at %s:%d, want %s at %s:%d", i, f.Test, f.File, f.Line, w.test, w.file, w.line)
		}
		if !strings.Contains(f.Message, w.msg) {
			t.Errorf("failure %d message %q does not contain %q", i, f.Message, w.msg)
		}
		if f.Offset <= 0 {
			t.Errorf("failure %d has no offset in the log: %d", i, f.Offset)
		}
	}
}

// TestCHarnessCompilerWarningsAreNotTheFailure: gcc's warnings printed
// while make check builds the tests are neither failures nor tests; the
// failure named first is the failed check (the held-out miss listed
// pre-existing warnings instead of `smoke.c:684`). A passing run with the
// same warnings has no failure at all.
func TestCHarnessCompilerWarningsAreNotTheFailure(t *testing.T) {
	rows := readCHarnessManifest(t)
	for _, c := range []struct {
		name, first string
	}{
		{"minctest/fail", "c/tests/minctest_test.c:15"},
		{"minctest/fail-0.2", "c/tests/minctest_test.c:15"},
		{"greatest/fail", "c/tests/greatest_test.c:12"},
		{"automake/fail-verbose", "c/tests/check_test.c:14"},
		{"minctest/pass", ""},
		{"automake/pass", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			rep, log := parseCHarness(t, c.name, rows[c.name])
			warning := bytes.Index(log, []byte(": warning: unused variable"))
			if warning < 0 {
				t.Fatal("the capture has no compiler warning to ignore")
			}
			for _, f := range rep.Failures {
				if f.Kind == glv1.FailureKind_FAILURE_KIND_COMPILE || strings.Contains(f.Message, "warning") {
					t.Errorf("a compiler warning is a failure: %s %s:%d %q", f.Kind, f.File, f.Line, f.Message)
				}
			}
			if c.first == "" {
				if len(rep.Failures) != 0 {
					t.Fatalf("a passing run has failures: %+v", rep.Failures)
				}
				return
			}
			if len(rep.Failures) == 0 {
				t.Fatal("no failure")
			}
			f := rep.Failures[0]
			if got := f.File + ":" + strconv.Itoa(f.Line); got != c.first || f.Offset < int64(warning) {
				t.Fatalf("first failure %s (offset %d), want the failed check %s after the warning (offset %d)", got, f.Offset, c.first, warning)
			}
		})
	}
}

// TestCHarnessIgnoresStrayFailedWords: logs that merely say "failed",
// "FAIL" or "passed" — a build, a linker, a shell script, a lone figure —
// are no test results; each harness's lines count only with their own
// summary.
func TestCHarnessIgnoresStrayFailedWords(t *testing.T) {
	for _, c := range []struct{ name, log string }{
		{"build and shell words", "Build failed\nlinking failed\n3 checks failed\nTests failed to compile\nAll tests passed!\n" +
			"FAILED to open config\nSUCCESS\nmake: *** [Makefile:12: all] Error 1\n"},
		{"a lone zero tally", "Tests failed: 0\n"},
		{"minctest-like lines without its summary", "smoke.c:684 error \nsrc/x.c:12 (1 != 2)\n"},
		{"greatest-like line without its counts", "FAIL parse: bad input (parse.c:33)\n"},
		{"automake-like results without its summary", "PASS: lint\nFAIL: could not reach the mirror\n"},
		{"check-like line without its summary", "check.c:12:F:core:test_x:0: Assertion 'x' failed\n"},
		{"compiler diagnostics", "calc.c:7:13: warning: unused variable 'x' [-Wunused-variable]\n" +
			"calc.c: In function 'main':\ncalc.c:9:1: note: declared here\n"},
		{"percentages", "100% tests passed, 0 tests failed out of 0\n"},
		{"catch2-like block without its summary", strings.Repeat("-", 79) + "\nparses\n" + strings.Repeat("-", 79) +
			"\nx.cc:3\n" + strings.Repeat(".", 79) + "\n\nx.cc:5: FAILED:\n  REQUIRE( ok )\n" + strings.Repeat("=", 79) + "\ntest cases: 2\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			lim := DefaultLimits().withDefaults()
			ps := newLogParsers(&lim, NewPaths("", "", nil), glv1.Phase_PHASE_TEST)
			if _, err := ps.scan(context.Background(), strings.NewReader(c.log)); err != nil {
				t.Fatal(err)
			}
			for _, s := range []*testSet{ps.charness.set, ps.charness.am.set} {
				if s.seen || len(s.failing)+len(s.passing) > 0 {
					t.Fatalf("parsed %+v with %d failing records", s.final(), len(s.failing))
				}
			}
			if rep := parseText(t, c.log); rep.Format == FormatCHarness || rep.Format == FormatAutomake {
				t.Fatalf("format %q counts %+v", rep.Format, rep.Counts)
			}
		})
	}
}

// TestCHarnessShapes covers shapes the captures do not show: the tallies'
// other figures and one-line forms, a program that died inside a cmocka or
// GoogleTest test, acutest's file found by its base name in the snapshot,
// and tallies far apart being two programs.
func TestCHarnessShapes(t *testing.T) {
	for _, c := range []struct {
		name, log string
		counts    Counts
		failing   []string
	}{
		{"run and passed", "Tests run: 5\nTests passed: 4\n", Counts{Passed: 4, Failed: 1}, nil},
		{"run and failed, any case", "TESTS RUN: 6\nTESTS FAILED: 2\n", Counts{Passed: 4, Failed: 2}, nil},
		{"one line", "12 tests passed, 1 failed\n", Counts{Passed: 12, Failed: 1}, nil},
		{"n of m", "11 of 12 tests passed\n", Counts{Passed: 11, Failed: 1}, nil},
		{"two programs' tallies", "Tests passed: 3\nTests failed: 0\nTests passed: 2\nTests failed: 1\n", Counts{Passed: 5, Failed: 1}, nil},
		{"cmocka program died in a test", "[==========] Running 2 test(s).\n[ RUN      ] test_a\n[       OK ] test_a\n[ RUN      ] test_b\n",
			Counts{Passed: 1, Failed: 1, Unfinished: 1}, []string{"test_b"}},
		{"gtest program died in a test", "[==========] Running 1 test from 1 test suite.\n[ RUN      ] S.T\ns_test.cc:3: Failure\nboom\n",
			Counts{Failed: 1, Unfinished: 1}, []string{"S.T"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			rep := parseText(t, c.log)
			if rep.Format != FormatCHarness || rep.Counts != c.counts {
				t.Fatalf("format %q counts %+v, want %q %+v", rep.Format, rep.Counts, FormatCHarness, c.counts)
			}
			var got []string
			for _, f := range rep.Failures {
				if f.Test != "" {
					got = append(got, f.Test)
				}
			}
			if strings.Join(got, ",") != strings.Join(c.failing, ",") {
				t.Fatalf("failing tests %q, want %q", got, c.failing)
			}
		})
	}
}

// TestCHarnessFindsBaseNamesInTheSnapshot: acutest prints only a file's
// base name; with no compiler line in the step (the tests were built in an
// earlier step) the snapshot's one file of that name is the location.
func TestCHarnessFindsBaseNamesInTheSnapshot(t *testing.T) {
	log := "Test mul...                                     [ FAILED ]\n" +
		"  acutest_test.c:15: got == want... failed\n" +
		"FAILED: 1 of 1 unit test has failed.\n"
	for _, c := range []struct {
		name  string
		files bool
		want  string
	}{
		{"snapshot", true, "c/tests/acutest_test.c"},
		{"no snapshot", false, "acutest_test.c"},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := Input{
				Step:   &glv1.Step{Name: "test", Phase: glv1.Phase_PHASE_TEST, Command: "./build/acutest_test"},
				Result: &glv1.StepResult{Status: glv1.StepStatus_STEP_STATUS_FAILED, ExitCode: 1}, Log: strings.NewReader(log),
			}
			if c.files {
				in.Files = os.DirFS("testdata/golden/src/charness")
			}
			rep, err := Step(context.Background(), in)
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.Failures) != 1 || rep.Failures[0].File != c.want || rep.Failures[0].Line != 15 {
				t.Fatalf("failures %+v, want one at %s:15", rep.Failures, c.want)
			}
		})
	}
}
