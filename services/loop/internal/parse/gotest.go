package parse

import (
	"github.com/greenlight-dev/greenlight/pkg/lazyregexp"

	"bytes"
	"path"
	"sort"
	"strconv"
	"strings"
	"time"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

var (
	// reGoTestLoc matches the location prefix go test prints before
	// t.Errorf/t.Log text: `    calc_test.go:37: Add(2, 2) = 4, want 5`.
	reGoTestLoc = lazyregexp.New(`^\s+([\w.\-/]+\.go):(\d+): `)
	// reGoPrintedLoc matches a location an assertion library prints itself
	// at the start of the line, the caller's test file and line then the
	// message (go-playground/assert: `fmt.Printf("%s:%d %v does not equal
	// %v\n", path.Base(file), line, …)` before t.FailNow):
	// `validator_test.go:411 <nil> should not be equal <nil>`. Only test
	// files count: a column-0 `x.go:12: …` is as often a log line of the
	// code under test (log.Lshortfile).
	reGoPrintedLoc = lazyregexp.New(`^([\w.\-/]+_test\.go):(\d+)(?::? |:?$)`)
)

// goTest is the state of one running test, shared by the JSON and text
// parsers. Its output is buffered raw (capped) and only analyzed when the
// test fails or is skipped: passing tests cost a copy, not a parse.
type goTest struct {
	pkg, name string
	raw       []byte
	rawMax    int
	rawCut    bool
	off       int64
	panicked  bool
	timedOut  bool
	hasSub    bool
	parent    *goTest
	failedSub string // ID of the last failing subtest
	subFailed bool
	tracked   bool // false when over the buffer budget: counted, no message
	overflow  bool // over the record cap of the text parser: counted at once
}

// out consumes one line of the test's output.
func (g *goTest) out(t []byte) {
	if len(t) > 7 && t[0] == 'p' && hasPrefix(t, "panic: ") {
		if hasPrefix(t, "panic: test timed out") {
			g.timedOut = true
		} else {
			g.panicked = true
		}
	} else if len(t) > 12 && t[0] == 'f' && hasPrefix(t, "fatal error: ") {
		g.panicked = true
	}
	if !g.tracked {
		return
	}
	if len(g.raw)+len(t)+1 > g.rawMax {
		g.rawCut = true
		return
	}
	g.raw = append(append(g.raw, t...), '\n')
}

// analyze extracts the message and frames from the buffered output.
func (g *goTest) analyze(paths *Paths, lim *Limits) (string, []Frame) {
	msg := msgBuf{max: lim.MaxMessageBytes}
	frames := frameList{max: lim.MaxFrames}
	fp := frameParser{paths: paths}
	inPanic := false
	for _, t := range bytes.Split(g.raw, []byte("\n")) {
		if hasPrefix(t, "=== ") || hasPrefix(t, "--- ") || len(t) == 0 {
			continue
		}
		if f, ok := fp.parse(t, false); ok {
			frames.add(f)
			continue
		}
		if bytes.Contains(t, []byte(".go:")) {
			m := reGoPrintedLoc.FindSubmatch(t)
			if t[0] == ' ' || t[0] == '\t' {
				m = reGoTestLoc.FindSubmatch(t)
			}
			if m != nil {
				n, _ := strconv.Atoi(string(m[2]))
				file := paths.GoFile(g.pkg, string(m[1]))
				frames.add(Frame{File: file, Line: n, Project: !goTestingPkgLoc(paths, file)})
			}
		}
		isPanic := hasPrefix(t, "panic: ") || hasPrefix(t, "fatal error: ")
		inPanic = inPanic || isPanic
		if inPanic && !isPanic && !hasPrefix(t, "\t\t") {
			continue // goroutine dumps are kept as frames, not as message text
		}
		msg.add(bytes.TrimSpace(t))
	}
	if g.rawCut {
		msg.add([]byte("… [test output cut]"))
	}
	return msg.String(), frames.frames
}

// goTestingPkgLoc reports whether a location is the testing package's own
// (`testing.go:1913: test executed panic(nil) or runtime.Goexit: subtest may
// have called FailNow on a parent test`): the toolchain's testing.go, which
// the workspace does not have, never the place a test failed.
func goTestingPkgLoc(paths *Paths, file string) bool {
	return path.Base(file) == "testing.go" && !paths.Exists(file)
}

// record builds the test record.
func (g *goTest) record(st Status, elapsed float64, paths *Paths, lim *Limits) Test {
	t := Test{
		ID: g.pkg + "." + g.name, Suite: g.pkg, Name: g.name, Status: st, Offset: g.off,
		Duration: time.Duration(elapsed * float64(time.Second)),
	}
	if st.failing() || st == StatusSkipped {
		t.Message, t.Frames = g.analyze(paths, lim)
		if f, ok := firstProject(t.Frames); ok {
			t.File, t.Line = f.File, f.Line
		}
	}
	return t
}

// parentFailNow is the end of the testing package's message for a subtest
// whose goroutine its parent's t.FailNow ended (the parent's t used inside
// the subtest): `testing.go:1913: test executed panic(nil) or
// runtime.Goexit: subtest may have called FailNow on a parent test`.
const parentFailNow = "called FailNow on a parent test"

// fromParent gives a failing subtest that carries nothing but that message
// its parent's own failure, which is the assertion that ended it: the
// parent's output holds the message and the place, the subtest's only the
// testing package's note.
func (g *goTest) fromParent(rec *Test, paths *Paths, lim *Limits) {
	if g.parent == nil || rec.File != "" || !strings.Contains(rec.Message, parentFailNow) {
		return
	}
	msg, frames := g.parent.analyze(paths, lim)
	f, ok := firstProject(frames)
	if !ok {
		return
	}
	rec.File, rec.Line = f.File, f.Line
	rec.Message = joinLines(msg, rec.Message)
	rec.Frames = append(frames, rec.Frames...)
}

// kind classifies a failed Go test.
func (g *goTest) kind() glv1.FailureKind {
	switch {
	case g.timedOut:
		return glv1.FailureKind_FAILURE_KIND_TIMEOUT
	case g.panicked:
		return glv1.FailureKind_FAILURE_KIND_CRASH
	}
	return glv1.FailureKind_FAILURE_KIND_TEST_ASSERTION
}

// goTests tracks running tests with a memory budget. A subtest's parent is
// the running test it was started under, never derived by cutting its name
// at '/': t.Run("a/b", …) names a subtest "TestX/a/b" whose parent is TestX,
// and "TestX/a" does not exist.
type goTests struct {
	lim    *Limits
	paths  *Paths
	open   map[string]*goTest
	budget int
}

func newGoTests(lim *Limits, paths *Paths) *goTests {
	return &goTests{lim: lim, paths: paths, open: map[string]*goTest{}, budget: lim.MaxBufferedBytes}
}

func goKey(pkg, name string) string { return pkg + "\x00" + name }

// get returns the running test, starting it when unknown.
func (gs *goTests) get(pkg, name string, off int64) *goTest {
	k := goKey(pkg, name)
	if g, ok := gs.open[k]; ok {
		return g
	}
	g := &goTest{pkg: pkg, name: name, off: off, rawMax: gs.lim.MaxTestOutputBytes}
	if gs.budget >= gs.lim.MaxTestOutputBytes {
		g.tracked = true
		gs.budget -= gs.lim.MaxTestOutputBytes
	}
	if g.parent = gs.runningParent(pkg, name); g.parent != nil {
		g.parent.hasSub = true
	}
	gs.open[k] = g
	return g
}

// runningParent is the longest running test of pkg whose name, followed by
// '/', starts name: the test that called t.Run (subtests run inside their
// parent, so it is still open).
func (gs *goTests) runningParent(pkg, name string) *goTest {
	for i := len(name) - 1; i > 0; i-- {
		if name[i] != '/' {
			continue
		}
		if p, ok := gs.open[goKey(pkg, name[:i])]; ok {
			return p
		}
	}
	return nil
}

// end finishes a test and adds it to set unless it is a parent whose
// subtests already account for its outcome.
func (gs *goTests) end(set *testSet, pkg, name string, st Status, elapsed float64) {
	k := goKey(pkg, name)
	g, ok := gs.open[k]
	if !ok {
		g = gs.get(pkg, name, -1)
	}
	gs.close(k, g)
	if g.parent != nil && st.failing() {
		g.parent.subFailed, g.parent.failedSub = true, g.pkg+"."+g.name
		if g.failedSub != "" {
			g.parent.failedSub = g.failedSub // the innermost failing test holds the record
		}
	}
	if g.hasSub && (st != StatusFailed || g.subFailed) && !g.panicked && !g.timedOut {
		return
	}
	rec := g.record(st, elapsed, gs.paths, gs.lim)
	if st.failing() {
		rec.kind = g.kind()
		g.fromParent(&rec, gs.paths, gs.lim)
	}
	if g.subFailed && gs.foldIntoSub(set, g.failedSub, rec) {
		return
	}
	set.add(rec)
}

// foldIntoSub gives a panicking parent's output to the failing subtest that
// printed nothing: the panic of a subtest is reported under the top-level
// test ("[recovered, repanicked]"), but it is the subtest that crashed.
func (gs *goTests) foldIntoSub(set *testSet, id string, parent Test) bool {
	return set.updateFailing(id, func(t *Test) {
		if t.Message != "" && t.Message != parent.Message {
			return
		}
		t.Message, t.Frames, t.File, t.Line, t.kind = parent.Message, parent.Frames, parent.File, parent.Line, parent.kind
	})
}

func (gs *goTests) close(k string, g *goTest) {
	delete(gs.open, k)
	if g.tracked {
		gs.budget += gs.lim.MaxTestOutputBytes
	}
}

// failPackage handles the tests of pkg still running when its binary died
// (panic, os.Exit, timeout) and reports whether there were any. Each one
// that started but never reported an outcome is counted as failed and
// unfinished; a parent is not counted when its subtests carry the outcome.
// Tests that had not started yet are unknown: the message says so.
func (gs *goTests) failPackage(set *testSet, pkg, pkgOut string) bool {
	return gs.unfinished(set, gs.left(pkg), pkgOut, false)
}

// streamEnded handles the tests still running when the log ended without
// their package's result: go test itself was killed (the step's deadline,
// out of memory) or the log was cut.
func (gs *goTests) streamEnded(set *testSet) {
	gs.unfinished(set, gs.left(""), "", true)
}

// drop forgets the running tests of a package that passed (none are left
// in a well-formed stream; this keeps a malformed one from leaking them).
func (gs *goTests) drop(pkg string) {
	for _, g := range gs.left(pkg) {
		gs.close(goKey(g.pkg, g.name), g)
	}
}

// left lists the running tests of pkg ("" for every package), deepest
// first (a subtest's name is longer than its parent's), then by name.
func (gs *goTests) left(pkg string) []*goTest {
	var left []*goTest
	for _, g := range gs.open {
		if pkg == "" || g.pkg == pkg {
			left = append(left, g)
		}
	}
	sort.Slice(left, func(i, j int) bool {
		a, b := left[i], left[j]
		if a.pkg != b.pkg {
			return a.pkg < b.pkg
		}
		if len(a.name) != len(b.name) {
			return len(a.name) > len(b.name)
		}
		return a.name < b.name
	})
	return left
}

// unfinished records the tests in left as failed and unfinished, except
// parents whose subtests carry the outcome; it reports whether any was.
func (gs *goTests) unfinished(set *testSet, left []*goTest, pkgOut string, ended bool) bool {
	timedOut := false
	for _, g := range left {
		timedOut = timedOut || g.timedOut
	}
	any := false
	for _, g := range left {
		gs.close(goKey(g.pkg, g.name), g)
		if g.hasSub && !g.panicked && !g.timedOut {
			continue
		}
		any = true
		rec := g.record(StatusFailed, 0, gs.paths, gs.lim)
		out := joinLines(rec.Message, pkgOut)
		switch {
		case ended && !timedOut:
			rec.Message = joinLines(notFinishedEnded, out)
			rec.kind = glv1.FailureKind_FAILURE_KIND_TEST_ERROR
		case timedOut:
			rec.Message = unfinishedMessage(true, out)
			rec.kind = glv1.FailureKind_FAILURE_KIND_TIMEOUT
		default:
			rec.Message = unfinishedMessage(false, out)
			rec.kind = glv1.FailureKind_FAILURE_KIND_CRASH
		}
		set.unfinished(rec)
	}
	return any
}

// notFinishedEnded explains a test whose package never reported a result.
const notFinishedEnded = "did not finish: the output ended before this test or its package reported a result (go test was killed or its log was cut)"

// unfinishedMessage explains a test that started but never reported an
// outcome, followed by what it printed.
func unfinishedMessage(timedOut bool, out string) string {
	why := "did not finish: the test binary exited (crash or os.Exit) before this test reported a result; tests after it did not run"
	if timedOut {
		why = "did not finish: the test binary timed out while this test was running; tests after it did not run"
	}
	return joinLines(why, out)
}

// joinLines joins two messages with a newline, skipping empty ones.
func joinLines(a, b string) string {
	if a == "" || b == "" {
		return a + b
	}
	return a + "\n" + b
}
