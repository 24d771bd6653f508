package main

import (
	"regexp"
	"strings"
)

// A mention is something a doc names: a make target or a repository path.
type mention struct {
	line int
	text string
}

var (
	codeSpan = regexp.MustCompile("`([^`]+)`")
	// proseMake is "make X" in running text. Prose says "make sure" and
	// "(make exits 2)", so there only "(make X)" and hyphenated names count
	// as naming a target; in code every one does.
	proseMake  = regexp.MustCompile(`(\(?)\bmake\s+([a-z][a-z0-9_-]*)(\)?)`)
	targetWord = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_.-]*$`)
	// shellComment is a "#" comment in a line of shell.
	shellComment = regexp.MustCompile(`(^|\s)#.*`)
	// commandSep splits a shell line into commands.
	commandSep = regexp.MustCompile(`&&|\|\||[;|()]`)
)

// lineAt is the 1-based line of offset off in text that starts at line first.
func lineAt(text string, off, first int) int {
	return first + strings.Count(text[:off], "\n")
}

// makeTargetsInCode returns the targets of every make command in a piece of
// code ("make engine images", "cd x && make test IMAGES=go"); a shell
// comment is not code. A command with -C or -f runs another Makefile, not
// this repository's.
func makeTargetsInCode(code string) []string {
	code = shellComment.ReplaceAllString(code, "")
	var out []string
	for _, cmd := range commandSep.Split(code, -1) {
		fields := strings.Fields(cmd)
		for i, f := range fields {
			if f != "make" {
				continue
			}
			var names []string
			other := false
			for _, a := range fields[i+1:] {
				if strings.HasPrefix(a, "-C") || strings.HasPrefix(a, "-f") || strings.HasPrefix(a, "--directory") || strings.HasPrefix(a, "--file") {
					other = true
					break
				}
				if strings.HasPrefix(a, "-") || strings.Contains(a, "=") {
					continue // a flag or a variable
				}
				if !targetWord.MatchString(a) || strings.ToUpper(a) == a {
					break // a placeholder (make TARGET) or prose after the command
				}
				names = append(names, a)
			}
			if !other {
				out = append(out, names...)
			}
			break
		}
	}
	return out
}

// makeMentions returns the make targets named in text, which starts at line
// first. With code set the whole text is code (a fenced block); otherwise
// backquoted spans are code and the rest prose.
func makeMentions(text string, first int, code bool) []mention {
	var out []mention
	if code {
		for i, l := range strings.Split(text, "\n") {
			for _, t := range makeTargetsInCode(l) {
				out = append(out, mention{first + i, t})
			}
		}
		return out
	}
	spans := codeSpan.FindAllStringSubmatchIndex(text, -1)
	inSpan := func(off int) bool {
		for _, s := range spans {
			if off >= s[0] && off < s[1] {
				return true
			}
		}
		return false
	}
	for _, s := range spans {
		for _, t := range makeTargetsInCode(text[s[2]:s[3]]) {
			out = append(out, mention{lineAt(text, s[0], first), t})
		}
	}
	for _, m := range proseMake.FindAllStringSubmatchIndex(text, -1) {
		if inSpan(m[0]) {
			continue
		}
		paren := m[3] > m[2] && m[7] > m[6]
		name := text[m[4]:m[5]]
		if paren || strings.Contains(name, "-") {
			out = append(out, mention{lineAt(text, m[0], first), name})
		}
	}
	return out
}

// pathMentions returns the backquoted spans of text that look like one
// relative path: one word with a "/", no glob or placeholder characters.
// A trailing ":LINE" or "#anchor" is dropped. Whether the path belongs to
// this repository is the caller's question.
func pathMentions(text string, first int) []mention {
	var out []mention
	for _, s := range codeSpan.FindAllStringSubmatchIndex(text, -1) {
		p := strings.TrimSpace(text[s[2]:s[3]])
		if p == "" || strings.ContainsAny(p, " \t\n*?{}<>$[]|=()@,'\"\\~%") || strings.Contains(p, "://") || strings.Contains(p, "...") {
			continue
		}
		p = strings.TrimPrefix(p, "./")
		if i := strings.IndexByte(p, '#'); i >= 0 {
			p = p[:i]
		}
		p = lineSuffix.ReplaceAllString(p, "")
		p = goIdent.ReplaceAllString(p, "") // pkg/image.AllowList names the package pkg/image
		p = strings.TrimRight(p, "/")
		if !strings.Contains(p, "/") || strings.HasPrefix(p, "/") {
			continue
		}
		out = append(out, mention{lineAt(text, s[0], first), p})
	}
	return out
}

var (
	lineSuffix = regexp.MustCompile(`:\d+(-\d+)?$`)
	goIdent    = regexp.MustCompile(`\.[A-Z][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)?$`)
)

// mdLink is an inline markdown link or image: [text](target).
var mdLink = regexp.MustCompile(`\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)

// linkMentions returns the relative targets of markdown links in text
// (anchors dropped; web and mail links and same-page anchors left out).
func linkMentions(text string, first int) []mention {
	var out []mention
	for _, m := range mdLink.FindAllStringSubmatchIndex(text, -1) {
		t := text[m[2]:m[3]]
		if strings.Contains(t, "://") || strings.HasPrefix(t, "mailto:") || strings.HasPrefix(t, "#") {
			continue
		}
		if i := strings.IndexByte(t, '#'); i >= 0 {
			t = t[:i]
		}
		if t == "" {
			continue
		}
		out = append(out, mention{lineAt(text, m[0], first), t})
	}
	return out
}

// testName is a backquoted Go test, benchmark or fuzz target, with an
// optional subtest: `TestFixPinsThePlan`, `TestConfigRefusals/yaml`.
var testName = regexp.MustCompile(`^((?:Test|Benchmark|Fuzz)[A-Z0-9_][A-Za-z0-9_]*)(?:/\S*)?$`)

// testMentions returns the Go test functions that backquoted spans of text
// name.
func testMentions(text string, first int) []mention {
	var out []mention
	for _, s := range codeSpan.FindAllStringSubmatchIndex(text, -1) {
		if m := testName.FindStringSubmatch(strings.TrimSpace(text[s[2]:s[3]])); m != nil {
			out = append(out, mention{lineAt(text, s[0], first), m[1]})
		}
	}
	return out
}

// testFunc is the declaration of a test, benchmark or fuzz target.
var testFunc = regexp.MustCompile(`(?m)^func ((?:Test|Benchmark|Fuzz)[A-Za-z0-9_]*)\(`)
