package parse

import (
	"bytes"
	"regexp"
	"strconv"
	"time"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// reGoTestLoc matches the location prefix go test prints before t.Errorf/t.Log
// text: `    calc_test.go:37: Add(2, 2) = 4, want 5`.
var reGoTestLoc = regexp.MustCompile(`^\s+([\w.\-/]+\.go):(\d+): `)

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
		if t[0] == ' ' && bytes.Contains(t, []byte(".go:")) {
			if m := reGoTestLoc.FindSubmatch(t); m != nil {
				n, _ := strconv.Atoi(string(m[2]))
				frames.add(Frame{File: paths.GoFile(g.pkg, string(m[1])), Line: n, Project: true})
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

// goTests tracks running tests with a memory budget.
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
	gs.open[k] = g
	if i := bytes.LastIndexByte([]byte(name), '/'); i > 0 {
		parent := gs.get(pkg, name[:i], off)
		parent.hasSub = true
	}
	return g
}

// end finishes a test and adds it to set unless it is a parent whose
// subtests already account for its outcome.
func (gs *goTests) end(set *testSet, pkg, name string, st Status, elapsed float64) {
	k := goKey(pkg, name)
	g, ok := gs.open[k]
	if !ok {
		g = gs.get(pkg, name, -1)
	}
	delete(gs.open, k)
	if g.tracked {
		gs.budget += gs.lim.MaxTestOutputBytes
	}
	if i := bytes.LastIndexByte([]byte(name), '/'); i > 0 && st.failing() {
		if p, ok := gs.open[goKey(pkg, name[:i])]; ok {
			p.subFailed = true
		}
	}
	if g.hasSub && (st != StatusFailed || g.subFailed) && !g.panicked && !g.timedOut {
		return
	}
	rec := g.record(st, elapsed, gs.paths, gs.lim)
	if st.failing() {
		rec.kind = g.kind()
	}
	set.add(rec)
}

// failPackage fails every test of pkg still running (the binary died:
// panic, timeout or os.Exit) and reports whether there were any.
func (gs *goTests) failPackage(set *testSet, pkg string) bool {
	var names []string
	for _, g := range gs.open {
		if g.pkg == pkg {
			names = append(names, g.name)
		}
	}
	// Deepest first so parents see their subtests' failures.
	sortByDepth(names)
	any := false
	for _, n := range names {
		if g, ok := gs.open[goKey(pkg, n)]; ok {
			if !g.hasSub || g.panicked || g.timedOut {
				any = true
			}
			gs.end(set, pkg, n, StatusFailed, 0)
		}
	}
	return any
}

// sortByDepth orders test names by descending number of '/' (insertion sort: short lists).
func sortByDepth(names []string) {
	depth := func(s string) int { return bytes.Count([]byte(s), []byte("/")) }
	for i := 1; i < len(names); i++ {
		for j := i; j > 0 && (depth(names[j]) > depth(names[j-1]) || (depth(names[j]) == depth(names[j-1]) && names[j] < names[j-1])); j-- {
			names[j], names[j-1] = names[j-1], names[j]
		}
	}
}
