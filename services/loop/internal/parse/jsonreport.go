package parse

import (
	"github.com/greenlight-dev/greenlight/pkg/lazyregexp"

	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// jestReport is the subset of jest's --json output (also written by
// vitest's json reporter) that greenlight reads.
type jestReport struct {
	NumPassedTests            *int            `json:"numPassedTests"`
	NumFailedTests            int             `json:"numFailedTests"`
	NumPendingTests           int             `json:"numPendingTests"`
	NumTodoTests              int             `json:"numTodoTests"`
	NumRuntimeErrorTestSuites int             `json:"numRuntimeErrorTestSuites"`
	OpenHandles               json.RawMessage `json:"openHandles"`
	TestResults               []struct {
		Name             string `json:"name"`
		Status           string `json:"status"`
		Message          string `json:"message"`
		AssertionResults []struct {
			AncestorTitles  []string `json:"ancestorTitles"`
			Title           string   `json:"title"`
			Status          string   `json:"status"`
			Duration        *float64 `json:"duration"`
			FailureMessages []string `json:"failureMessages"`
		} `json:"assertionResults"`
	} `json:"testResults"`
}

// mochaReport is mocha's `--reporter json` output.
type mochaReport struct {
	Stats *struct {
		Tests    int `json:"tests"`
		Passes   int `json:"passes"`
		Pending  int `json:"pending"`
		Failures int `json:"failures"`
	} `json:"stats"`
	Tests []struct {
		Title     string  `json:"title"`
		FullTitle string  `json:"fullTitle"`
		File      string  `json:"file"`
		Duration  float64 `json:"duration"`
		Err       struct {
			Message string `json:"message"`
			Stack   string `json:"stack"`
		} `json:"err"`
	} `json:"tests"`
	Pending []struct {
		FullTitle string `json:"fullTitle"`
	} `json:"pending"`
}

// jsonResult is what a JSON test report yielded.
type jsonResult struct {
	set    *testSet
	format string
}

// parseJSONReport reads a jest/vitest or mocha JSON report.
func parseJSONReport(r io.Reader, name string, lim *Limits, paths *Paths) (*jsonResult, error) {
	data, err := io.ReadAll(io.LimitReader(r, lim.MaxArtifactBytes))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", name, err)
	}
	return decodeJSONReport(data, name, lim, paths)
}

func decodeJSONReport(data []byte, name string, lim *Limits, paths *Paths) (*jsonResult, error) {
	res := &jsonResult{set: newTestSet(lim)}
	head := data[:min(len(data), 4096)]
	if bytes.Contains(head, []byte(`"stats"`)) {
		var m mochaReport
		if err := json.Unmarshal(data, &m); err != nil || m.Stats == nil {
			return nil, fmt.Errorf("%s: %w", name, ErrNotReport)
		}
		res.format = FormatMochaJSON
		res.fromMocha(&m, lim, paths)
		return res, nil
	}
	var j jestReport
	if err := json.Unmarshal(data, &j); err != nil || j.NumPassedTests == nil {
		return nil, fmt.Errorf("%s: %w", name, ErrNotReport)
	}
	res.format = FormatVitestJSON
	if j.OpenHandles != nil {
		res.format = FormatJestJSON
	}
	res.fromJest(&j, lim, paths)
	return res, nil
}

