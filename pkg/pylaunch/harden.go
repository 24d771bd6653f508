package pylaunch

import (
	"regexp"
	"strings"
)

// launched are the tools Harden runs through the launcher (they import the
// project's code); safePathTools get -P alone.
var (
	launched      = map[string]bool{"pytest": true, "unittest": true, "mypy": true, "ruff": true}
	safePathTools = map[string]bool{"pip": true, "venv": true, "compileall": true}
)

// pythonWord is an interpreter named as a command: python, python3.12,
// .venv/bin/python.
var pythonWord = regexp.MustCompile(`^(?:[A-Za-z0-9_.+/-]*/)?python[0-9.]*$`)

// precommand are shell words after which a command still starts.
var precommand = map[string]bool{
	"then": true, "do": true, "else": true, "elif": true, "if": true, "while": true, "until": true,
	"{": true, "!": true, "time": true, "exec": true, "command": true,
}

var assignment = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*=`)

// shellWord is one word of a command line: its span and whether any part
// of it is quoted, escaped or expanded (such words are left alone).
type shellWord struct {
	start, end int
	text       string
	plain      bool
	// first is true for the first word of a simple command (after
	// assignments and keywords such as then, do, time).
	first bool
}

// Harden rewrites a shell command a repository configured (greenlight.yaml,
// CI) so the workspace cannot replace the Python tools it runs: each
// unquoted `PYTHON -m TOOL` that starts a simple command runs pytest,
// unittest, mypy and ruff through the launcher and pip, venv and
// compileall with -P. Anything else is left as written (a tool run by its
// own name, `pytest`, runs from its script's directory, not the working
// directory). changed reports whether anything was rewritten.
func Harden(command string) (hardened string, changed bool) {
	words := splitWords(command)
	type edit struct {
		start, end int
		text       string
	}
	var edits []edit
	for i := 0; i+2 < len(words); i++ {
		py, flag, mod := words[i], words[i+1], words[i+2]
		if !py.first || !py.plain || !flag.plain || !mod.plain || !pythonWord.MatchString(py.text) || flag.text != "-m" {
			continue
		}
		switch {
		case launched[mod.text]:
			edits = append(edits, edit{py.start, mod.end, Tool(py.text, mod.text)})
		case safePathTools[mod.text]:
			edits = append(edits, edit{flag.start, flag.start, "-P "})
		default:
			continue
		}
		i += 2
	}
	if len(edits) == 0 {
		return command, false
	}
	var b strings.Builder
	last := 0
	for _, e := range edits {
		b.WriteString(command[last:e.start])
		b.WriteString(e.text)
		last = e.end
	}
	b.WriteString(command[last:])
	return b.String(), true
}

// splitWords splits a command line into words, marking the first word of
// each simple command. Quotes, escapes and expansions keep a word whole
// and make it not plain; operators (; & | ( ) and newlines) end a command.
func splitWords(s string) []shellWord {
	var out []shellWord
	first := true
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t':
			i++
			continue
		case c == '\n' || c == ';' || c == '&' || c == '|' || c == '(' || c == ')':
			first = true
			i++
			continue
		case c == '#' && (i == 0 || s[i-1] == ' ' || s[i-1] == '\t' || s[i-1] == '\n'):
			for i < len(s) && s[i] != '\n' {
				i++
			}
			continue
		}
		w := shellWord{start: i, plain: true}
	word:
		for i < len(s) {
			switch s[i] {
			case ' ', '\t', '\n', ';', '&', '|', '(', ')':
				break word
			case '\'':
				w.plain = false
				if j := strings.IndexByte(s[i+1:], '\''); j >= 0 {
					i += j + 2
				} else {
					i = len(s)
				}
			case '"':
				w.plain = false
				i++
				for i < len(s) && s[i] != '"' {
					if s[i] == '\\' {
						i++
					}
					i++
				}
				i++
			case '\\':
				w.plain = false
				i += 2
			case '$', '`':
				w.plain = false
				i++
			default:
				i++
			}
		}
		w.end = min(i, len(s))
		w.text = s[w.start:w.end]
		w.first = first
		out = append(out, w)
		if !(first && (precommand[w.text] || assignment.MatchString(w.text))) {
			first = false
		}
	}
	return out
}
