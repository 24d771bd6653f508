package locate

import (
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strings"
)

// siblingWholeFile is the size up to which a sibling source file is shown
// whole rather than at the definitions the test's name points at.
const siblingWholeFile = 120

// siblingSources names the source files a test file tests by naming
// convention: Go's x_test.go tests x.go beside it, Python's test_x.py or
// x_test.py tests an x.py anywhere in the project, JavaScript's
// x.test.js or x.spec.ts tests x.js or x.ts beside it or under src/.
func siblingSources(test string, idx index) []string {
	dir, base := path.Split(test)
	var want []string
	switch {
	case strings.HasSuffix(base, "_test.go"):
		want = []string{dir + strings.TrimSuffix(base, "_test.go") + ".go"}
	case strings.HasSuffix(base, ".py"):
		stem := strings.TrimSuffix(strings.TrimPrefix(strings.TrimSuffix(base, ".py"), "test_"), "_test")
		return filesNamed(idx, stem+".py", 2)
	case strings.Contains(base, ".test.") || strings.Contains(base, ".spec."):
		stem := base[:strings.Index(base, ".")]
		for _, ext := range []string{".js", ".ts", ".mjs", ".tsx", ".jsx"} {
			want = append(want, dir+stem+ext, "src/"+stem+ext)
		}
	}
	var out []string
	for _, w := range want {
		if len(filesNamed(idx, w, 1)) > 0 {
			out = append(out, w)
		}
	}
	return out
}

// filesNamed lists the indexed non-test files whose path is name or ends
// in /name, when there are at most limit of them.
func filesNamed(idx index, name string, limit int) []string {
	set := map[string]bool{}
	for _, defs := range idx {
		for _, d := range defs {
			if !d.test && (d.file == name || strings.HasSuffix(d.file, "/"+name)) {
				set[d.file] = true
			}
		}
	}
	if len(set) == 0 || len(set) > limit {
		return nil
	}
	out := make([]string, 0, len(set))
	for f := range set {
		out = append(out, f)
	}
	sort.Strings(out)
	return out
}

// reWord splits identifiers into words: camelCase humps, digits, and
// runs separated by underscores.
var reWord = regexp.MustCompile(`[A-Z]?[a-z]+|[A-Z]+(?:[A-Z][a-z]|$)?|[0-9]+`)

// words are the lowercased words of at least 4 letters of an identifier.
func words(s string) map[string]bool {
	out := map[string]bool{}
	for _, w := range reWord.FindAllString(s, -1) {
		if len(w) >= 4 {
			out[strings.ToLower(w)] = true
		}
	}
	return out
}

// siblings locates the code a failing test's file tests by name: a small
// sibling source file whole, else the definitions in it that share a word
// with the test's name (TestDecodeTextUnmarshalerFloat → unifyText).
func siblings(from Location, fsys fs.FS, idx index) []Location {
	var out []Location
	testWords := words(from.Test[strings.LastIndexAny(from.Test, ".:")+1:])
	for _, file := range siblingSources(from.File, idx) {
		lines := readLines(fsys, file, indexMaxFileBytes)
		if lines == nil {
			continue
		}
		if len(lines) <= siblingWholeFile {
			out = append(out, Location{File: file, Line: 1, Test: from.Test, Kind: from.Kind, Score: from.Score * 0.5, Whole: true})
			continue
		}
		for name, defs := range idx {
			if !sharesWord(words(name), testWords) {
				continue
			}
			for _, d := range defs {
				if d.file == file {
					out = append(out, Location{File: file, Line: d.line, Test: from.Test, Kind: from.Kind, Score: from.Score * 0.4, Definition: true})
				}
			}
		}
	}
	sort.SliceStable(out, func(a, b int) bool {
		return out[a].File < out[b].File || out[a].File == out[b].File && out[a].Line < out[b].Line
	})
	return out
}

func sharesWord(a, b map[string]bool) bool {
	for w := range a {
		if b[w] {
			return true
		}
	}
	return false
}
