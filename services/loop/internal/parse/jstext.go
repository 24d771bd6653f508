package parse

import (
	"github.com/greenlight-dev/greenlight/pkg/lazyregexp"

	"bytes"
	"strconv"
	"strings"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

var (
	reJestTests = lazyregexp.New(`^Tests:\s+(.*\d+ total)$`)
	// A test file's result: `PASS src/a.test.js (5.2 s)`; a project's
	// displayName comes first (`FAIL e2e jest/e2e/b.test.js`).
	reJestFile = lazyregexp.New(`^(PASS|FAIL) +(?:(\S+) +)?(\S+?)(?: \([\d.]+ m?s\))?\s*$`)
	// vitest's per-file line: ` ✓ src/a.test.js (3 tests | 1 skipped) 5ms`,
	// ` ❯ |unit| src/b.test.js (2 tests | 1 failed) 26ms`.
	reVitestFile = lazyregexp.New(`^\s*(?:✓|❯|×|↓) +(?:(\|[^|]+\|) +)?(\S+) +\(\d+ tests?\b`)
	// vitest's banner names the root its relative paths start from.
	reVitestRun   = lazyregexp.New(`^\s*RUN\s+v\S+\s+(/\S+)\s*$`)
	reJestBlock   = lazyregexp.New(`^  ● (.+)$`)
	reVitestTests = lazyregexp.New(`^\s*Tests\s+(.+?)\s*\((\d+)\)$`)
	reVitestBlock = lazyregexp.New(`^\s*FAIL\s+(\S+) > (.+)$`)
	reCountWord   = lazyregexp.New(`(\d+) (passed|failed|skipped|todo|pending|total)`)
)

// jsBlock is one failure section of jest's or vitest's text report.
type jsBlock struct {
	test   Test
	msg    msgBuf
	frames frameList
	stack  bool
}

// result is the block's test with its message, stack frames and the first
// project frame as its location.
func (b *jsBlock) result() Test {
	t := b.test
	t.Message = b.msg.String()
	t.Frames = b.frames.frames
	if f, ok := firstProject(t.Frames); ok {
		t.File, t.Line = f.File, f.Line
	}
	return t
}

// jsTextParser reads jest's and vitest's default (text) reporters.
type jsTextParser struct {
	lim    *Limits
	paths  *Paths
	set    *testSet
	format string
	fp     frameParser
	file   string
	block  *jsBlock
	vitest bool
	// runs are the step's earlier runs; cur is the one being read.
	runs []jsRun
	cur  jsRun
	// vitestPaths resolve vitest's paths from its root (nil: the workdir).
	vitestPaths *Paths
}

func newJSTextParser(lim *Limits, paths *Paths) *jsTextParser {
	p := &jsTextParser{lim: lim, paths: paths, set: newTestSet(lim)}
	p.fp.paths = paths
	return p
}

func (p *jsTextParser) feed(ln line) {
	t := ln.text
	if len(t) == 0 {
		return
	}
	// Outside a failure block only the marker lines below matter, and each
	// starts (after \s*) with 'T' (Tests), 'F'/'P' (FAIL, PASS), 'R'
	// (vitest's RUN banner) or '●' (0xe2); ⎯ only closes a block. Skip the
	// rest cheaply.
	if p.block == nil {
		s := t[leadingSpace(t):]
		if len(s) == 0 || s[0] != 'T' && s[0] != 'F' && s[0] != 'P' && s[0] != 'R' && s[0] != 0xe2 {
			return
		}
	}
	// Every run prints one summary: two runs in one step (`jest
	// --selectProjects a && jest --selectProjects b`, `npm run test:unit
	// && npm run test:e2e`) add up.
	switch {
	case hasPrefix(t, "Tests:"):
		if m := reJestTests.FindSubmatch(t); m != nil {
			p.close()
			p.format = FormatJestText
			p.endRun(*jsCounts(string(m[1])))
			return
		}
	case bytes.Contains(t, []byte("Tests ")) && !bytes.Contains(t, []byte("Test Files")):
		if m := reVitestTests.FindSubmatch(t); m != nil && reCountWord.Match(m[1]) {
			p.close()
			p.format = FormatVitestText
			p.endRun(*jsCounts(string(m[1])))
			return
		}
	case bytes.Contains(t, []byte("RUN ")):
		if m := reVitestRun.FindSubmatch(t); m != nil {
			p.vitestRoot(string(m[1]))
			return
		}
	case hasPrefix(t, "PASS ") || hasPrefix(t, "FAIL "):
		if m := reJestFile.FindSubmatch(t); m != nil {
			p.close()
			p.vitestPaths, p.fp.paths = nil, p.paths
			p.file, _ = p.paths.Normalize(string(m[3]))
			p.runFile(string(m[2]), p.file)
			return
		}
	case hasPrefix(t, "  ● "):
		if m := reJestBlock.FindSubmatch(t); m != nil {
			p.open(strings.ReplaceAll(string(m[1]), " › ", " > "), ln.off, false)
			return
		}
	case bytes.Contains(t, []byte("FAIL ")) && bytes.Contains(t, []byte(" > ")):
		if m := reVitestBlock.FindSubmatch(t); m != nil {
			p.file, _ = p.vitestPathsOr().Normalize(string(m[1]))
			p.vitest = true
			p.open(string(m[2]), ln.off, true)
			return
		}
	case hasPrefix(t, "⎯") || bytes.Contains(t, []byte("⎯⎯⎯")):
		p.close()
		return
	case p.block == nil && bytes.HasPrefix(bytes.TrimLeft(t, " "), []byte("\xe2")) && bytes.Contains(t, []byte(" test")):
		if m := reVitestFile.FindSubmatch(t); m != nil {
			file, _ := p.vitestPathsOr().Normalize(string(m[2]))
			p.runFile(string(m[1]), file)
			return
		}
	}
	b := p.block
	if b == nil {
		return
	}
	if f, ok := p.fp.parse(t, false); ok {
		b.frames.add(f)
		b.stack = true
		return
	}
	if m := reSyntaxLoc.FindSubmatch(t); m != nil {
		b.frames.add(p.fp.frame(string(m[1]), m[2], m[3], ""))
	}
	if !b.stack && !isCodeFrame(t) {
		b.msg.add(bytes.TrimSpace(t))
	}
}

// isCodeFrame reports jest/vitest code excerpt lines (`> 11 |   expect…`, `    |   ^`).
func isCodeFrame(t []byte) bool {
	s := bytes.TrimLeft(t, " >")
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	s = bytes.TrimLeft(s[i:], " ")
	return len(s) > 0 && s[0] == '|'
}

// vitestRoot makes vitest's relative paths resolve from its root (the
// banner's directory, `vitest run --root e2e` or a workspace member),
// when it is inside the workspace.
func (p *jsTextParser) vitestRoot(dir string) {
	p.close()
	p.vitestPaths, p.fp.paths = nil, p.paths
	rel, project := p.paths.Normalize(dir)
	if !project || rel == p.paths.Workdir {
		return
	}
	p.vitestPaths = NewPaths(p.paths.Root, rel, p.paths.Files)
	p.fp.paths = p.vitestPaths
}

func (p *jsTextParser) vitestPathsOr() *Paths {
	if p.vitestPaths != nil {
		return p.vitestPaths
	}
	return p.paths
}

func (p *jsTextParser) open(title string, off int64, vitest bool) {
	p.close()
	p.set.seen = true
	t := Test{Name: title, File: p.file, Offset: off, Status: StatusFailed}
	t.ID = p.file + " > " + title
	if title == "Test suite failed to run" {
		t.ID, t.Name, t.Status = p.file, "[suite failed to run]", StatusError
	}
	if i := strings.LastIndex(title, " > "); i > 0 {
		t.Suite, t.Name = title[:i], title[i+3:]
	}
	p.block = &jsBlock{test: t, msg: msgBuf{max: p.lim.MaxMessageBytes}, frames: frameList{max: p.lim.MaxFrames}}
}

func (p *jsTextParser) close() {
	b := p.block
	if b == nil {
		return
	}
	p.block = nil
	t := b.result()
	k := classify(t.Message, "", t.Status)
	if t.Status == StatusError && strings.Contains(t.Message, "SyntaxError") {
		k = glv1.FailureKind_FAILURE_KIND_COMPILE
	}
	t.kind = k
	p.set.add(t)
}

func (p *jsTextParser) finish() {
	p.close()
	// Suites that failed to run are errors; jest's Tests: line does not count them.
	if p.set.summary != nil && p.format == FormatJestText {
		p.set.summary.Errors = p.set.counts.Errors
	}
	if p.format == "" {
		p.format = FormatJestText
		if p.vitest {
			p.format = FormatVitestText
		}
	}
}

// jsCounts parses `2 failed, 1 skipped, 2 passed, 5 total` or `2 failed | 2 passed | 1 skipped`.
func jsCounts(s string) *Counts {
	c := &Counts{}
	for _, m := range reCountWord.FindAllStringSubmatch(s, -1) {
		n, _ := strconv.Atoi(m[1])
		switch m[2] {
		case "passed":
			c.Passed += n
		case "failed":
			c.Failed += n
		case "skipped", "todo", "pending":
			c.Skipped += n
		}
	}
	return c
}
