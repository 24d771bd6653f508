package parse

import (
	"fmt"
	"regexp"
	"testing"
)

// The regular expressions the hand-written matchers of pymatch.go replace:
// they are the specification, and the matchers must agree with them on
// every input.
var (
	refPyFrame        = regexp.MustCompile(`^\s*File "([^"]+)", line (\d+),? in (.+)$`)
	refPytestFrame    = regexp.MustCompile(`^([^\s:"'()]+\.py):(\d+):(?: (?:in (\S+))?.*)?$`)
	refPytestCounts   = regexp.MustCompile(`(\d+) (passed|failed|skipped|errors?|xfailed|xpassed|deselected|warnings?|rerun)`)
	refPytestQuiet    = regexp.MustCompile(`^(?:\d+ (?:passed|failed|skipped|errors?|xfailed|xpassed|deselected|warnings?|rerun)(?:, )?)+ in [\d.]+s`)
	refPytestProgress = regexp.MustCompile(`^(\S+\.py) ([.sFExX]*)(?:\s+\[\s*\d+%\])?$`)
	refPytestCrashed  = regexp.MustCompile(`^(\S+\.py) ([.sFExX]*)(Fatal Python error: .*)$`)
)

// pyMatchSeeds are real lines and near misses for every matcher.
var pyMatchSeeds = []string{
	`  File "/workspace/api/app/calc.py", line 9, in div`,
	`File "/usr/lib/python3.11/x.py", line 12 in <module>`,
	`  File "", line 9, in div`,
	`  File "a.py", line , in div`,
	`  File "a.py", line 9, in `,
	`  File "a.py", line 9,, in f`,
	"\t\fFile \"a\nb\", line 1 in f",
	`x File "a.py", line 9, in div`,
	`app/calc.py:16: in mean`,
	`app/calc.py:9: ZeroDivisionError`,
	`tests/test_calc.py:28: `,
	`tests/test_calc.py:28:`,
	`tests/test_calc.py:28:x`,
	`tests/test_calc.py:28: in `,
	`tests/test_calc.py:28: in  f`,
	"tests/test_calc.py:28: in f\tg",
	"tests/test_calc.py:28: x\ny",
	`.py:1: in f`,
	`a.py:1: in f`,
	`a b.py:1: in f`,
	`a(b).py:1: in f`,
	`a.pyc:1: in f`,
	`a.py:x:1: in f`,
	"é\xff.py:12: in f\xfe",
	`==================== 2 failed, 4 passed, 1 skipped in 0.02s ====================`,
	`2 failed, 4 passed, 1 skipped in 0.02s`,
	`1 passed,  in 0.1s`,
	`1 passed2 failed in 1s`,
	`1 errors, 2 warnings in 3.5s`,
	`1 error in 3s`,
	`12 passed in s`,
	`1 rerunning, 3 xfailed, 4 xpassedx in .s`,
	`1 passed, 2 deselected in 0.0s (0:00:00)`,
	`99999999999999999999999 passed in 1s`,
	`a12 passed 3 failedx 4  passed 5 errorsrerun`,
	`no tests ran in 0.01s`,
	`tests/test_calc.py ...sFF.                                               [100%]`,
	`tests/test_calc.py ...sFF.`,
	`tests/test_calc.py `,
	`tests/test_calc.py ..F Fatal Python error: x`,
	`tests/test_calc.py ..FFatal Python error: Segmentation fault`,
	`tests/test_calc.py Fatal Python error: Aborted`,
	`tests/test_calc.py ..Fatal Python error: x`,
	"tests/test_calc.py .. [ 5%]",
	"tests/test_calc.py ..\t[5 %]",
	"tests/test_calc.py ..[5%]",
	"tests/test_calc.py .. [5%] ",
	"tests/x.py\t.. [5%]",
	"é.py .x [\f 50%]",
}

func TestPyMatchersAgreeWithRegexes(t *testing.T) {
	for _, s := range pyMatchSeeds {
		checkPyMatchers(t, []byte(s))
	}
}

func FuzzPyMatchers(f *testing.F) {
	for _, s := range pyMatchSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) { checkPyMatchers(t, b) })
}

