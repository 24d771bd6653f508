package main

import (
	"go/scanner"
	"go/token"
	"strings"
)

// A chunk is a piece of a file's text to read mentions from: prose with
// backquoted code spans, or code as a whole (a fenced block).
type chunk struct {
	text  string
	first int // line of text's first line
	code  bool
}

// markdownChunks splits a markdown file into fenced code blocks and
// paragraphs. A code span never crosses a blank line, so a paragraph is the
// most a stray backquote can mispair.
func markdownChunks(src string) []chunk {
	var out []chunk
	lines := strings.Split(src, "\n")
	start, fence := 0, ""
	flush := func(end int, code bool) {
		if end > start {
			out = append(out, chunk{strings.Join(lines[start:end], "\n"), start + 1, code})
		}
	}
	for i, l := range lines {
		t := strings.TrimSpace(l)
		switch {
		case fence == "" && (strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~")):
			flush(i, false)
			fence, start = t[:3], i+1
		case fence != "" && strings.HasPrefix(t, fence):
			flush(i, true)
			fence, start = "", i+1
		case fence == "" && t == "":
			flush(i, false)
			start = i + 1
		}
	}
	flush(len(lines), fence != "")
	return out
}

// goCommentChunks returns a Go file's comments, each run of adjacent line
// comments as one chunk so that a code span may wrap. The scanner goes on
// past syntax errors: a file someone is editing still gets read.
func goCommentChunks(src []byte) []chunk {
	fset := token.NewFileSet()
	file := fset.AddFile("", fset.Base(), len(src))
	var s scanner.Scanner
	s.Init(file, src, func(token.Position, string) {}, scanner.ScanComments)
	var out []chunk
	lastLine := -1
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		if tok != token.COMMENT {
			continue
		}
		line := fset.Position(pos).Line
		text := strings.TrimPrefix(lit, "//")
		if strings.HasPrefix(lit, "/*") {
			text = strings.TrimSuffix(strings.TrimPrefix(lit, "/*"), "*/")
		}
		if n := len(out); n > 0 && line == lastLine+1 && !strings.HasPrefix(lit, "/*") {
			out[n-1].text += "\n" + text
		} else {
			out = append(out, chunk{text: text, first: line})
		}
		lastLine = line + strings.Count(lit, "\n")
	}
	return out
}

// shellCommentChunks returns the "#" comments of a shell script or Makefile,
// one chunk per line.
func shellCommentChunks(src string) []chunk {
	var out []chunk
	for i, l := range strings.Split(src, "\n") {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "#") && !strings.HasPrefix(t, "#!") {
			out = append(out, chunk{text: strings.TrimLeft(t, "#"), first: i + 1})
		}
	}
	return out
}
