package parse

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"path"
	"strconv"
	"strings"
	"time"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// junitReport is what one JUnit XML file (pytest --junitxml, Maven Surefire
// TEST-*.xml, jest-junit, …) yielded.
type junitReport struct {
	set    *testSet
	format string
}

// parseJUnit streams a JUnit XML document; memory is bounded by the caps in
// lim, not by the size of the file.
func parseJUnit(r io.Reader, name string, lim *Limits, paths *Paths, into *junitReport) error {
	dec := xml.NewDecoder(io.LimitReader(r, lim.MaxArtifactBytes))
	dec.Strict = false
	var (
		cur     *Test
		text    bytes.Buffer
		inFail  bool
		failTyp string
		flaky   bool
	)
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			if into.set.seen {
				return nil // truncated report: keep what was read
			}
			return fmt.Errorf("junit %s: %w", name, err)
		}
		switch el := tok.(type) {
		case xml.StartElement:
			switch el.Name.Local {
			case "testsuite":
				into.set.seen = true
				if attr(el, "name") == "pytest" {
					into.format = FormatPytestJUnit
				}
			case "testcase":
				cur = newJUnitTest(el, paths, into.format)
				flaky = false
			case "failure", "error":
				if cur != nil {
					if cur.Status == StatusPassed {
						cur.Status = StatusFailed
						if el.Name.Local == "error" {
							cur.Status = StatusError
						}
						cur.Message = attr(el, "message")
						failTyp = attr(el, "type")
						if el.Name.Local == "failure" && into.format != FormatPytestJUnit && failTyp == "" {
							failTyp = "AssertionFailure" // JUnit: <failure> is an assertion, <error> an exception
						}
					}
					inFail = true
					text.Reset()
				}
			case "skipped":
				if cur != nil && cur.Status == StatusPassed {
					cur.Status = StatusSkipped
					cur.Message = attr(el, "message")
				}
			case "flakyFailure", "flakyError":
				flaky = true // Surefire rerunFailingTestsCount: failed, then passed
			}
		case xml.CharData:
			if inFail && text.Len() < 64<<10 {
				text.Write(el)
			}
		case xml.EndElement:
			switch el.Name.Local {
			case "failure", "error":
				if inFail && cur != nil {
					junitFrames(cur, text.Bytes(), lim, paths)
					if cur.Message == "" || cur.Message == "collection failure" {
						cur.Message = errorLine(text.String())
					}
				}
				inFail = false
			case "testcase":
				if cur != nil {
					cur.Flaky = flaky && cur.Status == StatusPassed
					cur.kind = junitKind(*cur, failTyp)
					into.set.add(*cur)
					if cur.Flaky {
						into.set.counts.Flaky++
					}
				}
				cur, failTyp = nil, ""
			}
		}
	}
	return nil
}

// newJUnitTest builds the record of a <testcase>.
func newJUnitTest(el xml.StartElement, paths *Paths, format string) *Test {
	cls, name := attr(el, "classname"), attr(el, "name")
	t := &Test{Suite: cls, Name: name, Status: StatusPassed, Offset: -1}
	if secs, err := strconv.ParseFloat(attr(el, "time"), 64); err == nil {
		t.Duration = time.Duration(secs * float64(time.Second))
	}
	file := attr(el, "file")
	if n, err := strconv.Atoi(attr(el, "line")); err == nil {
		t.Line = n
	}
	if format == FormatPytestJUnit {
		if cls == "" { // collection error: name is the module, e.g. tests.test_broken
			file = pytestFileFromClass(paths, name)
			t.ID, t.Name = file, ""
			t.File, _ = paths.Normalize(file)
			return t
		}
		if file == "" {
			file = pytestFileFromClass(paths, cls)
		}
		rel, _ := paths.Normalize(file)
		t.File = rel
		inner := strings.TrimPrefix(cls, strings.ReplaceAll(strings.TrimSuffix(file, ".py"), "/", "."))
		inner = strings.ReplaceAll(strings.TrimPrefix(inner, "."), ".", "::")
		t.ID = strings.TrimSuffix(file, "/") + "::" + name
		if inner != "" {
			t.ID = file + "::" + inner + "::" + name
		}
		return t
	}
	t.ID = cls + "." + name
	if cls == "" {
		t.ID = name
	}
	if file != "" {
		t.File, _ = paths.Normalize(file)
	}
	return t
}

// pytestFileFromClass turns `tests.test_calc.TestX` into `tests/test_calc.py`,
// checking the snapshot when possible.
//
// A doctest of a text file (`--doctest-glob`) has the file itself as its
// class, dots for slashes: `docs.usage.rst` is docs/usage.rst, never a
// Python module.
func pytestFileFromClass(paths *Paths, cls string) string {
	parts := strings.Split(cls, ".")
	if n := len(parts); n > 1 && doctestTextExts[parts[n-1]] {
		cand := strings.Join(parts[:n-1], "/") + "." + parts[n-1]
		if paths.Files == nil || paths.Exists(path.Join(paths.Workdir, cand)) {
			return cand
		}
	}
	for n := len(parts); n > 0; n-- {
		cand := strings.Join(parts[:n], "/") + ".py"
		if paths.Files == nil || paths.Exists(path.Join(paths.Workdir, cand)) {
			return cand
		}
	}
	return strings.Join(parts, "/") + ".py"
}

// doctestTextExts are the extensions of text files pytest collects
// doctests from (--doctest-glob).
var doctestTextExts = map[string]bool{"rst": true, "md": true, "txt": true, "markdown": true}

// junitFrames extracts frames from a failure's text (Python or JVM stacks).
func junitFrames(t *Test, text []byte, lim *Limits, paths *Paths) {
	fp := frameParser{paths: paths}
	fl := frameList{max: lim.MaxFrames}
	python := false
	for _, l := range bytes.Split(text, []byte("\n")) {
		if f, ok := fp.parse(bytes.TrimRight(l, "\r"), true); ok {
			fl.add(f)
			python = python || strings.HasSuffix(f.File, ".py")
		}
	}
	t.Frames = innermostFirst(fl.frames, python)
	if f, ok := firstProject(t.Frames); ok && t.File == "" || ok && python {
		t.File, t.Line = f.File, f.Line
	}
}

// junitKind classifies a failed <testcase>.
func junitKind(t Test, typ string) glv1.FailureKind { return classify(t.Message, typ, t.Status) }

func attr(el xml.StartElement, name string) string {
	for _, a := range el.Attr {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}

// errorLine picks pytest's `E   ` lines from a failure text, else its first line.
func errorLine(s string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.HasPrefix(l, "E ") {
			out = append(out, strings.TrimSpace(l[1:]))
		}
	}
	if len(out) > 0 {
		return strings.Join(out, "\n")
	}
	return firstLine(s)
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
