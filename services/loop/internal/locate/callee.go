package locate

import (
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strings"

	"github.com/greenlight-dev/greenlight/pkg/toolchain/packs"
	"github.com/greenlight-dev/greenlight/services/loop/internal/parse"
)

// Index limits: a definition index reads at most this many source files
// of at most this size each, so a huge repository costs a bounded walk.
const (
	indexMaxFiles     = 5000
	indexMaxFileBytes = 256 << 10
	// calleeLookback is how many lines above the failure are searched for
	// calls when the enclosing test function's start is not found.
	calleeLookback = 40
	// maxDefsPerName skips names defined in many places (String, New):
	// they say nothing about where the fault is. An overridden method
	// (popitem in four cache classes) stays below it.
	maxDefsPerName = 6
	// calleeBody is how many lines of a callee's body are searched for
	// the calls it makes in turn (the second level).
	calleeBody = 60
)

// lang holds one language's definition and call patterns.
type lang struct {
	def *regexp.Regexp
}

var (
	langGo = lang{regexp.MustCompile(`^func\s+(?:\([^)]*\)\s*)?([A-Za-z_]\w*)\s*[\[(]`)}
	langPy = lang{regexp.MustCompile(`^\s*(?:async\s+)?(?:def|class)\s+([A-Za-z_]\w*)\s*[(:]`)}
	langJS = lang{regexp.MustCompile(`^\s*(?:export\s+)?(?:default\s+)?(?:async\s+)?(?:function\s*\*?\s*([A-Za-z_$][\w$]*)\s*\(|(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*(?:async\s*)?(?:function\b|\([^)]*\)\s*=>|[A-Za-z_$][\w$]*\s*=>)|([A-Za-z_$][\w$]*)\s*\([^)]*\)\s*\{\s*$)`)}
	langC  = lang{regexp.MustCompile(`^[A-Za-z_][\w \t\*]*?\b([A-Za-z_]\w*)\s*\([^;]*$`)}
	// reCall is an identifier followed by an opening parenthesis.
	reCall = regexp.MustCompile(`([A-Za-z_$][\w$]*)\s*\(`)
)

// langOf picks the patterns by file extension (nil: not indexed).
func langOf(name string) *lang {
	switch path.Ext(name) {
	case ".go":
		return &langGo
	case ".py":
		return &langPy
	case ".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".jsx", ".tsx":
		return &langJS
	case ".c", ".h", ".cc", ".cpp", ".hpp":
		return &langC
	}
	return packLangs[path.Ext(name)]
}

// packLangs are the toolchain packs' definition patterns by extension.
var packLangs = func() map[string]*lang {
	out := map[string]*lang{}
	for _, p := range packs.Registry.All() {
		s := p.Spec()
		if s.DefinitionPattern == "" {
			continue
		}
		l := &lang{regexp.MustCompile(s.DefinitionPattern)}
		for _, ext := range s.SourceExts {
			out[ext] = l
		}
	}
	return out
}()

// defName returns the name a line defines ("" when none).
func (l *lang) defName(line string) string {
	m := l.def.FindStringSubmatch(line)
	for _, g := range m[min(1, len(m)):] {
		if g != "" {
			return g
		}
	}
	return ""
}

// skipDir names directories that hold no project code of interest.
func skipDir(name string) bool {
	switch name {
	case ".git", "node_modules", "vendor", "third_party", "testdata", "site-packages", ".venv", "venv", ".tox", "target", "dist", "build", "__pycache__":
		return true
	}
	return false
}

// definition is where a name is defined.
type definition struct {
	file string
	line int
	// test: in a test file (a helper the test calls, followed, never
	// shown on its own).
	test bool
}

// index maps names to their definitions in the project's non-test code.
type index map[string][]definition

// buildIndex walks fsys for the definitions of non-test source files.
func buildIndex(fsys fs.FS) index {
	idx := index{}
	files := 0
	_ = fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return nil
		case d.IsDir():
			if p != "." && skipDir(d.Name()) {
				return fs.SkipDir
			}
			return nil
		case files >= indexMaxFiles:
			return fs.SkipAll
		}
		l := langOf(p)
		if l == nil || !d.Type().IsRegular() {
			return nil
		}
		files++
		test := parse.IsTestFile(p)
		for n, line := range readLines(fsys, p, indexMaxFileBytes) {
			if name := l.defName(line); name != "" {
				idx[name] = append(idx[name], definition{file: p, line: n + 1, test: test})
			}
		}
		return nil
	})
	return idx
}

