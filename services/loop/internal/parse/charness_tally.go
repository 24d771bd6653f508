package parse

import (
	"github.com/greenlight-dev/greenlight/pkg/lazyregexp"

	"bytes"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

var (
	// A hand-rolled program's tally, one figure a line, in any order:
	// `Tests run: 5`, `Tests passed: 2`, `Tests failed: 3`, `Tests
	// skipped: 0` (any case, `Total tests run:` too).
	reTallyKey = lazyregexp.New(`(?i)^\s*(?:total )?(?:number of )?tests? (run|executed|passed|succeeded|failed|skipped)\s*:\s*(\d+)\s*$`)
	// One line with all of it: `3 tests, 2 passed, 1 failed` (sds's
	// testhelp.h), `12 tests passed, 1 failed`, `11 of 12 tests passed`,
	// `11/12 tests passed`.
	reTallyLine   = lazyregexp.New(`(?i)^(\d+) tests?(?: run)?, (\d+) passed, (\d+) failed(?:, (\d+) skipped)?\.?$`)
	reTallyPassed = lazyregexp.New(`(?i)^(\d+) tests? passed, (\d+) (?:tests? )?failed\.?$`)
	reTallyOf     = lazyregexp.New(`(?i)^(\d+)(?: of |/)(\d+) tests? passed\.?$`)
	// A check of such a program: `17 mul(3, 4) == 13 - FAIL` (parson's
	// TEST macro prints the line and the expression; since 2021 only for
	// failed checks, `… - FAILED`).
	reTallyCheck = lazyregexp.New(`^(\d+) (\S.*?)\s*- ?FAIL(?:ED)?$`)
)

// tallyGap is how many other lines may separate the figures of one tally.
const tallyGap = 4

// tallyState is the tally being read. A tally counts only when it is
// unambiguous: a passed or failed figure, and a total above zero.
type tallyState struct {
	open  bool
	gap   int
	has   map[string]bool
	figs  map[string]int
	fails []Test
}

// tallyLine reads a tally figure, a one-line tally or a failed check.
func (p *cHarnessParser) tallyLine(ln line) {
	t := ln.text
	if isDigit(t[0]) {
		if len(t) > 1024 {
			return
		}
		if hasTallyWord(t) {
			p.tallyOneLine(ln)
		}
		return
	}
	// A figure: `Tests …: N` (or `Total tests …`, `Number of tests …`).
	if u := trimLeftSpace(t); len(t) > 120 || len(u) == 0 || !isDigit(t[len(t)-1]) && t[len(t)-1] != ' ' ||
		u[0] != 't' && u[0] != 'T' && u[0] != 'n' && u[0] != 'N' || bytes.IndexByte(u, ':') < 0 || !hasTallyWord(u) {
		return
	}
	if m := reTallyKey.FindSubmatch(t); m != nil {
		p.tallyFigure(strings.ToLower(string(m[1])), string(m[2]))
	}
}

// tallyWords are the fragments every tally line holds one of, in the
// cases programs print them.
var tallyWords = [][]byte{[]byte("ass"), []byte("ail"), []byte("ASS"), []byte("AIL"), []byte(" run"), []byte(" Run"),
	[]byte(" RUN"), []byte("xecuted"), []byte("XECUTED"), []byte("kipped"), []byte("KIPPED"), []byte("ucceeded"), []byte("UCCEEDED")}

// hasTallyWord is a cheap test before the tally regexps.
func hasTallyWord(t []byte) bool {
	for _, w := range tallyWords {
		if bytes.Contains(t, w) {
			return true
		}
	}
	return false
}

func (p *cHarnessParser) tallyFigure(key, num string) {
	s := &p.tally
	switch key {
	case "executed":
		key = "run"
	case "succeeded":
		key = "passed"
	}
	if s.open && s.has[key] {
		p.tallyEnd() // the next program's tally
	}
	if !s.open {
		s.open, s.has, s.figs = true, map[string]bool{}, map[string]int{}
	}
	n, _ := strconv.Atoi(num)
	s.has[key], s.figs[key], s.gap = true, n, 0
}

func (p *cHarnessParser) tallyOneLine(ln line) {
	t := ln.text
	n := func(b []byte) int { v, _ := strconv.Atoi(string(b)); return v }
	var c Counts
	switch {
	case hasSuffix(t, "FAIL") || hasSuffix(t, "FAILED"):
		if m := reTallyCheck.FindSubmatch(t); m != nil {
			// Checks come before their program's tally: one after a
			// tally is the next program's.
			p.tallyEnd()
			if len(p.tally.fails) < p.lim.MaxFailures {
				p.tallyCheck(m, ln.off)
			}
		}
		return
	default:
		if m := reTallyLine.FindSubmatch(t); m != nil {
			total, passed, failed := n(m[1]), n(m[2]), n(m[3])
			c = Counts{Passed: passed, Failed: failed, Skipped: n(m[4])}
			if total < passed+failed {
				return
			}
		} else if m := reTallyPassed.FindSubmatch(t); m != nil {
			c = Counts{Passed: n(m[1]), Failed: n(m[2])}
		} else if m := reTallyOf.FindSubmatch(t); m != nil {
			passed, total := n(m[1]), n(m[2])
			if total < passed {
				return
			}
			c = Counts{Passed: passed, Failed: total - passed}
		} else {
			return
		}
	}
	p.tallyEnd()
	p.tallyCommit(c)
}

// tallyCheck keeps a failed check until a tally confirms it.
func (p *cHarnessParser) tallyCheck(m [][]byte, off int64) {
	line, _ := strconv.Atoi(string(m[1]))
	expr := string(m[2])
	rec := Test{ID: expr, Name: expr, Status: StatusFailed, Message: "line " + string(m[1]) + ": check failed: " + expr,
		Offset: off, kind: glv1.FailureKind_FAILURE_KIND_TEST_ASSERTION}
	if file := p.checkSource(line, expr); file != "" {
		rec.ID, rec.Suite, rec.File, rec.Line = file+"::"+expr, file, file, line
	}
	p.tally.fails = append(p.tally.fails, rec)
}

// checkSource is the compiled source whose line holds a check that printed
// only its line number and expression: the one whose line has that
// expression when the snapshot can be read, else the one compiled source
// whose name says it holds tests ("" when that is not clear).
func (p *cHarnessParser) checkSource(line int, expr string) string {
	var cands []string
	for _, src := range p.sources {
		if !strings.HasSuffix(path.Ext(src), "h") {
			cands = append(cands, src)
		}
	}
	sort.Strings(cands)
	if p.paths.Files != nil {
		// The sources compiled in this step, else (built in an earlier
		// step) the snapshot's sources named like tests.
		if len(cands) == 0 {
			for base, src := range p.paths.cSources() {
				if src != "" && strings.Contains(strings.ToLower(base), "test") && !strings.HasSuffix(path.Ext(src), "h") {
					cands = append(cands, src)
				}
			}
			sort.Strings(cands)
		}
		want := squeeze(expr)
		for _, src := range cands[:min(len(cands), maxCheckSources)] {
			if l := p.sourceLine(src, line); l != "" && strings.Contains(squeeze(l), want) {
				return src
			}
		}
		return ""
	}
	found := ""
	for _, src := range cands {
		if strings.Contains(strings.ToLower(path.Base(src)), "test") {
			if found != "" {
				return ""
			}
			found = src
		}
	}
	return found
}

// maxSourceBytes bounds the sources read to check a line, and
// maxCheckSources how many are tried.
const (
	maxSourceBytes  = 512 << 10
	maxCheckSources = 16
)

// sourceLine returns line n of a snapshot file ("" when unreadable).
func (p *cHarnessParser) sourceLine(file string, n int) string {
	if n <= 0 {
		return ""
	}
	b, ok := p.read[file]
	if !ok {
		if st, err := fs.Stat(p.paths.Files, file); err == nil && st.Size() <= maxSourceBytes {
			b, _ = fs.ReadFile(p.paths.Files, file)
		}
		if p.read == nil {
			p.read = map[string][]byte{}
		}
		p.read[file] = b
	}
	for i := 1; i < n; i++ {
		j := bytes.IndexByte(b, '\n')
		if j < 0 {
			return ""
		}
		b = b[j+1:]
	}
	if j := bytes.IndexByte(b, '\n'); j >= 0 {
		b = b[:j]
	}
	return string(b)
}

// squeeze drops the blanks the preprocessor's # operator normalizes.
func squeeze(s string) string {
	return strings.Map(func(r rune) rune {
		if r == ' ' || r == '\t' {
			return -1
		}
		return r
	}, s)
}

// tallyTick ages an open tally by one line: figures far apart are not
// one tally.
func (p *cHarnessParser) tallyTick() {
	if s := &p.tally; s.open {
		if s.gap++; s.gap > tallyGap {
			p.tallyEnd()
		}
	}
}

// tallyEnd closes the tally being read.
func (p *cHarnessParser) tallyEnd() {
	s := &p.tally
	if !s.open {
		return
	}
	s.open = false
	f, has := s.figs, s.has
	var c Counts
	switch {
	case has["passed"] && has["failed"]:
		c = Counts{Passed: f["passed"], Failed: f["failed"], Skipped: f["skipped"]}
	case has["passed"] && has["run"]:
		c = Counts{Passed: f["passed"], Skipped: f["skipped"], Failed: max(0, f["run"]-f["passed"]-f["skipped"])}
	case has["failed"] && has["run"]:
		c = Counts{Failed: f["failed"], Skipped: f["skipped"], Passed: max(0, f["run"]-f["failed"]-f["skipped"])}
	case has["passed"]:
		c = Counts{Passed: f["passed"], Skipped: f["skipped"]}
	case has["failed"]:
		c = Counts{Failed: f["failed"], Skipped: f["skipped"]}
	default:
		return
	}
	p.tallyCommit(c)
}

// tallyCommit adds a tally with the failed checks it confirms.
func (p *cHarnessParser) tallyCommit(c Counts) {
	s := &p.tally
	if c.Total() == 0 {
		s.fails = s.fails[:0]
		return
	}
	if c.Failed > 0 {
		for _, rec := range s.fails[:min(len(s.fails), c.Failed)] {
			p.set.keep(rec)
		}
	}
	s.fails = s.fails[:0]
	p.set.addSummary(c)
}
