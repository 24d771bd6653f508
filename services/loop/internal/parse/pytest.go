package parse

import (
	"bytes"
	"strings"
)

// The line shapes pytest prints are matched by hand (pymatch.go): the
// regular expressions they replace cost more than the rest of the parse.

// pytestBlock is one failure/error section of pytest's report.
type pytestBlock struct {
	name   string
	isErr  bool
	frames frameList
	eLines msgBuf
	plain  []string
	off    int64
}

// pytestParser reads pytest's terminal report: failure sections, the -rA
// short summary and the final `N failed, M passed` line.
type pytestParser struct {
	lim     *Limits
	paths   *Paths
	set     *testSet
	fp      frameParser
	section string
	block   *pytestBlock
	blocks  []*pytestBlock
	short   []Test
	inCapt  bool
	// progress counts from `tests/test_x.py ..F.s` lines, used when the
	// run died before its summary.
	progress Counts
	crashed  *Test
	sawShort bool
}

func newPytestParser(lim *Limits, paths *Paths) *pytestParser {
	p := &pytestParser{lim: lim, paths: paths, set: newTestSet(lim)}
	p.fp.paths = paths
	return p
}

func (p *pytestParser) feed(ln line) {
	t := ln.text
	if len(t) == 0 {
		return
	}
	if t[0] == '=' {
		if name, ok := between(t, '='); ok {
			p.header(name)
			return
		}
	}
	if t[0] == '!' { // `!!!! Interrupted: 1 error during collection !!!!`
		if i := bytes.Index(t, []byte("Interrupted: ")); i >= 0 && p.set.incomplete == "" {
			why := string(bytes.TrimRight(bytes.TrimSpace(t[i+len("Interrupted: "):]), "! "))
			p.set.incomplete = "pytest was interrupted (" + capString(why, 200) + ") : tests after the interruption never ran and are not counted"
		}
		return
	}
	switch p.section {
	case "failures", "errors":
		p.feedBlock(ln)
	case "summary":
		p.feedShort(ln)
	case "":
		p.feedProgress(ln)
	}
	if t[0] >= '0' && t[0] <= '9' && matchPytestQuiet(t) {
		p.counts(t)
	}
}

// between returns the title of a `==== title ====` or `____ title ____`
// line drawn with c (at least three on each side). The title points into t.
func between(t []byte, c byte) ([]byte, bool) {
	if len(t) < 9 || t[1] != c || t[2] != c || t[len(t)-1] != c || t[len(t)-2] != c || t[len(t)-3] != c {
		return nil, false
	}
	i, j := 0, len(t)
	for i < j && t[i] == c {
		i++
	}
	for j > i && t[j-1] == c {
		j--
	}
	if i >= j || t[i] != ' ' || t[j-1] != ' ' {
		return nil, false
	}
	name := bytes.TrimSpace(t[i:j])
	return name, len(name) > 0
}

// header handles a `==== name ====` line.
func (p *pytestParser) header(name []byte) {
	p.closeBlock()
	switch {
	case string(name) == "test session starts":
		p.set.seen = true
		p.section = ""
	case string(name) == "FAILURES":
		p.section = "failures"
	case string(name) == "ERRORS":
		p.section = "errors"
	case string(name) == "short test summary info":
		p.section = "summary"
		p.sawShort = true
	case eachPytestCount(name, nil) > 0 && bytes.Contains(name, []byte(" in ")), hasPrefix(name, "no tests ran"):
		p.counts(name)
		p.section = "done"
	default:
		p.section = "other"
	}
}

// counts parses `2 failed, 4 passed, 1 skipped, 1 error in 0.03s`.
func (p *pytestParser) counts(t []byte) {
	c := &Counts{}
	eachPytestCount(t, func(num, word []byte) {
		n := atoi(num)
		switch string(word) {
		case "passed", "xpassed":
			c.Passed += n
		case "failed":
			c.Failed += n
		case "skipped", "xfailed":
			c.Skipped += n
		case "error", "errors":
			c.Errors += n
		}
	})
	p.set.summary = c
	p.set.seen = true
}

func (p *pytestParser) feedProgress(ln line) {
	t := ln.text
	if !bytes.Contains(t, []byte(".py ")) {
		return
	}
	file, marks, fatal, ok := pytestProgress(t)
	if !ok {
		return
	}
	for _, c := range marks {
		switch c {
		case '.', 'X':
			p.progress.Passed++
		case 'F':
			p.progress.Failed++
		case 's', 'x':
			p.progress.Skipped++
		case 'E':
			p.progress.Errors++
		}
	}
	if fatal != nil {
		rel, _ := p.paths.Normalize(string(file))
		p.progress.Errors++
		p.crashed = &Test{ID: string(file), File: rel, Status: StatusError, Message: string(fatal), Offset: ln.off}
	}
}

func (p *pytestParser) feedBlock(ln line) {
	if len(p.blocks) >= p.lim.MaxFailures {
		// Every block from here on would be dropped by closeBlock: skip
		// the work (the frame parser's state only feeds those blocks).
		p.block = nil
		return
	}
	t := ln.text
	if t[0] == '_' {
		if name, ok := between(t, '_'); ok {
			p.closeBlock()
			p.block = &pytestBlock{name: string(name), isErr: p.section == "errors", off: ln.off,
				frames: frameList{max: p.lim.MaxFrames}, eLines: msgBuf{max: p.lim.MaxMessageBytes}}
			p.inCapt = false
			return
		}
	}
	b := p.block
	if b == nil {
		return
	}
	if t[0] == '-' && bytes.Contains(t, []byte(" Captured ")) {
		p.inCapt = true
		return
	}
	if p.inCapt {
		return
	}
	if f, ok := p.fp.parse(t, true); ok {
		b.frames.add(f)
		return
	}
	if hasPrefix(t, "E ") {
		b.eLines.add(bytes.TrimSpace(t[1:]))
		return
	}
	if t[0] != ' ' && t[0] != '_' && t[0] != '~' && t[0] != '^' && len(b.plain) < 8 && !hasPrefix(t, "Traceback (") {
		b.plain = append(b.plain, string(t))
	}
}

