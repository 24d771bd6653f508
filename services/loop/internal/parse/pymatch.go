package parse

import (
	"bytes"
)

// Hand-written matchers for the Python lines seen on nearly every line of a
// pytest log. Each is exactly equivalent to the regular expression in its
// doc comment (pymatch_test.go fuzzes them against it); they exist because
// the regexes cost more than the rest of the parse together.

// matchPytestFrame matches a pytest traceback position:
//
//	^([^\s:"'()]+\.py):(\d+):(?: (?:in (\S+))?.*)?$
//
// returning the file, the line number and the function (nil when absent).
func matchPytestFrame(t []byte) (file, lineNo, fn []byte, ok bool) {
	// No ':' may occur in the file, so it ends at the first one.
	c := bytes.IndexByte(t, ':')
	if c < 4 || !hasSuffix(t[:c], ".py") {
		return nil, nil, nil, false
	}
	for _, b := range t[:c] {
		if isReSpace(b) || b == '"' || b == '\'' || b == '(' || b == ')' {
			return nil, nil, nil, false
		}
	}
	end := digitsEnd(t, c+1)
	if end == c+1 || end >= len(t) || t[end] != ':' {
		return nil, nil, nil, false
	}
	rest := t[end+1:]
	if len(rest) > 0 {
		// ` ` then anything but a newline (`.` does not match \n).
		if rest[0] != ' ' || bytes.IndexByte(rest, '\n') >= 0 {
			return nil, nil, nil, false
		}
		if in := rest[1:]; hasPrefix(in, "in ") {
			j := 3
			for j < len(in) && !isReSpace(in[j]) {
				j++
			}
			if j > 3 {
				fn = in[3:j]
			}
		}
	}
	return t[:c], t[c+1 : end], fn, true
}

// matchPyFrame matches a Python traceback frame:
//
//	^\s*File "([^"]+)", line (\d+),? in (.+)$
//
// returning the file, the line number and the function.
func matchPyFrame(t []byte) (file, lineNo, fn []byte, ok bool) {
	i := 0
	for i < len(t) && isReSpace(t[i]) {
		i++
	}
	if !hasPrefix(t[i:], `File "`) {
		return nil, nil, nil, false
	}
	i += len(`File "`)
	q := bytes.IndexByte(t[i:], '"')
	if q <= 0 {
		return nil, nil, nil, false
	}
	file = t[i : i+q]
	i += q + 1
	if !hasPrefix(t[i:], ", line ") {
		return nil, nil, nil, false
	}
	i += len(", line ")
	end := digitsEnd(t, i)
	if end == i {
		return nil, nil, nil, false
	}
	lineNo = t[i:end]
	i = end
	if i < len(t) && t[i] == ',' {
		i++
	}
	if !hasPrefix(t[i:], " in ") {
		return nil, nil, nil, false
	}
	fn = t[i+len(" in "):]
	if len(fn) == 0 || bytes.IndexByte(fn, '\n') >= 0 {
		return nil, nil, nil, false
	}
	return file, lineNo, fn, true
}

// pytestCountWord returns the length of the outcome word of
// rePytestCounts (`passed|failed|skipped|errors?|xfailed|xpassed|deselected|warnings?|rerun`)
// at the start of t, preferring the longer of `errors?`/`warnings?` as the
// regex's greedy `?` does; 0 when none.
func pytestCountWord(t []byte) int {
	if len(t) == 0 {
		return 0
	}
	// No word is a prefix of another (but for the optional plural 's'), so
	// the first letter picks the only candidate but for x.
	var w string
	switch t[0] {
	case 'p':
		w = "passed"
	case 'f':
		w = "failed"
	case 's':
		w = "skipped"
	case 'e':
		w = "error"
	case 'x':
		if w = "xfailed"; !hasPrefix(t, w) {
			w = "xpassed"
		}
	case 'd':
		w = "deselected"
	case 'w':
		w = "warning"
	case 'r':
		w = "rerun"
	default:
		return 0
	}
	if !hasPrefix(t, w) {
		return 0
	}
	if (w[0] == 'e' || w[0] == 'w') && len(t) > len(w) && t[len(w)] == 's' {
		return len(w) + 1 // errors?, warnings?: the greedy ? takes the 's'
	}
	return len(w)
}