// callees finds the non-test definitions of the functions a failing test
// calls: the calls on the lines of the test from its enclosing definition
// (at most calleeLookback lines up) to the failure line, nearest the
// failure first. Each gets a score below from's, so a callee ranks after
// the failure it came from is placed but before the next failure.
func callees(from Location, fsys fs.FS, idx index) []Location {
	l := langOf(from.File)
	if l == nil {
		return nil
	}
	lines := readLines(fsys, from.File, indexMaxFileBytes)
	if lines == nil || from.Line > len(lines) {
		return nil
	}
	start := testStart(l, lines, from.Line-1)
	c := &calleeScan{fsys: fsys, idx: idx, seen: map[string]bool{}, from: from}
	level := c.calls(lines[start:from.Line], from.Score*0.9, true)
	out := level
	// The functions those call in turn: the function under test often
	// delegates to the one at fault (GetIP → ipConv, Encode → eStruct).
	for depth := 1; depth < calleeDepth && len(level) > 0; depth++ {
		var next []Location
		for _, d := range level {
			next = append(next, c.calls(c.body(d.File, d.Line), d.Score*0.5, false)...)
		}
		out, level = append(out, next...), next
	}
	return out
}

// calleeDepth is how many levels of calls are followed from the test.
const calleeDepth = 3

// calleeScan is one failure's walk through the calls of its test.
type calleeScan struct {
	fsys fs.FS
	idx  index
	seen map[string]bool
	from Location
}

// body returns the lines after a definition, at most calleeBody.
func (c *calleeScan) body(file string, line int) []string {
	lines := readLines(c.fsys, file, indexMaxFileBytes)
	if line > len(lines) {
		return nil
	}
	return lines[line:min(len(lines), line+calleeBody)]
}

// calls lists the non-test definitions of the names lines call (nearest
// the end first), each name once per scan, scored from score down. A
// name defined in a test file (a table-driven test's helper) is followed
// through when helpers is set: its own calls count as the test's.
func (c *calleeScan) calls(lines []string, score float64, helpers bool) []Location {
	var out []Location
	for i := len(lines) - 1; i >= 0; i-- {
		for _, m := range reCall.FindAllStringSubmatch(lines[i], -1) {
			name := m[1]
			defs := c.idx[name]
			if c.seen[name] || len(defs) == 0 || len(defs) > maxDefsPerName {
				continue
			}
			c.seen[name] = true
			for _, d := range defs {
				if d.test {
					if helpers {
						out = append(out, c.calls(c.body(d.file, d.line), score, false)...)
					}
					continue
				}
				out = append(out, Location{File: d.file, Line: d.line, Test: c.from.Test, Kind: c.from.Kind,
					Score: score / float64(1+len(out)), Definition: true})
			}
		}
	}
	return out
}

// testStart is the index of the first line of the test around line i:
// after the nearest definition above it that is indented less than line
// i (an inner class or helper of the test is not its start), at most
// calleeLookback lines up.
func testStart(l *lang, lines []string, i int) int {
	floor := max(0, i-calleeLookback)
	ind := indent(lines[i])
	for j := i - 1; j >= floor; j-- {
		if l.defName(lines[j]) != "" && indent(lines[j]) < ind {
			return j + 1 // the test's own signature is not a call
		}
	}
	return floor
}

// indent counts a line's leading blanks (a tab as one).
func indent(s string) int { return len(s) - len(strings.TrimLeft(s, " \t")) }

// WithCallees puts the code under test first: locations outside test
// files (frames beyond the test: the function that raised or panicked),
// then the definitions the failing tests call, then the test locations
// themselves — so the windows show the function under test, not only the
// assertion.
func WithCallees(locs []Location, fsys fs.FS) []Location {
	if fsys == nil || len(locs) == 0 {
		return locs
	}
	var code, tests []Location
	for _, l := range locs {
		if parse.IsTestFile(l.File) {
			tests = append(tests, l)
		} else {
			code = append(code, l)
		}
	}
	if len(tests) == 0 {
		return locs
	}
	idx := buildIndex(fsys)
	var defs []Location
	for _, t := range tests {
		defs = append(defs, callees(t, fsys, idx)...)
	}
	sort.SliceStable(defs, func(a, b int) bool { return defs[a].Score > defs[b].Score })
	defs = dedupe(defs, code)
	sibs := dedupe(siblings(tests[0], fsys, idx), append(code, defs[:min(len(defs), maxLeadDefs)]...))
	// The failing test's own assertion keeps a window near the top, then
	// the source file it tests by name.
	first := min(len(defs), maxLeadDefs)
	out := append(append(append(append(code, defs[:first]...), tests[0]), sibs...), defs[first:]...)
	return append(out, tests[1:]...)
}

// maxLeadDefs is how many callee definitions come before the first
// test location.
const maxLeadDefs = 3

// dedupe drops locations already in have (same file and line).
func dedupe(locs, have []Location) []Location {
	seen := map[string]bool{}
	for _, h := range have {
		seen[h.File+":"+itoa(h.Line)] = true
	}
	var out []Location
	for _, l := range locs {
		k := l.File + ":" + itoa(l.Line)
		if !seen[k] {
			seen[k] = true
			out = append(out, l)
		}
	}
	return out
}
