package parse

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// tailLines is how many last lines are kept for messages of failures that
// no format parser explained.
const tailLines = 12

// logParsers runs every format parser over the log in one pass.
type logParsers struct {
	gojson   *goJSONParser
	gotext   *goTextParser
	pytest   *pytestParser
	unittest *unittestParser
	jstext   *jsTextParser
	jsline   *jsonLineParser
	mocha    *mochaParser
	node     *nodeTestParser
	uvu      *uvuParser
	ava      *avaParser
	ctest    *ctestParser
	unity    *unityParser
	cprog    *cProgramParser
	charness *cHarnessParser
	gitdiff  *gitDiffParser
	make     *makeTargetParser
	maven    *surefireLogParser
	generic  *genericParser
	diag     *diagParser
	crash    *crashParser
	pysyntax *pySyntaxParser
	// security reads scanners' findings; nil outside the security phase.
	security *securityParser
	missing  missingCommands
	// packs are the toolchain packs' parsers (pkg/toolchain).
	packs []packParser

	tail    [tailLines][]byte
	tailOff [tailLines]int64
	tailN   int
	errs    msgBuf
	errOff  int64
	install bool
}

func newLogParsers(lim *Limits, paths *Paths, phase glv1.Phase) *logParsers {
	ps := &logParsers{
		gojson:   newGoJSONParser(lim, paths),
		gotext:   newGoTextParser(lim, paths),
		pytest:   newPytestParser(lim, paths),
		unittest: newUnittestParser(lim, paths),
		jstext:   newJSTextParser(lim, paths),
		jsline:   &jsonLineParser{lim: lim, paths: paths},
		mocha:    newMochaParser(lim, paths),
		node:     newNodeTestParser(lim, paths),
		uvu:      newUvuParser(lim, paths),
		ava:      newAVAParser(lim, paths),
		packs:    newPackParsers(lim, paths),
		ctest:    newCTestParser(lim, paths),
		unity:    newUnityParser(lim, paths),
		cprog:    newCProgramParser(lim, paths),
		charness: newCHarnessParser(lim, paths),
		gitdiff:  newGitDiffParser(lim, paths),
		make:     newMakeTargetParser(lim, paths),
		maven:    newSurefireLogParser(lim, paths),
		generic:  &genericParser{set: newTestSet(lim)},
		diag:     newDiagParser(paths, phase, lim),
		crash:    newCrashParser(lim, paths),
		pysyntax: newPySyntaxParser(paths, lim),
		errs:     msgBuf{max: 2048},
		errOff:   -1,
	}
	ps.gojson.diag.phase = glv1.Phase_PHASE_BUILD
	ps.install = phase == glv1.Phase_PHASE_INSTALL
	if phase == glv1.Phase_PHASE_SECURITY {
		ps.security = newSecurityParser(lim, paths)
	}
	return ps
}

// scan reads the whole log; it returns the number of bytes read.
func (ps *logParsers) scan(ctx context.Context, r io.Reader) (int64, error) {
	if r == nil {
		ps.finish()
		return 0, nil
	}
	// The buffer is sized from the line limit: created with max 0 it was 16
	// bytes, and every longer line took the slow, copying path.
	lr := newLineReader(r, ps.gojson.lim.MaxLineBytes)
	return ps.scanWith(ctx, lr)
}

func (ps *logParsers) scanWith(ctx context.Context, lr *lineReader) (int64, error) {
	if lr.max <= 0 {
		lr.max = ps.gojson.lim.MaxLineBytes
	}
	n := 0
	for {
		ln, err := lr.next()
		if err != nil {
			if errors.Is(err, io.EOF) {
				break
			}
			return lr.off, fmt.Errorf("read step log: %w", err)
		}
		if n++; n&0xfff == 0 {
			if err := ctx.Err(); err != nil {
				return lr.off, fmt.Errorf("parse step log: %w", err)
			}
		}
		ps.keep(ln)
		if ps.gojson.consume(ln) {
			continue // a test2json event is nothing else
		}
		ps.feed(ln)
	}
	ps.finish()
	return lr.off, nil
}

// feed offers a line to every format parser. The calls are direct, not a
// loop over an interface slice: on a per-line path of a few nanoseconds per
// parser the dynamic calls were a measurable share.
func (ps *logParsers) feed(ln line) {
	ps.missing.feed(ln)
	ps.gotext.feed(ln)
	ps.pytest.feed(ln)
	ps.unittest.feed(ln)
	ps.jstext.feed(ln)
	ps.jsline.feed(ln)
	ps.mocha.feed(ln)
	ps.node.feed(ln)
	ps.uvu.feed(ln)
	ps.ava.feed(ln)
	for i := range ps.packs {
		ps.packs[i].lp.Feed(ln.text, ln.off)
	}
	ps.ctest.feed(ln)
	ps.unity.feed(ln)
	ps.cprog.feed(ln)
	ps.charness.feed(ln)
	ps.gitdiff.feed(ln)
	ps.make.feed(ln)
	ps.maven.feed(ln)
	ps.generic.feed(ln)
	ps.diag.feed(ln)
	ps.crash.feed(ln)
	ps.pysyntax.feed(ln)
	if ps.security != nil {
		ps.security.feed(ln)
	}
}

