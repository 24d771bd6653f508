package parse

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// parseRealworld parses a captured log of testdata/realworld as a failed
// test step run in workdir over a snapshot holding files.
func parseRealworld(t *testing.T, name, workdir string, files ...string) *StepReport {
	t.Helper()
	f, err := os.Open("testdata/realworld/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	snap := fstest.MapFS{}
	for _, p := range files {
		snap[p] = &fstest.MapFile{Data: []byte("x\n")}
	}
	rep, err := Step(context.Background(), Input{
		Step:   &glv1.Step{Name: "test", Phase: glv1.Phase_PHASE_TEST, Command: "x", Workdir: workdir},
		Result: &glv1.StepResult{Status: glv1.StepStatus_STEP_STATUS_FAILED, ExitCode: 8},
		Log:    f, Files: snap,
	})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// failureLines renders failures as `KIND file:line test`.
func failureLines(fs []Failure, n int) []string {
	var out []string
	for _, f := range fs[:min(n, len(fs))] {
		out = append(out, fmt.Sprintf("%s %s:%d %s", strings.TrimPrefix(f.Kind.String(), "FAILURE_KIND_"), f.File, f.Line, f.Test))
	}
	return out
}

// TestCTestRealworld: CTest 3.25 runs of real repositories with the injected
// bugs of docs/realworld-bugs-corpus2.txt, as greenlight's sandbox printed
// them (see testdata/realworld/README.md). Each failed test is named, and
// placed where its output says, else in its program's source.
func TestCTestRealworld(t *testing.T) {
	for _, c := range []struct {
		name, log, workdir string
		files              []string
		counts             Counts
		want               []string
		msg                string
	}{
		{
			// xmltest's PASS_REGULAR_EXPRESSION ends in a newline: its result
			// line continues on the next one (`]  0.12 sec`). xmltest prints
			// no location: the test is placed in its program's source.
			name: "tinyxml2 regex over two lines", log: "ctest-tinyxml2-regex.log",
			files:  []string{"xmltest.cpp", "tinyxml2.cpp", "tinyxml2.h"},
			counts: Counts{Failed: 1},
			want:   []string{"TEST_ERROR xmltest.cpp:0 xmltest"},
			msg:    "Required regular expression not found. Regex=[, Fail 0",
		},
		{
			// expat's runtests (minicheck) names each failed check `(during
			// actual test at /workspace/expat/tests/chardata.c:96)`.
			name: "libexpat minicheck location in parentheses", log: "ctest-libexpat-minicheck.log", workdir: "expat",
			files:  []string{"expat/tests/chardata.c", "expat/tests/runtests.c", "expat/tests/basic_tests.c"},
			counts: Counts{Failed: 1},
			want:   []string{"TEST_ASSERTION expat/tests/chardata.c:96 runtests"},
			msg:    "got bad data bytes",
		},
		{
			// zlib's example prints `uncompress error: -3` and exits: no
			// location anywhere; example is test/example.c, example64 has no
			// source of its name.
			name: "zlib test program without a location", log: "ctest-zlib-example.log",
			files:  []string{"test/example.c", "test/minigzip.c", "compress.c"},
			counts: Counts{Failed: 2},
			want:   []string{"TEST_ERROR test/example.c:0 example", "TEST_ERROR :0 example64"},
			msg:    "uncompress error: -3",
		},
		{
			// yyjson's tests abort on a failed yy_assert: CTest has no word
			// for SIGABRT and prints `Subprocess aborted***Exception:`; the
			// location is `(/workspace/test/test_json_val.c: 90)`.
			name: "yyjson aborts", log: "ctest-yyjson-abort.log",
			files:  []string{"test/test_json_mut_val.c", "test/test_json_reader.c", "test/test_json_val.c", "test/test_json_writer.c", "test/test_roundtrip.c"},
			counts: Counts{Passed: 7, Failed: 5},
			want: []string{
				"CRASH test/test_json_mut_val.c:2227 test_json_mut_val",
				"CRASH test/test_json_reader.c:711 test_json_reader",
				"CRASH test/test_json_val.c:90 test_json_val",
				"CRASH test/test_json_writer.c:122 test_json_writer",
				"CRASH test/test_roundtrip.c:54 test_roundtrip",
			},
			msg: "Exception: Subprocess aborted\nAssertion failed: yyjson_mut_equals(mut_lhs_val, mut_rhs_val) == equals",
		},
		{
			// Without a snapshot nothing is guessed: example stays unplaced.
			name: "zlib without the snapshot's sources", log: "ctest-zlib-example.log",
			counts: Counts{Failed: 2},
			want:   []string{"TEST_ERROR :0 example", "TEST_ERROR :0 example64"},
			msg:    "uncompress error: -3",
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			rep := parseRealworld(t, c.log, c.workdir, c.files...)
			if rep.Format != FormatCTest || rep.Counts != c.counts {
				t.Errorf("format %q counts %+v, want ctest %+v", rep.Format, rep.Counts, c.counts)
			}
			if got := failureLines(rep.Failures, 10); !slices.Equal(got, c.want) {
				t.Errorf("failures\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(c.want, "\n  "))
			}
			if len(rep.Failures) > 0 && !strings.Contains(rep.Failures[0].Message, c.msg) {
				t.Errorf("message %q, want it to hold %q", rep.Failures[0].Message, c.msg)
			}
		})
	}
}

// TestCTestResultShapes: result lines the goldens do not show, as CTest
// 3.25 prints them (cmCTestRunTest): an abort it has no word for
// (`Subprocess aborted***Exception:`), a regular expression over several
// lines, a location after a program's name or in parentheses, and an
// unfinished head that never closes.
func TestCTestResultShapes(t *testing.T) {
	for _, c := range []struct {
		name, log string
		counts    Counts
		want      []string
	}{
		{"abort described before ***Exception", " 4/12 Test  #4: test_json_mut_val ................Subprocess aborted***Exception:   0.00 sec\n" +
			"Assertion failed: yyjson_mut_equals(a, b) == equals (/workspace/test/test_json_mut_val.c: 2227)\n\n" +
			" 5/12 Test  #5: test_json_patch ..................   Passed    0.00 sec\n\n" +
			"92% tests passed, 1 tests failed out of 12\n",
			Counts{Passed: 11, Failed: 1}, []string{"CRASH test/test_json_mut_val.c:2227 test_json_mut_val"}},
		{"glibc assert after the program's name", "1/1 Test #1: calc .............Subprocess aborted***Exception:   0.01 sec\n" +
			"calc: /workspace/src/calc.c:33: main: Assertion `x == 1' failed.\n\n" +
			"0% tests passed, 1 tests failed out of 1\n",
			Counts{Failed: 1}, []string{"CRASH src/calc.c:33 calc"}},
		{"error regex over two lines", "1/2 Test #1: parse ....***Failed  Error regular expression found in output. Regex=[ERROR\n]  0.01 sec\n" +
			"ERROR: bad\n\n2/2 Test #2: other .....   Passed    0.00 sec\n\n50% tests passed, 1 tests failed out of 2\n",
			Counts{Passed: 1, Failed: 1}, []string{"TEST_ERROR :0 parse"}},
		{"a head that never closes is dropped", "1/2 Test #1: parse ....***Failed  Required regular expression not found. Regex=[a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n" +
			"2/2 Test #2: other .....***Failed    0.00 sec\nboom\n\n0% tests passed, 2 tests failed out of 2\n",
			Counts{Failed: 2}, []string{"TEST_ERROR :0 other"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			snap := fstest.MapFS{"test/test_json_mut_val.c": {}, "src/calc.c": {}}
			rep, err := Step(context.Background(), Input{
				Step:   &glv1.Step{Name: "ctest", Phase: glv1.Phase_PHASE_TEST, Command: "ctest"},
				Result: &glv1.StepResult{Status: glv1.StepStatus_STEP_STATUS_FAILED, ExitCode: 8},
				Log:    strings.NewReader(c.log), Files: snap,
			})
			if err != nil {
				t.Fatal(err)
			}
			if rep.Format != FormatCTest || rep.Counts != c.counts {
				t.Errorf("format %q counts %+v, want ctest %+v", rep.Format, rep.Counts, c.counts)
			}
			if got := failureLines(rep.Failures, 10); !slices.Equal(got, c.want) {
				t.Errorf("failures\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(c.want, "\n  "))
			}
		})
	}
}
