package patch

import (
	"github.com/greenlight-dev/greenlight/pkg/lazyregexp"

	"strings"
)

// Exit hooks: an atexit handler or a signal handler that exits or
// rewrites output changes the run's exit status after the tests ran. The
// registration alone is common honest code (cleanup, graceful shutdown);
// the audit looks at what the handler does.

var (
	pyAtexitCall     = lazyregexp.New(`\batexit\.register\s*\((.*)`)
	pyAtexitDecor    = lazyregexp.New(`^\s*@\s*atexit\.register\b`)
	pySignalCall     = lazyregexp.New(`\bsignal\.signal\s*\(\s*[^,]+,(.*)`)
	pyHandlerName    = lazyregexp.New(`^\s*([\w.]+)`)
	pyHandlerEffects = lazyregexp.New(pyExitCall + `|\b(sys\.exit|os\._exit|os\.abort|os\.kill)\b|\bsys\.std(out|err)\b|\bos\.dup2?\s*\(|\bos\.write\(\s*[12]\b`)
)

// handlerChecks flags Python atexit and signal handlers that exit or
// touch the output streams, where the registration or the handler is
// added.
func handlerChecks(s *source, sc *scopes) []suspicion {
	if s.lang != langPython {
		return nil
	}
	byName := map[string]auditFunc{}
	for _, f := range sc.funcs {
		byName[f.name] = f
	}
	var out []suspicion
	for i, l := range s.lines {
		var handler string
		var decorated *auditFunc
		switch {
		case pyAtexitDecor.MatchString(l.code):
			for _, f := range sc.funcs {
				if f.start > i && f.start <= i+3 {
					decorated = &f
					break
				}
			}
		case pyAtexitCall.MatchString(l.code):
			handler = pyAtexitCall.FindStringSubmatch(l.code)[1]
		case pySignalCall.MatchString(l.code):
			handler = pySignalCall.FindStringSubmatch(l.code)[1]
		default:
			continue
		}
		var body *auditFunc
		if decorated != nil {
			body = decorated
		} else if pyHandlerEffects.MatchString(handler) {
			if l.added {
				out = append(out, hookSuspicion(i, l))
			}
			continue
		} else if m := pyHandlerName.FindStringSubmatch(handler); m != nil {
			name := m[1][strings.LastIndex(m[1], ".")+1:]
			if f, ok := byName[name]; ok {
				body = &f
			}
		}
		if body == nil || !pyHandlerEffects.MatchString(funcCode(s, *body)) {
			continue
		}
		switch {
		case l.added:
			out = append(out, hookSuspicion(i, l))
		case anyAdded(s, body.start, body.end):
			at := firstAdded(s, body.start, body.end)
			out = append(out, hookSuspicion(at, s.lines[at]))
		}
	}
	return out
}

// hookSuspicion is the finding for an exit hook.
func hookSuspicion(i int, l srcLine) suspicion {
	return suspicion{kind: suspectExitHook, line: i + 1, text: l.text,
		why: "library code may not register atexit or signal handlers that exit or touch stdout/stderr; they change the run's exit status and output"}
}