// eachPytestCount calls fn for every match of
//
//	(\d+) (passed|failed|skipped|errors?|xfailed|xpassed|deselected|warnings?|rerun)
//
// in t, left to right and non-overlapping as FindAll reports them, and
// returns the number of matches. fn may be nil.
func eachPytestCount(t []byte, fn func(n, word []byte)) int {
	found := 0
	for i := 0; i < len(t); {
		if !isDigit(t[i]) {
			i++
			continue
		}
		// A match can only start at the first digit of a run: starting
		// later in the run is followed by the same text.
		end := digitsEnd(t, i)
		if end < len(t) && t[end] == ' ' {
			if w := pytestCountWord(t[end+1:]); w > 0 {
				found++
				if fn != nil {
					fn(t[i:end], t[end+1:end+1+w])
				}
				i = end + 1 + w
				continue
			}
		}
		i = end
	}
	return found
}

// matchPytestQuiet matches pytest -q's closing line:
//
//	^(?:\d+ (?:passed|failed|skipped|errors?|xfailed|xpassed|deselected|warnings?|rerun)(?:, )?)+ in [\d.]+s
func matchPytestQuiet(t []byte) bool {
	for i := 0; ; {
		end := digitsEnd(t, i)
		if end == i || end >= len(t) || t[end] != ' ' {
			return false
		}
		w := pytestCountWord(t[end+1:])
		if w == 0 {
			return false
		}
		i = end + 1 + w
		// The group may end here or after its optional ", "; otherwise
		// the next repetition starts right after (only one applies).
		if quietTail(t[i:]) {
			return true
		}
		if hasPrefix(t[i:], ", ") {
			i += 2
			if quietTail(t[i:]) {
				return true
			}
		}
	}
}

// quietTail matches ` in [\d.]+s` at the start of t.
func quietTail(t []byte) bool {
	if !hasPrefix(t, " in ") {
		return false
	}
	t = t[len(" in "):]
	j := 0
	for j < len(t) && (isDigit(t[j]) || t[j] == '.') {
		j++
	}
	return j > 0 && j < len(t) && t[j] == 's'
}

// pytestProgress splits a progress line `tests/test_x.py ..F.s  [ 40%]` into
// the file and its outcome letters. It matches exactly one of
//
//	^(\S+\.py) ([.sFExX]*)(?:\s+\[\s*\d+%\])?$
//	^(\S+\.py) ([.sFExX]*)(Fatal Python error: .*)$
//
// trying the first one first; fatal is the third group of the second.
func pytestProgress(t []byte) (file, marks, fatal []byte, ok bool) {
	// \S+ stops at the first whitespace, which must be the literal space.
	w := 0
	for w < len(t) && !isReSpace(t[w]) {
		w++
	}
	if w < 4 || w >= len(t) || t[w] != ' ' || !hasSuffix(t[:w], ".py") {
		return nil, nil, nil, false
	}
	r := w + 1
	for r < len(t) && isProgressMark(t[r]) {
		r++
	}
	file, marks, rest := t[:w], t[w+1:r], t[r:]
	if len(rest) == 0 || isPercentTail(rest) {
		return file, marks, nil, true
	}
	// The marks may only give back a final 'F', to start "Fatal".
	if r > w+1 && t[r-1] == 'F' && hasPrefix(t[r-1:], "Fatal Python error: ") && bytes.IndexByte(rest, '\n') < 0 {
		return file, t[w+1 : r-1], t[r-1:], true
	}
	return nil, nil, nil, false
}

func isProgressMark(c byte) bool {
	return c == '.' || c == 's' || c == 'F' || c == 'E' || c == 'x' || c == 'X'
}

// isPercentTail matches `\s+\[\s*\d+%\]$`.
func isPercentTail(t []byte) bool {
	i := 0
	for i < len(t) && isReSpace(t[i]) {
		i++
	}
	if i == 0 || i >= len(t) || t[i] != '[' {
		return false
	}
	i++
	for i < len(t) && isReSpace(t[i]) {
		i++
	}
	end := digitsEnd(t, i)
	return end > i && len(t) == end+2 && t[end] == '%' && t[end+1] == ']'
}
