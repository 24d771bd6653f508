package parse

import (
	"github.com/greenlight-dev/greenlight/pkg/lazyregexp"

	"bytes"
	"path"
	"strconv"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// FormatCProgram is plain C test programs run by make: a driver's
// `NAME failed` lines and `N tests conducted, K failed.` summary
// (uthash), or a minimal harness's `FAILED: NAME (at line N)` lines and
// `PASSED: N` / `FAILED: M` summary (jsmn).
const FormatCProgram = "c-program"

var (
	// `make[1]: Entering directory '/workspace/tests'`.
	reMakeEnter = lazyregexp.New(`^make(?:\[\d+\])?: Entering directory '([^']+)'$`)
	// `cc -I../src -g -o test24 test24.c` or `cc test/tests.c -o test/test_default`.
	reCCompile = lazyregexp.New(`^(?:\S*/)?(?:cc|gcc|clang|c\+\+|g\+\+|clang\+\+)(?:-[\d.]+)?\s.*`)
	reCOutput  = lazyregexp.New(`(?:^|\s)-o\s*(\S+)`)
	reCSource  = lazyregexp.New(`(?:^|\s)([\w./-]+\.(?:c|cc|cpp|cxx))(?:\s|$)`)
	// A program's run echoed by make: `./test/test_default`.
	reCRun = lazyregexp.New(`^\./(\S+)$`)
	// jsmn's harness: `FAILED: test for a JSON arrays (at line 54)`.
	reCHarnessFail = lazyregexp.New(`^FAILED: (.+) \(at line (\d+)\)$`)
	reCHarnessSum  = lazyregexp.New(`^(PASSED|FAILED): (\d+)$`)
	// A driver's verdict on one program, and its closing count.
	reCDriverFail = lazyregexp.New(`^([A-Za-z_][\w.-]*) failed$`)
	reCDriverSum  = lazyregexp.New(`^(\d+) tests conducted, (\d+) failed\.?$`)
	// glibc's assert: `test97: test97.c:33: main: Assertion `x' failed.`.
	reCAssert = lazyregexp.New(`^(\S+): ([\w./-]+\.(?:c|cc|cpp|cxx|h|hpp)):(\d+): (\S+): (Assertion .* failed\.)$`)
)

// cProgramParser reads test programs' own plain output. Records are kept
// only once the closing summary confirms the format, so a stray "x failed"
// in some other log never becomes a test.
type cProgramParser struct {
	lim   *Limits
	paths *Paths
	set   *testSet
	// dir is make's current directory as printed (absolute), "" for the
	// step's own.
	dir string
	// sources maps a built program to its C source; ran is the last one run.
	sources map[string]string
	ran     string
	// asserts maps a program's base name to its failed assertion.
	asserts map[string]Test
	pending []Test
	signal  string
	passed  int
	sawPass bool
}

func newCProgramParser(lim *Limits, paths *Paths) *cProgramParser {
	return &cProgramParser{lim: lim, paths: paths, set: newTestSet(lim), sources: map[string]string{}, asserts: map[string]Test{}}
}

func (p *cProgramParser) feed(ln line) {
	t := ln.text
	if len(t) < 4 {
		return
	}
	switch {
	case hasPrefix(t, "make"):
		if m := reMakeEnter.FindSubmatch(t); m != nil {
			p.dir = string(m[1])
		}
	case hasPrefix(t, "./"):
		if m := reCRun.FindSubmatch(t); m != nil {
			p.ran = p.resolve(string(m[1]))
		}
	case hasPrefix(t, "FAILED: ") || hasPrefix(t, "PASSED: "):
		p.harness(t, ln.off)
	case bytes.HasSuffix(t, []byte(" failed.")) || bytes.HasSuffix(t, []byte(" failed")):
		p.driver(t, ln.off)
	case len(t) < 80 && signalWord(t) && reSignalShell.Match(t):
		// The shell's word for the signal that killed the next program
		// the driver reports.
		p.signal = string(reSignalShell.FindSubmatch(t)[1])
	case bytes.Contains(t, []byte(" -o")) && bytes.Contains(t, []byte(".c")):
		p.compile(string(t))
	}
}

// compile remembers which C source a compiler line builds into a program.
func (p *cProgramParser) compile(t string) {
	if !reCCompile.MatchString(t) {
		return
	}
	out, src := reCOutput.FindStringSubmatch(t), reCSource.FindAllStringSubmatch(t, -1)
	if out == nil || src == nil || len(p.sources) >= p.lim.MaxFailures*8 {
		return
	}
	p.sources[p.resolve(out[1])] = p.resolve(src[len(src)-1][1])
}

// resolve makes a path printed relative to make's current directory
// workspace-relative.
func (p *cProgramParser) resolve(rel string) string {
	if p.dir != "" && !path.IsAbs(rel) {
		rel = path.Join(p.dir, rel)
	}
	out, _ := p.paths.Normalize(rel)
	return out
}

// harness reads `FAILED: NAME (at line N)` and the PASSED/FAILED summary.
func (p *cProgramParser) harness(t []byte, off int64) {
	if m := reCHarnessFail.FindSubmatch(t); m != nil {
		line, _ := strconv.Atoi(string(m[2]))
		file := p.sources[p.ran]
		name := string(m[1])
		p.pending = append(p.pending, Test{ID: file + "::" + name, Suite: file, Name: name, File: file, Line: line,
			Message: "FAILED: " + name, Offset: off, Status: StatusFailed, kind: glv1.FailureKind_FAILURE_KIND_TEST_ASSERTION})
		return
	}
	m := reCHarnessSum.FindSubmatch(t)
	if m == nil {
		return
	}
	n, _ := strconv.Atoi(string(m[2]))
	if string(m[1]) == "PASSED" {
		p.passed, p.sawPass = n, true
		return
	}
	if p.sawPass {
		p.flush(Counts{Passed: p.passed, Failed: n})
	}
	p.sawPass = false
}

// driver reads a driver script's `NAME failed`, glibc's assertion line and
// the `N tests conducted, K failed.` summary.
func (p *cProgramParser) driver(t []byte, off int64) {
	if m := reCAssert.FindSubmatch(t); m != nil {
		file := p.resolve(string(m[2]))
		line, _ := strconv.Atoi(string(m[3]))
		if len(p.asserts) < p.lim.MaxFailures {
			p.asserts[path.Base(string(m[1]))] = Test{File: file, Line: line, Message: string(m[5]) + " in " + string(m[4])}
		}
		return
	}
	if m := reCDriverSum.FindSubmatch(t); m != nil {
		total, _ := strconv.Atoi(string(m[1]))
		failed, _ := strconv.Atoi(string(m[2]))
		p.flush(Counts{Passed: max(0, total-failed), Failed: failed})
		return
	}
	if m := reCDriverFail.FindSubmatch(t); m != nil && len(p.pending) < p.lim.MaxFailures {
		name := string(m[1])
		file := p.programSource(name)
		msg, kind := name+" failed: its output differs from the expected one", glv1.FailureKind_FAILURE_KIND_TEST_ASSERTION
		if p.signal != "" {
			msg, kind = name+" failed: "+p.signal, glv1.FailureKind_FAILURE_KIND_CRASH
		}
		p.signal = ""
		p.pending = append(p.pending, Test{ID: file + "::" + name, Suite: file, Name: name, File: file,
			Message: msg, Offset: off, Status: StatusFailed, kind: kind})
	}
}

// programSource finds the source of a program a driver named: the one a
// compiler line built, else NAME.c next to it when the snapshot has it.
func (p *cProgramParser) programSource(name string) string {
	prog := p.resolve(name)
	if src, ok := p.sources[prog]; ok {
		return src
	}
	if cand := prog + ".c"; p.paths.Exists(cand) {
		return cand
	}
	return ""
}

// flush keeps the pending failures once a summary confirmed the format,
// with the failed assertion of the same program where one was printed.
func (p *cProgramParser) flush(c Counts) {
	for _, rec := range p.pending {
		if a, ok := p.asserts[rec.Name]; ok {
			rec.File, rec.Line, rec.Message, rec.kind = a.File, a.Line, a.Message, glv1.FailureKind_FAILURE_KIND_TEST_ASSERTION
			rec.Suite, rec.ID = a.File, a.File+"::"+rec.Name
		}
		p.set.keep(rec)
	}
	p.pending = p.pending[:0]
	p.set.addSummary(c)
}

// signalWord is a cheap test before the shell-signal regexp.
func signalWord(t []byte) bool {
	for _, w := range [][]byte{[]byte("Aborted"), []byte("fault"), []byte("Bus error"), []byte("Illegal"), []byte("Killed")} {
		if bytes.Contains(t, w) {
			return true
		}
	}
	return false
}