func (res *jsonResult) fromJest(j *jestReport, lim *Limits, paths *Paths) {
	res.set.seen = true
	for _, file := range j.TestResults {
		rel, _ := paths.Normalize(file.Name)
		if len(file.AssertionResults) == 0 && file.Status == "failed" {
			// The suite failed to run (syntax error, import error).
			t := Test{ID: rel, Suite: rel, Name: "[suite failed to run]", File: rel, Status: StatusError, Offset: -1}
			jsMessage(&t, file.Message, lim, paths)
			if strings.Contains(file.Message, "SyntaxError") {
				t.kind = glv1.FailureKind_FAILURE_KIND_COMPILE
			}
			res.set.add(t)
			continue
		}
		for _, a := range file.AssertionResults {
			parts := append(append([]string{rel}, a.AncestorTitles...), a.Title)
			t := Test{ID: strings.Join(parts, " > "), Suite: strings.Join(a.AncestorTitles, " > "), Name: a.Title, File: rel, Offset: -1}
			if a.Duration != nil {
				t.Duration = time.Duration(*a.Duration * float64(time.Millisecond))
			}
			switch a.Status {
			case "passed":
				t.Status = StatusPassed
			case "failed":
				t.Status = StatusFailed
				jsMessage(&t, strings.Join(a.FailureMessages, "\n"), lim, paths)
			default: // pending, skipped, todo, disabled
				t.Status = StatusSkipped
			}
			res.set.add(t)
		}
	}
}

func (res *jsonResult) fromMocha(m *mochaReport, lim *Limits, paths *Paths) {
	res.set.seen = true
	pending := map[string]bool{}
	for _, p := range m.Pending {
		pending[p.FullTitle] = true
	}
	for _, x := range m.Tests {
		rel, _ := paths.Normalize(x.File)
		t := Test{ID: rel + " > " + x.FullTitle, Suite: strings.TrimSuffix(strings.TrimSuffix(x.FullTitle, x.Title), " "), Name: x.Title,
			File: rel, Duration: time.Duration(x.Duration * float64(time.Millisecond)), Offset: -1, Status: StatusPassed}
		switch {
		case x.Err.Message != "" || x.Err.Stack != "":
			t.Status = StatusFailed
			jsMessage(&t, x.Err.Stack, lim, paths)
			if t.Message == "" {
				t.Message = x.Err.Message
			}
		case pending[x.FullTitle]:
			t.Status = StatusSkipped
		}
		res.set.add(t)
	}
	s := m.Stats
	res.set.summary = &Counts{Passed: s.Passes, Failed: s.Failures, Skipped: s.Pending}
}

// jsMessage splits a JS error text into the message (lines before the
// stack) and the frames of the stack.
func jsMessage(t *Test, text string, lim *Limits, paths *Paths) {
	text = string(stripANSI(nil, []byte(text)))
	fp := frameParser{paths: paths}
	fl := frameList{max: lim.MaxFrames}
	msg := msgBuf{max: lim.MaxMessageBytes}
	inStack := false
	var loc []Frame
	for _, l := range strings.Split(text, "\n") {
		if f, ok := fp.parse([]byte(l), false); ok {
			fl.add(f)
			inStack = true
			continue
		}
		if m := reSyntaxLoc.FindStringSubmatch(l); m != nil {
			loc = append(loc, fp.frame(m[1], []byte(m[2]), []byte(m[3]), ""))
		}
		if !inStack && !isCodeFrame([]byte(l)) && !strings.HasPrefix(strings.TrimSpace(l), "● ") {
			msg.add([]byte(strings.TrimSpace(l)))
		}
	}
	t.Message = msg.String()
	t.Frames = append(loc, fl.frames...)
	if f, ok := firstProject(t.Frames); ok {
		t.File, t.Line = f.File, f.Line
	}
}

// reSyntaxLoc finds the location in Babel/TypeScript syntax errors:
// `SyntaxError: /w/src/broken.test.js: Unexpected token, expected "," (4:26)`.
var reSyntaxLoc = lazyregexp.New(`SyntaxError: (\S+?): .*\((\d+):(\d+)\)\s*$`)

// jsonLineParser picks up a jest/vitest JSON report printed on stdout
// (`jest --json` without --outputFile) as one long line.
type jsonLineParser struct {
	lim   *Limits
	paths *Paths
	res   *jsonResult
}

func (p *jsonLineParser) feed(ln line) {
	t := ln.text
	if ln.cut || len(t) < 32 || t[0] != '{' || !hasPrefix(t, `{"num`) {
		return
	}
	if res, err := decodeJSONReport(t, "stdout", p.lim, p.paths); err == nil {
		p.res = res
	}
}
