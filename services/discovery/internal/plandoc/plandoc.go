// Package plandoc reads the command blocks of a plan document: an
// architect's plan in the Code Tumbler format ("Install Commands:",
// "Test Commands:" followed by a fenced code block, §1.4 of the seed),
// with the variations plans are written in (markdown headings, bold
// labels, bullet lists, "$ " prompts). It only reads: whether a command
// may run is decided against the discovered whitelist by the planner.
package plandoc

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
)

// Block names, lower case, as the plan's labels give them.
const (
	BlockInstall = "install"
	BlockBuild   = "build"
	BlockTest    = "test"
	BlockLint    = "lint"
)

// MaxBytes bounds a plan document: a plan is a page of text, not a payload.
const MaxBytes = 256 << 10

// MaxCommands bounds the commands one plan may give.
const MaxCommands = 100

// ErrTooLarge refuses a plan over MaxBytes or MaxCommands.
var ErrTooLarge = errors.New("plan document too large")

// Command is one command of a plan block.
type Command struct {
	// Block is the label it stood under: install, build, test or lint.
	Block string
	// Text is the command as written, prompt and bullet removed, runs of
	// white space kept as they are (the planner compares them squashed).
	Text string
	// Line is the command's 1-based line in the document.
	Line int
}

// label matches a block label line: "Install Commands:", "## Test
// commands", "**Build Commands:**", "Lint command:". The label must be
// the whole line, so prose that mentions test commands is not a block.
var label = regexp.MustCompile(`(?i)^\s*(?:#{1,6}\s*)?(?:\*\*|__)?\s*(install|build|test|lint)\s+commands?\s*:?\s*(?:\*\*|__)?\s*:?\s*$`)

// bullet is a list marker before a command: "- ", "* ", "+ ", "1. ", "1) ".
var bullet = regexp.MustCompile(`^(?:[-*+]|\d{1,3}[.)])\s+`)

// Parse returns the commands of every block in the document, in order.
// Inside a fenced block every non-blank line is a command (a trailing
// backslash joins the next line; "# " comment lines are skipped). Without
// a fence, the block is the run of bullet or "$ " lines after the label,
// up to a blank line or any other line.
func Parse(doc string) ([]Command, error) {
	if len(doc) > MaxBytes {
		return nil, fmt.Errorf("%w: %d bytes, at most %d", ErrTooLarge, len(doc), MaxBytes)
	}
	lines := strings.Split(strings.ReplaceAll(doc, "\r\n", "\n"), "\n")
	var out []Command
	for i := 0; i < len(lines); i++ {
		m := label.FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		block := strings.ToLower(m[1])
		j := i + 1
		for j < len(lines) && strings.TrimSpace(lines[j]) == "" {
			j++
		}
		var cmds []Command
		if j < len(lines) && isFence(lines[j]) {
			cmds, i = fenced(lines, j, block)
		} else {
			cmds, i = listed(lines, j, block)
		}
		out = append(out, cmds...)
		if len(out) > MaxCommands {
			return nil, fmt.Errorf("%w: more than %d commands", ErrTooLarge, MaxCommands)
		}
	}
	return out, nil
}

func isFence(s string) bool {
	t := strings.TrimSpace(s)
	return strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~")
}

// fenced reads the code block opening at lines[open]; it returns the
// commands and the index of the closing fence (the last line when the
// fence is never closed).
func fenced(lines []string, open int, block string) ([]Command, int) {
	fence := strings.TrimSpace(lines[open])[:3]
	var out []Command
	var cont *Command
	i := open + 1
	for ; i < len(lines); i++ {
		t := strings.TrimSpace(lines[i])
		if strings.HasPrefix(t, fence) {
			break
		}
		if cont != nil {
			cont.Text += " " + strings.TrimSpace(strings.TrimSuffix(t, `\`))
			if !strings.HasSuffix(t, `\`) {
				out, cont = append(out, *cont), nil
			}
			continue
		}
		t = stripPrompt(t)
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		c := Command{Block: block, Text: strings.TrimSpace(strings.TrimSuffix(t, `\`)), Line: i + 1}
		if strings.HasSuffix(t, `\`) {
			cont = &c
			continue
		}
		out = append(out, c)
	}
	if cont != nil {
		out = append(out, *cont)
	}
	return out, min(i, len(lines)-1)
}

// listed reads the bullet or prompt lines from lines[from]; it returns the
// commands and the index of the last line it consumed.
func listed(lines []string, from int, block string) ([]Command, int) {
	var out []Command
	i := from
	for ; i < len(lines); i++ {
		t := strings.TrimSpace(lines[i])
		rest := bullet.ReplaceAllString(t, "")
		if rest == t && !strings.HasPrefix(t, "$ ") {
			break
		}
		rest = strings.TrimSpace(stripPrompt(unquote(rest)))
		if rest != "" {
			out = append(out, Command{Block: block, Text: rest, Line: i + 1})
		}
	}
	return out, i - 1
}

// stripPrompt removes a shell prompt ("$ ") written before a command.
func stripPrompt(s string) string {
	if strings.HasPrefix(s, "$ ") || s == "$" {
		return strings.TrimSpace(s[1:])
	}
	return s
}

// unquote removes the inline-code backticks around a listed command
// ("- `go test ./...`").
func unquote(s string) string {
	if len(s) >= 2 && strings.HasPrefix(s, "`") && strings.HasSuffix(s, "`") && !strings.Contains(s[1:len(s)-1], "`") {
		return s[1 : len(s)-1]
	}
	return s
}
