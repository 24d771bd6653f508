package cisource

import (
	"strings"
)

// line is one logical line of a script with its 0-based offset in the
// script (continuations joined, comments and blank lines dropped).
type line struct {
	Text   string
	Offset int
}

// logicalLines splits a CI script into the command lines a shell would
// run: a trailing backslash joins the next line, here-document bodies are
// dropped, and blank and comment lines are skipped.
func logicalLines(script string) []line {
	var out []line
	raw := strings.Split(script, "\n")
	for i := 0; i < len(raw); i++ {
		start := i
		text := strings.TrimRight(raw[i], " \t\r")
		for strings.HasSuffix(text, `\`) && i+1 < len(raw) {
			i++
			text = strings.TrimRight(strings.TrimSuffix(text, `\`), " \t") + " " + strings.TrimSpace(raw[i])
		}
		text = strings.TrimSpace(text)
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		out = append(out, line{Text: text, Offset: start})
		if delim := heredoc(text); delim != "" {
			for i+1 < len(raw) && strings.TrimSpace(raw[i+1]) != delim {
				i++
			}
			i++ // the delimiter line
		}
	}
	return out
}

// heredoc returns the delimiter of a here-document a line opens.
func heredoc(text string) string {
	i := strings.Index(text, "<<")
	if i < 0 || strings.HasPrefix(text[i:], "<<<") {
		return ""
	}
	rest := strings.TrimLeft(text[i+2:], "-~ ")
	f := strings.Fields(rest)
	if len(f) == 0 {
		return ""
	}
	return strings.Trim(f[0], `'"`)
}

// Parts splits a command line into its simple commands (see splitParts).
func Parts(run string) []string { return splitParts(run) }

// splitParts splits a command line into simple commands at &&, ||, ;, |,
// & and subshell parentheses, outside quotes and $(...) substitutions.
func splitParts(s string) []string {
	var parts []string
	var cur strings.Builder
	flush := func() {
		if p := strings.TrimSpace(cur.String()); p != "" {
			parts = append(parts, p)
		}
		cur.Reset()
	}
	var quote rune
	depth := 0 // inside $( ... )
	rs := []rune(s)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			}
		case r == '\'' || r == '"' || r == '`':
			quote = r
		case r == '$' && i+1 < len(rs) && (rs[i+1] == '(' || rs[i+1] == '{'):
			depth++
			cur.WriteRune(r)
			i++
			r = rs[i]
		case depth > 0 && (r == ')' || r == '}'):
			depth--
		case depth > 0:
		case r == '&' || r == '|' || r == ';' || r == '(' || r == ')':
			flush()
			continue
		}
		cur.WriteRune(r)
	}
	flush()
	return parts
}

// words splits a simple command into words, removing quotes.
func words(s string) []string {
	var out []string
	var cur strings.Builder
	in := false
	var quote rune
	for _, r := range s {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
				continue
			}
			cur.WriteRune(r)
		case r == '\'' || r == '"':
			quote, in = r, true
		case r == ' ' || r == '\t':
			if in {
				out = append(out, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteRune(r)
			in = true
		}
	}
	if in {
		out = append(out, cur.String())
	}
	return out
}

// isAssignment matches a leading NAME=value word.
func isAssignment(w string) bool {
	eq := strings.IndexByte(w, '=')
	if eq <= 0 {
		return false
	}
	for i, r := range w[:eq] {
		ok := r == '_' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || i > 0 && r >= '0' && r <= '9'
		if !ok {
			return false
		}
	}
	return true
}

// builtins are shell words and plain utilities: a step's name never
// classifies them ("echo tests done" in a step named "Test" is no test).
var builtins = map[string]bool{
	"cd": true, "echo": true, "printf": true, "set": true, "export": true, "exit": true, "if": true,
	"then": true, "else": true, "elif": true, "fi": true, "for": true, "do": true, "done": true,
	"while": true, "case": true, "esac": true, "[": true, "[[": true, "test": true, "true": true,
	"false": true, "source": true, ".": true, "shift": true, "local": true, "read": true,
	"unset": true, "trap": true, "wait": true, "sleep": true, "mkdir": true, "rm": true, "cp": true,
	"mv": true, "ls": true, "cat": true, "tee": true, "grep": true, "sed": true, "awk": true,
	"touch": true, "chmod": true, "pwd": true, "env": true, "which": true, "head": true, "tail": true,
	"find": true, "xargs": true, "sort": true, "diff": true, "git": true, "exec": true, "eval": true,
	"{": true, "}": true, "!": true, "function": true, "return": true, "ln": true, "tar": true,
}
