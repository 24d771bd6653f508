package web

import (
	"fmt"
	"strings"
	"time"

	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/timestamppb"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/display"
)

// formatDuration renders a duration for people: 412ms, 2.13s, 1m03s.
func formatDuration(d time.Duration) string {
	switch {
	case d <= 0:
		return "—"
	case d < time.Second:
		return fmt.Sprintf("%dms", d.Milliseconds())
	case d < time.Minute:
		return fmt.Sprintf("%.2fs", d.Seconds())
	default:
		d = d.Round(time.Second)
		return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
	}
}

func formatProtoDuration(d *durationpb.Duration) string {
	if d == nil {
		return "—"
	}
	return formatDuration(d.AsDuration())
}

// formatTime renders a timestamp in UTC, to the second.
func formatTime(ts *timestamppb.Timestamp) string {
	if ts == nil || !ts.IsValid() || ts.AsTime().IsZero() {
		return "—"
	}
	return ts.AsTime().UTC().Format("2006-01-02 15:04:05 UTC")
}

// span is the time between two timestamps, "—" when either is missing.
func span(from, to *timestamppb.Timestamp) string {
	if from == nil || to == nil {
		return "—"
	}
	return formatDuration(to.AsTime().Sub(from.AsTime()))
}

// The page's enum words: a value without its type's prefix, "—" when
// unset.
func stepStatusName(s glv1.StepStatus) string { return display.EnumOr(s, "—") }
func runStatusName(s glv1.RunStatus) string   { return display.EnumOr(s, "—") }
func runKindName(k glv1.RunKind) string       { return strings.ToLower(display.EnumOr(k, "—")) }
func phaseName(p glv1.Phase) string           { return strings.ToLower(display.EnumOr(p, "—")) }
func failureKindName(k glv1.FailureKind) string {
	return strings.ReplaceAll(strings.ToLower(display.EnumOr(k, "—")), "_", " ")
}

// levelName is "L4" and the like.
func levelName(l glv1.Level) string { return display.EnumOr(l, "—") }

// levelMeaning says what a verification level stands for (seed section 4).
func levelMeaning(l glv1.Level) string {
	switch l {
	case glv1.Level_LEVEL_L4:
		return "real test assertions"
	case glv1.Level_LEVEL_L3:
		return "build / compile / startup"
	case glv1.Level_LEVEL_L2:
		return "type checking / linting only"
	case glv1.Level_LEVEL_L1:
		return "model self-reasoning only: never sufficient"
	}
	return "no verification level reached"
}

// statusClass maps a status name to a CSS class.
func statusClass(name string) string {
	switch name {
	case "OK", "PASSED", "PASS":
		return "ok"
	case "FAILED", "FAIL", "TIMED_OUT", "OOM_KILLED":
		return "bad"
	case "ERROR", "INTERRUPTED", "CANCELED":
		return "warn"
	case "RUNNING", "PENDING":
		return "live"
	}
	return "muted"
}

// plural is "1 step" or "3 steps".
func plural(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}

// shortDigest abbreviates a digest for display.
func shortDigest(d *glv1.Digest) string {
	if d.GetHash() == "" {
		return "—"
	}
	h := d.GetHash()
	if len(h) > 12 {
		h = h[:12]
	}
	return fmt.Sprintf("sha256:%s… (%d bytes)", h, d.GetSizeBytes())
}

// formatScore renders 7.5 as "7.5" and 10 as "10".
func formatScore(v float64) string { return strings.TrimSuffix(fmt.Sprintf("%.1f", v), ".0") }