// checkPyMatchers compares every matcher with its regex on b.
func checkPyMatchers(t *testing.T, b []byte) {
	t.Helper()
	groups := func(m [][]byte) string {
		if m == nil {
			return "no match"
		}
		return fmt.Sprintf("%q", m[1:])
	}
	agree := func(what string, got, want string) {
		t.Helper()
		if got != want {
			t.Fatalf("%s(%q) = %s, regex says %s", what, b, got, want)
		}
	}
	if file, n, fn, ok := matchPyFrame(b); ok {
		agree("matchPyFrame", groups([][]byte{nil, file, n, fn}), groups(refPyFrame.FindSubmatch(b)))
	} else {
		agree("matchPyFrame", "no match", groups(refPyFrame.FindSubmatch(b)))
	}
	if file, n, fn, ok := matchPytestFrame(b); ok {
		// FindSubmatch reports an unmatched optional group as nil, like fn.
		agree("matchPytestFrame", groups([][]byte{nil, file, n, fn}), groups(refPytestFrame.FindSubmatch(b)))
	} else {
		agree("matchPytestFrame", "no match", groups(refPytestFrame.FindSubmatch(b)))
	}
	var got [][]byte
	n := eachPytestCount(b, func(num, word []byte) { got = append(got, num, word) })
	var want [][]byte
	for _, m := range refPytestCounts.FindAllSubmatch(b, -1) {
		want = append(want, m[1], m[2])
	}
	agree("eachPytestCount", fmt.Sprintf("%d %q", n, got), fmt.Sprintf("%d %q", len(want)/2, want))
	agree("matchPytestQuiet", fmt.Sprint(matchPytestQuiet(b)), fmt.Sprint(refPytestQuiet.Match(b)))
	wantProg := refPytestProgress.FindSubmatch(b)
	if wantProg != nil {
		wantProg = append(wantProg, nil)
	} else if m := refPytestCrashed.FindSubmatch(b); m != nil {
		wantProg = m
	}
	if file, marks, fatal, ok := pytestProgress(b); ok {
		agree("pytestProgress", groups([][]byte{nil, file, marks, fatal}), groups(wantProg))
	} else {
		agree("pytestProgress", "no match", groups(wantProg))
	}
}

// TestPyMatchersAllocateNothing guards the point of the hand-written
// matchers: matching a line costs no allocation.
func TestPyMatchersAllocateNothing(t *testing.T) {
	lines := [][]byte{
		[]byte(`app/calc.py:16: in mean`),
		[]byte(`  File "/workspace/api/app/calc.py", line 9, in div`),
		[]byte(`2 failed, 4 passed, 1 skipped in 0.02s`),
		[]byte(`tests/test_calc.py ...sFF.                                               [100%]`),
	}
	var sink int
	allocs := testing.AllocsPerRun(100, func() {
		for _, l := range lines {
			if _, n, _, ok := matchPytestFrame(l); ok {
				sink += atoi(n)
			}
			if _, n, _, ok := matchPyFrame(l); ok {
				sink += atoi(n)
			}
			sink += eachPytestCount(l, func(num, _ []byte) { sink += atoi(num) })
			if matchPytestQuiet(l) {
				sink++
			}
			if _, marks, _, ok := pytestProgress(l); ok {
				sink += len(marks)
			}
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations per run, want 0", allocs)
	}
	if sink == 0 {
		t.Error("no line matched")
	}
}

// TestPytestCountsLine checks the summary counts parsed from real lines.
func TestPytestCountsLine(t *testing.T) {
	for _, tc := range []struct {
		line string
		want Counts
	}{
		{"2 failed, 4 passed, 1 skipped in 0.02s", Counts{Passed: 4, Failed: 2, Skipped: 1}},
		{"1 failed, 2 passed, 1 xfailed, 1 xpassed, 3 errors, 2 warnings in 1.1s", Counts{Passed: 3, Failed: 1, Skipped: 1, Errors: 3}},
		{"no tests ran in 0.01s", Counts{}},
	} {
		p := newPytestParser(&Limits{}, NewPaths("", "", nil))
		p.counts([]byte(tc.line))
		if p.set.summary == nil || *p.set.summary != tc.want || !p.set.seen {
			t.Errorf("counts(%q) = %+v, want %+v", tc.line, p.set.summary, tc.want)
		}
	}
}
