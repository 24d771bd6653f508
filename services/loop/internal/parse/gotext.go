package parse

import (
	"github.com/greenlight-dev/greenlight/pkg/lazyregexp"

	"bytes"
	"strconv"
	"strings"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

var (
	reGoTextResult = lazyregexp.New(`^\s*--- (PASS|FAIL|SKIP): (\S+) \(([\d.]+)s\)`)
	reGoTextPkg    = lazyregexp.New(`^(ok  |FAIL|\?   )\t(\S+)(?:\s+(\[build failed\]|\[setup failed\]|[\d.]+s|\(cached\)|\[no test files\]))?`)
	reGoRunning    = lazyregexp.New(`^\t\t(\S+) \(`)
)

// goTextParser reads plain `go test` output (-v or not). Without -v only
// failing tests are printed, so passing tests are not counted.
type goTextParser struct {
	lim   *Limits
	paths *Paths
	set   *testSet
	// pending holds the records of the package being printed: the package
	// name comes last, on the `ok`/`FAIL` line.
	pending  []*goTest
	results  map[*goTest]Status
	elapsed  map[*goTest]float64
	cur      *goTest
	running  bool
	pkgMsg   msgBuf
	pkgOff   int64
	timedOut bool
	stuck    []string
	// owner is the test the last location line printed after result
	// lines went to (ownerAfterResult); nil for the current test.
	owner *goTest
	// stack holds the last result line's test at each indentation depth:
	// go test prints a subtest's `--- ` line indented under its parent's,
	// the only reliable parent link when subtest names contain '/'.
	stack []*goTest
}

func newGoTextParser(lim *Limits, paths *Paths) *goTextParser {
	return &goTextParser{lim: lim, paths: paths, set: newTestSet(lim), results: map[*goTest]Status{},
		elapsed: map[*goTest]float64{}, pkgMsg: msgBuf{max: lim.MaxMessageBytes}, pkgOff: -1}
}

func (p *goTextParser) feed(ln line) {
	t := ln.text
	if len(t) == 0 {
		return
	}
	switch {
	case t[0] == '=' && hasPrefix(t, "=== RUN   "):
		p.set.seen = true
		p.cur, p.owner = p.test(string(bytes.TrimSpace(t[10:])), ln.off), nil
		return
	case t[0] == '=' && (hasPrefix(t, "=== NAME  ") || hasPrefix(t, "=== CONT  ")):
		// -v names the test whose output follows when it is not the one
		// that started last (a parent's t used inside a subtest, parallel
		// tests resuming).
		if name := string(bytes.TrimSpace(t[10:])); name != "" {
			p.cur, p.owner = p.test(name, ln.off), nil
		}
		return
	case t[0] == '=' && hasPrefix(t, "=== "):
		return
	case hasPrefix(t[leadingSpace(t):], "--- "): // reGoTextResult's `^\s*--- `
		if m := reGoTextResult.FindSubmatch(t); m != nil {
			p.set.seen = true
			g := p.test(string(m[2]), ln.off)
			st := map[string]Status{"PASS": StatusPassed, "FAIL": StatusFailed, "SKIP": StatusSkipped}[string(m[1])]
			if g.overflow {
				p.set.add(Test{ID: g.name, Name: g.name, Status: st, Offset: ln.off}) // counted, never buffered
				return
			}
			p.results[g] = st
			p.elapsed[g], _ = strconv.ParseFloat(string(m[3]), 64)
			p.nest(g, leadingSpace(t)/4, st)
			if st == StatusPassed {
				g.raw, g.tracked = nil, false // a passing test's output is never needed
			}
			p.cur, p.owner = g, nil
			return
		}
	}
	if p.packageLine(t, ln.off) {
		return
	}
	if string(t) == "FAIL" || string(t) == "PASS" {
		return
	}
	if t[0] == 'p' && hasPrefix(t, "panic: test timed out") {
		p.timedOut = true
		p.running = false
	}
	if mayTrimTo(t, 'r') && mayTrimFrom(t, ':') && string(bytes.TrimSpace(t)) == "running tests:" {
		p.running = true
	} else if p.running {
		if m := reGoRunning.FindSubmatch(t); m != nil {
			p.stuck = append(p.stuck, string(m[1]))
		} else {
			p.running = false
		}
	}
	if p.cur != nil {
		if _, done := p.results[p.cur]; done {
			if p.printedAfterResult(t) {
				p.pkgMsg.add(t)
				return
			}
			if g := p.ownerAfterResult(t); g != nil {
				g.out(t)
				return
			}
		}
		if p.results[p.cur] != StatusPassed {
			p.cur.out(t)
			return
		}
	}
	if p.pkgOff < 0 {
		p.pkgOff = ln.off
	}
	p.pkgMsg.add(t)
}

// ownerAfterResult returns the test an output line printed after result
// lines belongs to, nil for the current one. Without -v go test prints a
// parent's own t.Errorf lines in order among its subtests' result lines,
// indented one level deeper than the parent's result line: a line starting
// with a location (`    x_test.go:12: …`) belongs to the last result at
// the depth its indentation gives, and the lines continuing its message
// to the same test.
func (p *goTextParser) ownerAfterResult(t []byte) *goTest {
	if t[0] != ' ' {
		return nil
	}
	if bytes.Contains(t, []byte(".go:")) && reGoTestLoc.Match(t) {
		p.owner = nil
		if d := leadingSpace(t)/4 - 1; d >= 0 && d < len(p.stack) {
			p.owner = p.stack[d]
		}
	}
	return p.owner
}

// printedAfterResult reports whether t is a location an assertion library
// printed to stdout (reGoPrintedLoc) after the current test's result line.
// Without -v go test prints a test's t.Errorf lines after its `--- FAIL`
// line but lets stdout through at once, before it: such a line belongs to
// a test whose result is still to come, never to the one just reported.
func (p *goTextParser) printedAfterResult(t []byte) bool {
	if t[0] == ' ' || t[0] == '\t' || !bytes.Contains(t, []byte("_test.go:")) {
		return false
	}
	_, done := p.results[p.cur]
	return done && reGoPrintedLoc.Match(t)
}

// packageLine handles `ok  \tpkg\t0.1s` / `FAIL\tpkg [build failed]` lines.
func (p *goTextParser) packageLine(t []byte, off int64) bool {
	if !isGoPkgLine(t) {
		return false
	}
	m := reGoTextPkg.FindSubmatch(t)
	if m == nil || (len(m[3]) == 0 && !hasPrefix(t, "FAIL\t")) {
		return false
	}
	p.set.seen = true
	p.endPackage(string(m[1]), string(m[2]), string(m[3]), off)
	return true
}

// isGoPkgLine is a cheap test for go test's per-package result lines.
func isGoPkgLine(t []byte) bool {
	if len(t) < 5 || t[0] != 'o' && t[0] != 'F' && t[0] != '?' {
		return false
	}
	return hasPrefix(t, "ok  \t") || hasPrefix(t, "FAIL\t") || hasPrefix(t, "?   \t")
}

// test returns the pending record for name, creating it.
func (p *goTextParser) test(name string, off int64) *goTest {
	for _, g := range p.pending {
		if g.name == name {
			return g
		}
	}
	g := &goTest{name: name, off: off, tracked: true, rawMax: p.lim.MaxTestOutputBytes}
	if len(p.pending) >= p.lim.MaxTests+p.lim.MaxFailures {
		g.tracked, g.overflow = false, true
		return g
	}
	p.pending = append(p.pending, g)
	return g
}

// nest links a result line's test to its parent by indentation.
func (p *goTextParser) nest(g *goTest, depth int, st Status) {
	if depth > len(p.stack) || depth > maxTAPDepth {
		return
	}
	p.stack = append(p.stack[:depth], g)
	if depth == 0 {
		return
	}
	parent := p.stack[depth-1]
	if !hasPrefix([]byte(g.name), parent.name+"/") {
		return
	}
	g.parent, parent.hasSub = parent, true
	if st.failing() {
		parent.subFailed = true
	}
}

// endPackage attributes the pending records to pkg.
func (p *goTextParser) endPackage(kind, pkg, note string, off int64) {
	failed := false
	for _, g := range p.pending {
		g.pkg = pkg
		st, ok := p.results[g]
		if !ok {
			if kind != "FAIL" || p.hasUnfinishedSub(g) {
				continue
			}
			// Started (=== RUN) but no result line: the binary died.
			rec := g.record(StatusFailed, 0, p.paths, p.lim)
			p.fixFrames(&rec, pkg)
			rec.Message = unfinishedMessage(p.timedOut, rec.Message)
			rec.kind = glv1.FailureKind_FAILURE_KIND_CRASH
			if p.timedOut {
				rec.kind = glv1.FailureKind_FAILURE_KIND_TIMEOUT
			}
			p.set.unfinished(rec)
			failed = true
			continue
		}
		// A parent's outcome is its subtests' unless it failed on its own.
		if g.hasSub && !g.panicked && !(st == StatusFailed && !g.subFailed) {
			continue
		}
		rec := g.record(st, p.elapsed[g], p.paths, p.lim)
		p.fixFrames(&rec, pkg)
		if st.failing() {
			failed = true
			rec.kind = g.kind()
			g.fromParent(&rec, p.paths, p.lim)
			if p.timedOut {
				rec.kind = glv1.FailureKind_FAILURE_KIND_TIMEOUT
			}
		}
		p.set.add(rec)
	}
	switch {
	case note == "[build failed]" || note == "[setup failed]":
		p.set.add(Test{ID: pkg + " " + note, Suite: pkg, Name: note, Status: StatusError, Message: "package failed to build", Offset: off})
	case kind == "FAIL" && !failed:
		for _, s := range p.stuck {
			rec := Test{ID: pkg + "." + s, Suite: pkg, Name: s, Status: StatusFailed, Message: p.pkgMsg.String(), Offset: p.pkgOff}
			rec.kind = glv1.FailureKind_FAILURE_KIND_TIMEOUT
			p.set.add(rec)
			failed = true
		}
		if !failed {
			p.set.add(Test{ID: pkg + " [package failed]", Suite: pkg, Name: "[package failed]", Status: StatusError, Message: p.pkgMsg.String(), Offset: p.pkgOff})
		}
	}
	p.pending, p.cur, p.owner, p.timedOut, p.stuck, p.stack = p.pending[:0], nil, nil, false, nil, p.stack[:0]
	p.results, p.elapsed = map[*goTest]Status{}, map[*goTest]float64{}
	p.pkgMsg.reset()
	p.pkgOff = -1
}

// hasUnfinishedSub reports whether a test started under g (by name) also
// has no result: then g is its parent, not a test of its own. Only tests
// that printed `=== RUN` are pending, so no parent is invented from a name.
func (p *goTextParser) hasUnfinishedSub(g *goTest) bool {
	for _, o := range p.pending {
		if _, ok := p.results[o]; !ok && len(o.name) > len(g.name) && strings.HasPrefix(o.name, g.name+"/") {
			return true
		}
	}
	return false
}

// fixFrames resolves test-relative file names now that the package is known.
func (p *goTextParser) fixFrames(rec *Test, pkg string) {
	for i := range rec.Frames {
		f := &rec.Frames[i]
		if f.Project && !strings.Contains(f.File, "/") {
			f.File = p.paths.GoFile(pkg, f.File)
		} else if f.Project && p.paths.Workdir != "" && strings.HasPrefix(f.File, p.paths.Workdir+"/") && !strings.Contains(strings.TrimPrefix(f.File, p.paths.Workdir+"/"), "/") {
			f.File = p.paths.GoFile(pkg, strings.TrimPrefix(f.File, p.paths.Workdir+"/"))
		}
	}
	if f, ok := firstProject(rec.Frames); ok {
		rec.File, rec.Line = f.File, f.Line
	}
}