// keep remembers the last non-blank lines and the first error-looking ones.
func (ps *logParsers) keep(ln line) {
	t := bytes.TrimSpace(ln.text)
	if len(t) == 0 {
		return
	}
	i := ps.tailN % tailLines
	ps.tail[i] = append(ps.tail[i][:0], t[:min(len(t), 512)]...)
	ps.tailOff[i] = ln.off
	ps.tailN++
	if ps.install && len(ps.errs.b) < ps.errs.max && looksLikeError(t) {
		if ps.errOff < 0 {
			ps.errOff = ln.off
		}
		ps.errs.add(t[:min(len(t), 512)])
	}
}

// looksLikeError matches the lines package managers and tools print on failure.
func looksLikeError(t []byte) bool {
	for _, p := range [][]byte{[]byte("npm ERR!"), []byte("npm error"), []byte("ERROR"), []byte("error:"), []byte("Error:"), []byte("E: "), []byte("fatal:"), []byte("Could not"), []byte("could not"), []byte("No matching distribution"), []byte("not found")} {
		if bytes.Contains(t, p) {
			return true
		}
	}
	return false
}

func (ps *logParsers) finish() {
	ps.pytest.finish()
	ps.unittest.finish()
	ps.jstext.finish()
	ps.mocha.finish()
	ps.node.finish()
	ps.uvu.finish()
	ps.ava.finish()
	for i := range ps.packs {
		ps.packs[i].lp.Finish()
	}
	ps.ctest.finish()
	ps.charness.finish()
	ps.gitdiff.finish()
	ps.maven.finish()
	ps.crash.finish()
}

// candidates lists every log parser's test result.
func (ps *logParsers) candidates() []candidate {
	out := []candidate{
		{format: FormatGoJSON, rank: 4, set: ps.gojson.set, extra: ps.gojson.diag.failures()},
		{format: FormatGoText, rank: 3, set: ps.gotext.set},
		{format: FormatPytestSummary, rank: 3, set: ps.pytest.set},
		{format: FormatUnittest, rank: 3, set: ps.unittest.set},
		{format: ps.jstext.format, rank: 3, set: ps.jstext.set},
		{format: FormatMocha, rank: 3, set: ps.mocha.set},
		{format: ps.node.format, rank: 3, set: ps.node.set},
		{format: FormatUvu, rank: 3, set: ps.uvu.set},
		{format: FormatAVA, rank: 3, set: ps.ava.set},
		{format: FormatCTest, rank: 3, set: ps.ctest.set},
		{format: FormatSurefireLog, rank: 3, set: ps.maven.set},
		// Unity lines also appear inside ctest's output, where ctest's
		// own per-test results are the counts the maintainers read.
		{format: FormatUnity, rank: 2, set: ps.unity.set},
		{format: FormatCProgram, rank: 2, set: ps.cprog.set},
		{format: FormatCHarness, rank: 2, set: ps.charness.set},
		// automake's make check summary counts the programs (or TAP
		// tests) the harnesses above ran, as ctest does.
		ps.charness.automakeCandidate(),
		{format: FormatGeneric, rank: 1, set: ps.generic.set},
	}
	for _, p := range ps.packs {
		out = append(out, candidate{format: p.format, rank: p.rank, set: p.rec.set})
	}
	if r := ps.jsline.res; r != nil {
		out = append(out, candidate{format: r.format, rank: 4, set: r.set})
	}
	return out
}

// tailText returns the last kept lines, oldest first.
func (ps *logParsers) tailText(n int) string {
	n = min(n, ps.tailN, tailLines)
	lines := make([]string, 0, n)
	for i := ps.tailN - n; i < ps.tailN; i++ {
		lines = append(lines, string(ps.tail[i%tailLines]))
	}
	return strings.Join(lines, "\n")
}

// tailOffset is the log offset of the last kept lines (-1 for an empty log).
func (ps *logParsers) tailOffset() int64 {
	if ps.tailN == 0 {
		return -1
	}
	n := min(5, ps.tailN)
	return ps.tailOff[(ps.tailN-n)%tailLines]
}

// errorLines is the message of an install failure: the error-looking lines,
// else the tail of the log.
func (ps *logParsers) errorLines() string {
	if len(ps.errs.b) > 0 {
		return ps.errs.String()
	}
	return ps.tailText(5)
}

// unparsedMessage explains a failed step whose output no parser understood.
func (ps *logParsers) unparsedMessage(rep *StepReport) string {
	msg := fmt.Sprintf("step %q failed with exit code %d", rep.Step, rep.Evidence.GetExitCode())
	if rep.reason != "" {
		msg += " (" + rep.reason + ")"
	}
	if t := ps.tailText(5); t != "" {
		msg += "; last output:\n" + t
	}
	return msg
}
