package coverage

import (
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"path"
	"sort"
	"strconv"
	"strings"
)

// NodeTool names Node's built-in coverage in the result.
const NodeTool = "node NODE_V8_COVERAGE"

// v8Coverage is what Node writes to NODE_V8_COVERAGE, one file per process:
// the V8 inspector's precise block coverage per script, in byte offsets.
type v8Coverage struct {
	Result []struct {
		URL       string `json:"url"`
		Functions []struct {
			Ranges []v8Range `json:"ranges"`
		} `json:"functions"`
	} `json:"result"`
}

type v8Range struct {
	Start int   `json:"startOffset"`
	End   int   `json:"endOffset"`
	Count int64 `json:"count"`
}

// Source returns a workspace file's content, false when it is not there.
type Source func(rel string) ([]byte, bool)

// ParseV8 reads one NODE_V8_COVERAGE file and turns the ranges of the
// workspace's own JavaScript (file:///workspace/..., not node_modules, not
// test files) into line coverage with the file's source from the
// snapshot: a non-blank line that is not only a comment counts as run when
// the innermost range holding it ran. A script whose top-level range does
// not span its source exactly was transformed before it ran (jest's babel,
// TypeScript loaders): its offsets name another text, so it is left out
// rather than mapped to the wrong lines.
func ParseV8(r io.Reader, src Source) (*Set, error) {
	var doc v8Coverage
	if err := json.NewDecoder(r).Decode(&doc); err != nil {
		return nil, fmt.Errorf("v8 coverage: %w", err)
	}
	s := NewSet()
	s.Tools = []string{NodeTool}
	for _, sc := range doc.Result {
		rel, ok := workspaceScript(sc.URL)
		if !ok || isJSTestFile(rel) {
			continue
		}
		text, ok := src(rel)
		if !ok || len(sc.Functions) == 0 || len(sc.Functions[0].Ranges) == 0 {
			continue
		}
		if top := sc.Functions[0].Ranges[0]; top.Start != 0 || top.End != len(text) {
			continue
		}
		var ranges []v8Range
		for _, f := range sc.Functions {
			ranges = append(ranges, f.Ranges...)
		}
		// Enclosing ranges first, so an inner one overrides them.
		sort.SliceStable(ranges, func(i, j int) bool {
			if ranges[i].Start != ranges[j].Start {
				return ranges[i].Start < ranges[j].Start
			}
			return ranges[i].End > ranges[j].End
		})
		for n, ln := range jsLines(text) {
			var count int64
			for _, rg := range ranges {
				if rg.Start <= ln.start && ln.end <= rg.End {
					count = rg.Count
				}
			}
			s.add(rel, strconv.Itoa(n+1), Unit{N: 1, Hit: count > 0})
		}
	}
	return s, nil
}

// lineSpan is the non-blank part of a line, in byte offsets.
type lineSpan struct{ start, end int }

// jsLines are the lines of a script that count, by 0-based index: the span
// of each line's text without surrounding blanks. Blank and comment-only
// lines are absent.
func jsLines(text []byte) map[int]lineSpan {
	out := map[int]lineSpan{}
	off := 0
	for i, line := range strings.Split(string(text), "\n") {
		trimmed := strings.TrimSpace(line)
		if trimmed != "" && !strings.HasPrefix(trimmed, "//") && !strings.HasPrefix(trimmed, "/*") && !strings.HasPrefix(trimmed, "*") {
			lead := len(line) - len(strings.TrimLeft(line, " \t\r"))
			out[i] = lineSpan{start: off + lead, end: off + lead + len(trimmed)}
		}
		off += len(line) + 1
	}
	return out
}

// workspaceScript is the workspace path of a script URL under the
// sandbox's workspace, false for anything else (node: internals, other
// directories, dependencies).
func workspaceScript(u string) (string, bool) {
	p, err := url.Parse(u)
	if err != nil || p.Scheme != "file" {
		return "", false
	}
	rel, ok := strings.CutPrefix(p.Path, "/workspace/")
	if !ok || strings.Contains("/"+rel+"/", "/node_modules/") {
		return "", false
	}
	switch path.Ext(rel) {
	case ".js", ".cjs", ".mjs":
	default:
		return "", false
	}
	rel = path.Clean(rel)
	if rel == ".." || strings.HasPrefix(rel, "../") {
		return "", false
	}
	return rel, true
}

// isJSTestFile reports whether a JavaScript path is test code: *.test.js,
// *.spec.js, or under test/, tests/ or __tests__/.
func isJSTestFile(p string) bool {
	b := path.Base(p)
	for _, m := range []string{".test.", ".spec."} {
		if strings.Contains(b, m) {
			return true
		}
	}
	for _, dir := range strings.Split(path.Dir(p), "/") {
		if dir == "test" || dir == "tests" || dir == "__tests__" {
			return true
		}
	}
	return false
}
