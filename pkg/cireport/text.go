package cireport

import (
	"fmt"
	"regexp"
	"strings"
	"time"
	"unicode"

	"google.golang.org/protobuf/types/known/durationpb"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/display"
)

// ansi matches terminal escape sequences (CSI and OSC) that test runners
// print for colors and links.
var ansi = regexp.MustCompile(`\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)?`)

// clean makes sandbox text safe for a CI log, an XML or JSON document and
// a web page: escape sequences are dropped and other control characters
// (except tab, newline and carriage return, which every format escapes)
// and bidi overrides are shown as U+FFFD, so nothing can re-colour a log
// or reorder what a reviewer reads.
func clean(s string) string {
	s = ansi.ReplaceAllString(s, "")
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\t' || r == '\n' || r == '\r':
			return r
		case unicode.IsControl(r), unicode.Is(unicode.Bidi_Control, r), r == '\uFEFF', r == '\uFFFE', r == '\uFFFF':
			// (U+FFFE and U+FFFF are not XML characters either.)
			return '\uFFFD'
		}
		return r
	}, strings.ToValidUTF8(s, "\uFFFD"))
}

// firstLine is the first non-blank line of s, trimmed.
func firstLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			return l
		}
	}
	return ""
}

// seconds renders a duration as JUnit does: seconds with millisecond
// precision.
func seconds(d *durationpb.Duration) string {
	return fmt.Sprintf("%.3f", d.AsDuration().Seconds())
}

// millis is a duration in whole milliseconds (CTRF).
func millis(d *durationpb.Duration) int64 { return d.AsDuration().Milliseconds() }

// human renders a duration for people: 44ms, 3.2s, 1m05s.
func human(d time.Duration) string {
	switch {
	case d < time.Second:
		return fmt.Sprintf("%dms", d.Milliseconds())
	case d < time.Minute:
		return fmt.Sprintf("%.1fs", d.Seconds())
	}
	d = d.Round(time.Second)
	return fmt.Sprintf("%dm%02ds", int(d/time.Minute), int(d%time.Minute/time.Second))
}

// verdictWord is PASS, FAIL or ERROR.
func verdictWord(v glv1.Verdict) string {
	switch v {
	case glv1.Verdict_VERDICT_PASS:
		return "PASS"
	case glv1.Verdict_VERDICT_FAIL:
		return "FAIL"
	}
	return "ERROR"
}

// levelWord is L1..L4, or "none".
func levelWord(l glv1.Level) string { return display.EnumOr(l, "none") }

// kindWord is a failure kind without its prefix, UNKNOWN when unset.
func kindWord(k glv1.FailureKind) string { return display.EnumOr(k, "UNKNOWN") }

// statusWord is a step status without its prefix.
func statusWord(s glv1.StepStatus) string { return display.Enum(s) }

// location renders file:line (file alone without a line, "" without a file).
func location(file string, line int32) string {
	switch {
	case file == "":
		return ""
	case line > 0:
		return fmt.Sprintf("%s:%d", file, line)
	}
	return file
}
