package parse

import (
	"github.com/greenlight-dev/greenlight/pkg/lazyregexp"

	"bytes"
	"strconv"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

var (
	// `tests/parse_number.c:110:parse_number_should_parse_zero:PASS`,
	// `…:FAIL: Expected 1 Was 0`, `…:IGNORE` (ThrowTheSwitch Unity, the C
	// test framework cJSON and many embedded projects use).
	reUnityResult = lazyregexp.New(`^(\S+?\.(?:c|cc|cpp|cxx|h|hpp)):(\d+):([A-Za-z_]\w*):(PASS|FAIL|IGNORE)(?::\s?(.*))?$`)
	// `5 Tests 1 Failures 0 Ignored`, once per test binary.
	reUnitySum = lazyregexp.New(`^(\d+) Tests (\d+) Failures (\d+) Ignored\s*$`)
)

// unityParser reads Unity's output: one FILE:LINE:TEST:STATUS line per test
// and a summary per test binary. Its file:line is where the test (or the
// failed assertion) is.
type unityParser struct {
	lim   *Limits
	paths *Paths
	set   *testSet
}

func newUnityParser(lim *Limits, paths *Paths) *unityParser {
	return &unityParser{lim: lim, paths: paths, set: newTestSet(lim)}
}

func (p *unityParser) feed(ln line) {
	t := ln.text
	if len(t) < 12 {
		return
	}
	if isDigit(t[0]) && bytes.Contains(t, []byte(" Tests ")) {
		if m := reUnitySum.FindSubmatch(t); m != nil {
			n := func(i int) int { v, _ := strconv.Atoi(string(m[i])); return v }
			tests, failed, ignored := n(1), n(2), n(3)
			p.set.addSummary(Counts{Passed: max(0, tests-failed-ignored), Failed: failed, Skipped: ignored})
		}
		return
	}
	if !bytes.Contains(t, []byte(":PASS")) && !bytes.Contains(t, []byte(":FAIL")) && !bytes.Contains(t, []byte(":IGNORE")) {
		return
	}
	m := reUnityResult.FindSubmatch(t)
	if m == nil {
		return
	}
	file, _ := p.paths.Normalize(string(m[1]))
	line, _ := strconv.Atoi(string(m[2]))
	name := string(m[3])
	rec := Test{ID: file + "::" + name, Suite: file, Name: name, File: file, Line: line, Message: string(m[5]), Offset: ln.off}
	switch string(m[4]) {
	case "PASS":
		rec.Status, rec.Message = StatusPassed, ""
	case "IGNORE":
		rec.Status = StatusSkipped
	default:
		rec.Status, rec.kind = StatusFailed, glv1.FailureKind_FAILURE_KIND_TEST_ASSERTION
	}
	p.set.add(rec)
}
