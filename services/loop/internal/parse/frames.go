package parse

import (
	"github.com/greenlight-dev/greenlight/pkg/lazyregexp"

	"bytes"
	"strconv"
)

var (
	// Python frames (`  File "/workspace/app/calc.py", line 9, in div`) and
	// pytest's `app/calc.py:16: in mean` are matched by hand: see pymatch.go.
	// Go panic frames: `\t/workspace/svc/calc/calc.go:16 +0x1d`.
	reGoFrame = lazyregexp.New(`^\t(\S+\.go):(\d+)(?: \+0x[0-9a-f]+)?$`)
	// Node/V8: `    at fn (/path/x.js:7:11)`, `    at /path/x.js:7:11`; node TAP stacks drop "at ".
	reNodeFrame = lazyregexp.New(`^\s+(?:at )?(?:(?:async )?([^()]*?) \()?((?:file://)?[^\s()]+?\.(?:[cm]?[jt]sx?|vue|svelte)):(\d+):(\d+)\)?$`)
	// vitest code locations: ` ❯ average src/sum.js:7:11`.
	reVitestFrame = lazyregexp.New(`^\s*❯ (?:(\S+) )?([^\s:]+\.(?:[cm]?[jt]sx?|vue|svelte)):(\d+):(\d+)$`)
	// Rust backtrace `at ./src/lib.rs:27:9` and panics `panicked at src/lib.rs:27:9:`.
	reRustAt = lazyregexp.New(`^\s+at (\S+\.rs):(\d+):(\d+)$`)
	// Java: `\tat com.example.CalcTest.addsWrong(CalcTest.java:18)`.
	reJavaFrame = lazyregexp.New(`^\s+at ([\w$.<>/]+)\.([\w$<>]+)\(([\w$]+\.(?:java|kt|scala|groovy)):(\d+)\)$`)
)

// frameParser extracts stack frames from single lines of any language.
type frameParser struct {
	paths *Paths
	// prev is the previous line when it looked like a Go function line.
	goFunc []byte
}

// parse returns the frame on the line, if any. pytest-style frames are only
// accepted when allowPytest is set (inside a pytest failure section), because
// `x.py:12: text` is also the shape of lint output.
func (fp *frameParser) parse(t []byte, allowPytest bool) (Frame, bool) {
	if len(t) < 4 {
		fp.goFunc = nil
		return Frame{}, false
	}
	if f, ok := fp.match(t, allowPytest); ok {
		return f, true
	}
	if t[0] != ' ' && t[0] != '\t' && t[len(t)-1] == ')' && bytes.IndexByte(t, '(') > 0 {
		fp.goFunc = append(fp.goFunc[:0], t...)
	} else {
		fp.goFunc = nil
	}
	return Frame{}, false
}

// match dispatches on the source extension found in the line, so each
// line costs one scan plus at most one regex.
func (fp *frameParser) match(t []byte, allowPytest bool) (Frame, bool) {
	if bytes.Contains(t, []byte(`File "`)) {
		if file, lineNo, fn, ok := matchPyFrame(t); ok {
			return fp.frameBytes(file, lineNo, nil, string(fn)), true
		}
		return Frame{}, false
	}
	switch ext := locExt(t); ext {
	case "":
		return Frame{}, false
	case "go":
		if m := reGoFrame.FindSubmatch(t); t[0] == '\t' && m != nil {
			f := fp.frame(string(m[1]), m[2], nil, goFuncName(fp.goFunc))
			fp.goFunc = nil
			return f, true
		}
	case "rs":
		if m := reRustAt.FindSubmatch(t); m != nil {
			return fp.frame(string(m[1]), m[2], m[3], ""), true
		}
	case "java", "kt", "scala", "groovy":
		if m := reJavaFrame.FindSubmatch(t); m != nil {
			cls := string(m[1])
			f := Frame{File: fp.paths.JavaFile(cls, string(m[3])), Func: cls + "." + string(m[2]), Project: !isJavaLibrary(cls)}
			f.Line, _ = strconv.Atoi(string(m[4]))
			return f, true
		}
	case "py":
		// Only pytest sections accept `x.py:12: text` (see parse).
		if !allowPytest {
			return Frame{}, false
		}
		if file, lineNo, fn, ok := matchPytestFrame(t); ok {
			return fp.frameBytes(file, lineNo, nil, string(fn)), true
		}
	default: // JavaScript and TypeScript family
		if bytes.Contains(t, []byte("❯ ")) {
			if m := reVitestFrame.FindSubmatch(t); m != nil {
				return fp.frame(string(m[2]), m[3], m[4], string(m[1])), true
			}
		} else if t[0] == ' ' || t[0] == '\t' {
			if m := reNodeFrame.FindSubmatch(t); m != nil {
				return fp.frame(string(m[2]), m[3], m[4], string(bytes.TrimSpace(m[1]))), true
			}
		}
	}
	return Frame{}, false
}

