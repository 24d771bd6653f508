package termtext

import (
	"strings"
	"testing"
)

// hostile is sandbox-like output: a window title (OSC), clear screen, a
// color, a carriage return painting over text, a bidi override, a bell,
// a C1 CSI and an unterminated sequence at the end.
const hostile = "\x1b]0;pwned title\x07\x1b[2J\x1b[31mFAIL\x1b[0m tests\rPASS \u202eevil\u202c ok\x07 \u009b2J\x1b[1;"

func TestCleanRemovesControlSequences(t *testing.T) {
	got := Clean(hostile)
	for _, bad := range []string{"\x1b", "\x07", "\r", "\u202e", "\u009b", "pwned title", "[2J", "[31m"} {
		if strings.Contains(got, bad) {
			t.Errorf("Clean left %q in %q", bad, got)
		}
	}
	want := "FAIL tests\nPASS <U+202E>evil<U+202C> ok<U+0007> "
	if got != want {
		t.Errorf("Clean = %q, want %q", got, want)
	}
}

func TestCleanKeepsPlainText(t *testing.T) {
	for _, s := range []string{"ok\n\tindented\n", "π ≈ 3.14 — 测试 ✓", "a\r\nb"} {
		want := strings.ReplaceAll(s, "\r\n", "\n")
		if got := Clean(s); got != want {
			t.Errorf("Clean(%q) = %q, want %q", s, got, want)
		}
	}
	if got := Clean("bad \xff byte"); got != "bad \uFFFD byte" {
		t.Errorf("invalid UTF-8: %q", got)
	}
}

func TestClipCountsDisplayWidth(t *testing.T) {
	line := strings.Repeat("测试", 20) + "👍🏽end"
	for _, w := range []int{1, 2, 7, 10, 79} {
		got := Clip(line, w)
		if Width(got) > w {
			t.Errorf("Clip(_, %d) = %q, width %d", w, got, Width(got))
		}
		if !strings.HasSuffix(got, "…") {
			t.Errorf("Clip(_, %d) = %q: no cut marker", w, got)
		}
	}
	if got := Clip("short", 10); got != "short" {
		t.Errorf("Clip short = %q", got)
	}
	// A grapheme cluster is never split: the thumbs-up keeps its skin tone.
	if got := Clip("ab👍🏽cd", 5); got != "ab👍🏽…" {
		t.Errorf("Clip cluster = %q", got)
	}
}

func TestLine(t *testing.T) {
	if got := Line("  \x1b[1mfirst\x1b[0m\nsecond", 0); got != "first" {
		t.Errorf("Line = %q", got)
	}
}