func (p *pytestParser) closeBlock() {
	if p.block != nil && len(p.blocks) < p.lim.MaxFailures {
		p.blocks = append(p.blocks, p.block)
	}
	p.block = nil
}

func (p *pytestParser) feedShort(ln line) {
	word, restB, ok := bytes.Cut(ln.text, []byte(" "))
	if !ok || len(restB) == 0 {
		return
	}
	t := Test{Offset: ln.off}
	switch string(word) {
	case "PASSED", "XPASS":
		t.Status = StatusPassed
	case "FAILED":
		t.Status = StatusFailed
	case "ERROR":
		t.Status = StatusError
	case "SKIPPED", "XFAIL":
		t.Status = StatusSkipped
	default:
		return
	}
	p.set.seen = true
	if t.Status.failing() && len(p.short) >= p.lim.MaxFailures {
		// The first MaxFailures failing records wait in p.short for finish;
		// later ones are only counted, so the report keeps the first ones.
		p.set.countOnly(t)
		return
	}
	if !t.Status.failing() && !p.set.keeps(t.Status) {
		// The record would only be counted: skip building it.
		p.set.add(t)
		return
	}
	rest := string(restB)
	id, msg := rest, ""
	if i := strings.Index(rest, " - "); i > 0 {
		id, msg = rest[:i], rest[i+3:]
	}
	if t.Status == StatusSkipped && strings.HasPrefix(id, "[") { // `[1] tests/x.py:19: reason`
		if i := strings.Index(id, "] "); i > 0 {
			id = id[i+2:]
		}
		if i := strings.Index(id, ": "); i > 0 {
			id, msg = id[:i], id[i+2:]
		}
	}
	t.ID, t.Message = id, msg
	t.File, t.Name = splitPytestID(p.paths, id)
	p.set.seen = true
	if t.Status.failing() && len(p.short) < p.lim.MaxFailures {
		p.short = append(p.short, t)
		return
	}
	p.set.add(t)
}

// splitPytestID returns the file and test name of `tests/x.py::Class::test_y[p]`.
func splitPytestID(paths *Paths, id string) (file, name string) {
	f := id
	if i := strings.Index(id, "::"); i >= 0 {
		f, name = id[:i], id[i+2:]
	} else if i := strings.LastIndexByte(id, ':'); i > 0 && strings.HasSuffix(id[:i], ".py") {
		f = id[:i]
	}
	file, _ = paths.Normalize(f)
	return file, name
}

// finish resolves failure blocks against the short summary (or stands
// them in for it when pytest ran without -rA).
func (p *pytestParser) finish() {
	p.closeBlock()
	used := map[*pytestBlock]bool{}
	for _, t := range p.short {
		if b := p.matchBlock(t); b != nil {
			used[b] = true
			p.fill(&t, b)
		}
		p.set.add(t)
	}
	if !p.sawShort {
		for _, b := range p.blocks {
			if used[b] {
				continue
			}
			t := Test{Status: StatusFailed, Offset: b.off}
			name := b.name
			if b.isErr {
				t.Status = StatusError
				for _, pre := range []string{"ERROR at setup of ", "ERROR at teardown of ", "ERROR collecting "} {
					name = strings.TrimPrefix(name, pre)
				}
			}
			p.fill(&t, b)
			t.Name = strings.ReplaceAll(name, ".", "::")
			t.ID = t.Name
			if strings.HasSuffix(name, ".py") {
				t.ID, t.Name = name, ""
			} else if file := testFile(t.Frames); file != "" {
				t.ID = strings.TrimPrefix(file, p.paths.Workdir+"/") + "::" + t.Name
			}
			p.set.add(t)
		}
	}
	if p.crashed != nil {
		p.set.add(*p.crashed)
		p.set.incomplete = "pytest died in " + p.crashed.ID + " (" + capString(p.crashed.Message, 200) + "): tests after it never ran and are not counted"
	}
	if p.set.summary == nil && p.progress.Total() > 0 {
		c := p.progress
		p.set.summary = &c
	}
}

// matchBlock finds the failure section of a summary record.
func (p *pytestParser) matchBlock(t Test) *pytestBlock {
	for _, b := range p.blocks {
		name := b.name
		for _, pre := range []string{"ERROR at setup of ", "ERROR at teardown of ", "ERROR collecting "} {
			name = strings.TrimPrefix(name, pre)
		}
		if name == t.ID || strings.HasSuffix(t.ID, "::"+strings.ReplaceAll(name, ".", "::")) {
			return b
		}
	}
	return nil
}

// fill copies a block's frames and message into a record.
func (p *pytestParser) fill(t *Test, b *pytestBlock) {
	t.Frames = innermostFirst(b.frames.frames, true)
	if f, ok := firstProject(t.Frames); ok {
		t.File, t.Line = f.File, f.Line
	}
	msg := b.eLines.String()
	if msg == "" && len(b.plain) > 0 {
		msg = strings.Join(b.plain[max(0, len(b.plain)-3):], "\n")
	}
	if msg != "" {
		t.Message = msg
	}
	if t.Offset < 0 || b.off < t.Offset {
		t.Offset = b.off
	}
}

// testFile is the file of the outermost frame in a test file.
func testFile(frames []Frame) string {
	for i := len(frames) - 1; i >= 0; i-- {
		if frames[i].Project {
			return frames[i].File
		}
	}
	return ""
}