// frameExt returns the frame extension ext names as a constant string (no
// allocation per line), or "" when it is not one.
func frameExt(ext []byte) string {
	switch string(ext) {
	case "go":
		return "go"
	case "rs":
		return "rs"
	case "py":
		return "py"
	case "java":
		return "java"
	case "kt":
		return "kt"
	case "scala":
		return "scala"
	case "groovy":
		return "groovy"
	case "js":
		return "js"
	case "mjs":
		return "mjs"
	case "cjs":
		return "cjs"
	case "jsx":
		return "jsx"
	case "ts":
		return "ts"
	case "mts":
		return "mts"
	case "cts":
		return "cts"
	case "tsx":
		return "tsx"
	case "vue":
		return "vue"
	case "svelte":
		return "svelte"
	}
	return ""
}

// locExt returns the extension of the first `name.ext:digit` in t, or "".
func locExt(t []byte) string {
	for i := bytes.IndexByte(t, '.'); i >= 0; {
		j := i + 1
		for j < len(t) && j-i <= 7 && (t[j] >= 'a' && t[j] <= 'z') {
			j++
		}
		if j+1 < len(t) && t[j] == ':' && t[j+1] >= '0' && t[j+1] <= '9' {
			if ext := frameExt(t[i+1 : j]); ext != "" {
				return ext
			}
		}
		k := bytes.IndexByte(t[i+1:], '.')
		if k < 0 {
			break
		}
		i += 1 + k
	}
	return ""
}

// frameBytes is frame for a file name still in the line buffer: a file
// seen before costs no allocation.
func (fp *frameParser) frameBytes(file, lineNo, col []byte, fn string) Frame {
	rel, project := fp.paths.normalizeBytes(file)
	f := Frame{File: rel, Func: fn, Project: project}
	f.Line = atoi(lineNo)
	if col != nil {
		f.Column = atoi(col)
	}
	return f
}

func (fp *frameParser) frame(file string, lineNo, col []byte, fn string) Frame {
	rel, project := fp.paths.Normalize(file)
	f := Frame{File: rel, Func: fn, Project: project}
	f.Line, _ = strconv.Atoi(string(lineNo))
	if col != nil {
		f.Column, _ = strconv.Atoi(string(col))
	}
	return f
}

// goFuncName turns `example.com/svc/calc.At(...)` into `example.com/svc/calc.At`.
func goFuncName(b []byte) string {
	if i := bytes.LastIndexByte(b, '('); i > 0 {
		return string(b[:i])
	}
	return ""
}

// isJavaLibrary tells JDK and common framework frames from project frames.
func isJavaLibrary(cls string) bool {
	for _, p := range []string{"java.", "javax.", "jdk.", "sun.", "org.junit.", "junit.", "org.apache.maven.", "org.testng.", "kotlin.", "scala."} {
		if len(cls) >= len(p) && cls[:len(p)] == p {
			return true
		}
	}
	return false
}

// frameList collects a bounded list of frames in order of appearance.
type frameList struct {
	frames []Frame
	max    int
}

func (l *frameList) add(f Frame) {
	if n := len(l.frames); n > 0 && l.frames[n-1].File == f.File && l.frames[n-1].Line == f.Line {
		if l.frames[n-1].Func == "" {
			l.frames[n-1].Func = f.Func
		}
		return // the panic site printed again as the first backtrace frame
	}
	if len(l.frames) < l.max {
		l.frames = append(l.frames, f)
	}
}

// innermostFirst returns the frames with the innermost frame first, given
// whether the printed order was outermost first (Python) or not.
func innermostFirst(frames []Frame, outermostFirst bool) []Frame {
	out := make([]Frame, len(frames))
	copy(out, frames)
	if outermostFirst {
		for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
			out[i], out[j] = out[j], out[i]
		}
	}
	return out
}

// firstProject returns the first project frame.
func firstProject(frames []Frame) (Frame, bool) {
	for _, f := range frames {
		if f.Project && f.File != "" {
			return f, true
		}
	}
	return Frame{}, false
}
