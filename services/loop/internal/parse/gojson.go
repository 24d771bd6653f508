package parse

import (
	"bytes"
	"strconv"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// goJSONParser reads `go test -json` (test2json) events.
type goJSONParser struct {
	set   *testSet
	tests *goTests
	paths *Paths
	diag  *diagParser
	dec   flatDecoder
	// pkgOut keeps the package-level output of failing packages (no test attached).
	pkgOut map[string]*msgBuf
	pkgOff map[string]int64
	lim    *Limits
	fp     frameParser
	last   *goTest
}

func newGoJSONParser(lim *Limits, paths *Paths) *goJSONParser {
	p := &goJSONParser{
		set: newTestSet(lim), tests: newGoTests(lim, paths), paths: paths, lim: lim,
		diag:   newDiagParser(paths, glv1.Phase_PHASE_BUILD, lim),
		pkgOut: map[string]*msgBuf{}, pkgOff: map[string]int64{},
	}
	p.fp.paths = paths
	return p
}

// consume handles a test2json event and reports whether the line was one
// (then no other parser needs to see it).
func (p *goJSONParser) consume(ln line) bool {
	t := ln.text
	if len(t) < 12 || t[0] != '{' || !bytes.Contains(t[:min(len(t), 64)], []byte(`"Action"`)) && !hasPrefix(t, `{"ImportPath"`) {
		return false
	}
	if !p.dec.decode(t) {
		return false
	}
	action := p.dec.get("Action")
	if action == nil {
		return false
	}
	p.event(ln, action)
	return true
}

// event applies one decoded test2json event.
func (p *goJSONParser) event(ln line, action []byte) {
	p.set.seen = true
	pkgB := p.dec.get("Package")
	test := p.dec.get("Test")
	switch string(action) {
	case "output":
		out := bytes.TrimRight(p.dec.get("Output"), "\n")
		if test != nil {
			p.running(pkgB, test, ln.off).out(out)
			return
		}
		if len(out) > 0 && !isGoPkgLine(out) && string(out) != "PASS" {
			p.packageOutput(string(pkgB), out, ln.off)
		}
	case "run":
		p.running(pkgB, test, ln.off)
	case "pass", "fail", "skip":
		st := map[string]Status{"pass": StatusPassed, "fail": StatusFailed, "skip": StatusSkipped}[string(action)]
		el, _ := strconv.ParseFloat(string(p.dec.get("Elapsed")), 64)
		p.last = nil
		if test != nil {
			p.tests.end(p.set, string(pkgB), string(test), st, el)
			return
		}
		if st == StatusFailed {
			p.failPackage(string(pkgB), ln.off)
		} else {
			p.tests.drop(string(pkgB))
		}
	case "build-output":
		out := bytes.TrimRight(p.dec.get("Output"), "\n")
		for _, l := range bytes.Split(out, []byte("\n")) {
			p.diag.feed(line{text: l, off: ln.off})
		}
	}
}

// running returns the running test, reusing the previous event's test when
// it is the same one (consecutive output lines) to avoid building map keys.
func (p *goJSONParser) running(pkg, test []byte, off int64) *goTest {
	if g := p.last; g != nil && string(test) == g.name && string(pkg) == g.pkg {
		return g
	}
	p.last = p.tests.get(string(pkg), string(test), off)
	return p.last
}

// packageOutput keeps a bounded amount of package-level output.
func (p *goJSONParser) packageOutput(pkg string, out []byte, off int64) {
	if hasPrefix(out, "ok  \t") || hasPrefix(out, "?   \t") || string(out) == "PASS" {
		return
	}
	m, ok := p.pkgOut[pkg]
	if !ok {
		if len(p.pkgOut) >= p.lim.MaxFailures {
			return
		}
		m = &msgBuf{max: p.lim.MaxMessageBytes}
		p.pkgOut[pkg] = m
		p.pkgOff[pkg] = off
	}
	m.add(out)
}

// failPackage records a failed package: a build failure (the
// FailedBuild field), tests still running when the binary died, or a
// failure outside any test (TestMain, init).
func (p *goJSONParser) failPackage(pkg string, off int64) {
	if fb := p.dec.get("FailedBuild"); fb != nil {
		p.set.add(Test{ID: pkg + " [build failed]", Suite: pkg, Name: "[build failed]", Status: StatusError,
			Message: "package failed to build: " + string(fb), Offset: off})
		return
	}
	msg := ""
	if m := p.pkgOut[pkg]; m != nil {
		msg = m.String()
	}
	if p.tests.failPackage(p.set, pkg, msg) {
		return
	}
	for _, r := range p.set.failing {
		if r.Suite == pkg {
			return
		}
	}
	p.set.add(Test{ID: pkg + " [package failed]", Suite: pkg, Name: "[package failed]", Status: StatusError, Message: msg, Offset: p.pkgOff[pkg]})
}

// streamEnded counts the tests still running when the log of a failed
// step ended. A step that succeeded keeps its counts: a log cut by the
// size cap is flagged as truncated elsewhere, not turned into failures.
func (p *goJSONParser) streamEnded(stepFailed bool) {
	if stepFailed {
		p.tests.streamEnded(p.set)
	}
}
