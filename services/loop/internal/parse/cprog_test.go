package parse

import (
	"strings"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// Shapes the goldens do not show: a stray "x failed" is no test without
// the driver's summary, a program killed by a signal is that test's crash
// (not a second, unplaced failure), and a harness line before its own
// PASSED count is not counted twice.
func TestCProgramShapes(t *testing.T) {
	for _, c := range []struct {
		name, log, format string
		counts            Counts
		test, msg         string
		kind              glv1.FailureKind
	}{
		{"stray failed lines", "Build failed\nlinking failed\n", FormatUnparsed, Counts{}, "", "", 0},
		{"segfault names its program", "make: Entering directory '/workspace/tests'\n" +
			"Segmentation fault (core dumped)\ntest5 failed\n9 tests conducted, 1 failed.\n",
			FormatCProgram, Counts{Passed: 8, Failed: 1}, "tests/test5.c::test5", "test5 failed: Segmentation fault", glv1.FailureKind_FAILURE_KIND_CRASH},
		{"harness without a failure", "PASSED: 12\nFAILED: 0\n", FormatCProgram, Counts{Passed: 12}, "", "", 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			rep := parseText(t, c.log)
			if rep.Format != c.format || rep.Counts != c.counts {
				t.Fatalf("format %q counts %+v, want %q %+v", rep.Format, rep.Counts, c.format, c.counts)
			}
			if c.test == "" {
				return
			}
			if len(rep.Failures) != 1 {
				t.Fatalf("%d failures, want 1: %+v", len(rep.Failures), rep.Failures)
			}
			f := rep.Failures[0]
			if f.Test != c.test || !strings.Contains(f.Message, c.msg) || f.Kind != c.kind {
				t.Fatalf("failure %q %q %s, want %q %q %s", f.Test, f.Message, f.Kind, c.test, c.msg, c.kind)
			}
		})
	}
}
