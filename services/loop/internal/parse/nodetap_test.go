package parse

import (
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"testing"
)

// TestTAPNestedCountedLikeTap: TAP 14 nesting is followed to the leaves,
// each counted once; node-tap's "# time=" directive is no part of a name,
// points without a description get their number, SKIP/TODO are any case,
// and a nested YAML key (type under at:) is not the point's own.
func TestTAPNestedCountedLikeTap(t *testing.T) {
	for _, c := range []struct {
		name, log string
		counts    Counts
		failing   []string
		msg       string
	}{
		{"parents with time directives are not tests", `TAP version 14
# Subtest: test/a.js
    # Subtest: group
        ok 1 - leaf one
        ok 2
        1..2
    ok 1 - group # time=3.1ms
    ok 2 - pending thing # skip not yet
    ok 3 - later # todo
    1..3
ok 1 - test/a.js # time=9ms
1..1
`, Counts{Passed: 2, Skipped: 2}, nil, ""},
		{"a failing leaf is named by its path", `TAP version 14
# Subtest: test/a.js
    # Subtest: group
        not ok 1 - should be equal
          ---
          found: 1
          wanted: 2
          at:
            line: 3
            column: 5
            file: test/a.js
            type: suite
          stack: |
            Test.<anonymous> (test/a.js:3:5)
          ...
        1..1
        # failed 1 test
    not ok 1 - group # time=3.1ms
    1..1
not ok 1 - test/a.js # time=9ms
1..1
# failed 1 of 1 tests
`, Counts{Failed: 1}, []string{"test/a.js > group > should be equal"}, "should be equal: found 1, wanted 2"},
		{"a killed file whose subtest never closed counts its failing leaf only", `TAP version 14
# Subtest: test/k.js
    # Subtest: fine
        ok 1 - a
        1..1
    ok 1 - fine
    # Subtest: hangs
        not ok 1 - waits
          ---
          found:
            !error
            message: timeout!
          ...
not ok 1 - test/k.js # time=30001ms
  ---
  signal: SIGTERM
  timeout: 30000
  ...
1..1
`, Counts{Passed: 1, Failed: 1}, []string{"test/k.js > hangs > waits"}, "waits: timeout!"},
		{"a file that fails with no failing assertion counts once", `TAP version 14
# Subtest: test/b.js
    ok 1 - fine
    1..1
not ok 1 - test/b.js # time=30001ms
  ---
  signal: SIGTERM
  ...
1..1
`, Counts{Passed: 1, Failed: 1}, []string{"test/b.js"}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			rep := parseText(t, c.log)
			if rep.Format != FormatNodeTAP || rep.Counts != c.counts {
				t.Errorf("format %q counts %+v, want %q %+v", rep.Format, rep.Counts, FormatNodeTAP, c.counts)
			}
			var got []string
			for _, f := range rep.Failures {
				if f.Test != "" {
					got = append(got, f.Test)
				}
			}
			if !slices.Equal(got, c.failing) {
				t.Errorf("failing tests %q, want %q", got, c.failing)
			}
			if c.msg != "" && (len(rep.Failures) == 0 || rep.Failures[0].Message != c.msg) {
				t.Errorf("failures %+v, want the message %q", rep.Failures, c.msg)
			}
		})
	}
}

// TestTAPNodeSemver: tap's raw output on the real node-semver is counted
// as tap's own summary counts it (see testdata/realworld/README.md).
func TestTAPNodeSemver(t *testing.T) {
	f, err := os.Open("testdata/realworld/node-semver-pass.tap.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	pass, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	if rep := parseText(t, string(pass)); rep.Format != FormatNodeTAP || rep.Counts != (Counts{Passed: 9182}) {
		t.Errorf("node-semver: format %q counts %+v, want tap's 9182 passing", rep.Format, rep.Counts)
	}
	fail, err := os.ReadFile("testdata/realworld/node-semver-fail.tap")
	if err != nil {
		t.Fatal(err)
	}
	rep := parseText(t, string(fail))
	if rep.Counts != (Counts{Passed: 14, Failed: 2}) {
		t.Errorf("counts %+v, want tap's 14 passing, 2 failing", rep.Counts)
	}
	want := []string{
		"test/functions/valid.js:16 test/functions/valid.js > validate a version into a SemVer object > should be equal",
		"test/functions/valid.js:25 test/functions/valid.js > long build id > boom",
	}
	var got []string
	for _, f := range rep.Failures {
		got = append(got, fmt.Sprintf("%s:%d %s", f.File, f.Line, f.Test))
	}
	if !slices.Equal(got, want) {
		t.Errorf("failures %q, want %q", got, want)
	}
}

// TestTAPTimeoutNamed: in a file tap killed at its per-file timeout, the
// assertion left waiting is a TIMEOUT with tap's messages, and the file's
// own failure is not counted again although the subtest between them never
// printed its point.
func TestTAPTimeoutNamed(t *testing.T) {
	b, err := os.ReadFile("testdata/realworld/node-semver-timeout.tap")
	if err != nil {
		t.Fatal(err)
	}
	rep := parseText(t, string(b))
	// The killed file's own failure is its unfinished subtest's: tap
	// counts the file once, as that failing assertion.
	if rep.Counts != (Counts{Passed: 9, Failed: 1}) {
		t.Errorf("counts %+v, want tap's 9 passing, 1 failing", rep.Counts)
	}
	want := []string{"TIMEOUT test/bin/semver.js > help output > -h: -h: error thrown while awaiting Promise; timeout!"}
	var got []string
	for _, f := range rep.Failures {
		got = append(got, strings.TrimPrefix(f.Kind.String(), "FAILURE_KIND_")+" "+f.Test+": "+f.Message)
	}
	if !slices.Equal(got, want) {
		t.Errorf("failures\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

// TestTAPWorkspaceStreams: the prefixes of turbo and yarn workspaces
// foreach split an interleaved log into members like pnpm's (the golden
// pnpm-recursive cases); a prefixed line that never opens TAP is left
// alone.
func TestTAPWorkspaceStreams(t *testing.T) {
	for _, c := range []struct{ name, log, failing string }{
		{"turbo", "@ws/a:test: TAP version 13\n@ws/b:test: TAP version 13\n@ws/a:test: # Subtest: x\n@ws/b:test: not ok 1 - y\n" +
			"@ws/a:test:     ok 1 - leaf\n@ws/a:test:     1..1\n@ws/a:test: ok 1 - x\n@ws/b:test: 1..1\n@ws/a:test: 1..1\n", "@ws/b > y"},
		{"yarn foreach", "[@ws/a]: TAP version 13\n[@ws/b]: TAP version 13\n[@ws/a]: # Subtest: x\n[@ws/b]: not ok 1 - y\n" +
			"[@ws/a]:     ok 1 - leaf\n[@ws/a]:     1..1\n[@ws/a]: ok 1 - x\nnote: not a stream\n", "@ws/b > y"},
	} {
		t.Run(c.name, func(t *testing.T) {
			rep := parseText(t, c.log)
			if rep.Format != FormatNodeTAP || rep.Counts != (Counts{Passed: 1, Failed: 1}) {
				t.Errorf("format %q counts %+v, want node-tap 1 passed 1 failed", rep.Format, rep.Counts)
			}
			if len(rep.Failures) == 0 || rep.Failures[0].Test != c.failing {
				t.Errorf("failures %+v, want %q", rep.Failures, c.failing)
			}
		})
	}
}
