package parse

import (
	"context"
	"fmt"
	"os"
	"slices"
	"testing"
	"testing/fstest"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// TestGoPrintedLocations: go-playground/validator's tests fail through
// go-playground/assert, which prints `validator_test.go:411 <msg>` to
// stdout itself (no indentation, no colon after the line) and calls
// t.FailNow; a subtest ended by its parent's FailNow carries only the
// testing package's own `testing.go:1913:` note. The real outputs (see
// testdata/realworld/README.md) must name each failing test at its line of
// validator_test.go, never at the toolchain's testing.go.
func TestGoPrintedLocations(t *testing.T) {
	files := fstest.MapFS{
		"go.mod":            {Data: []byte("module github.com/go-playground/validator/v10\n\ngo 1.20\n")},
		"validator_test.go": {Data: []byte("package validator\n")},
	}
	const sub = "github.com/go-playground/validator/v10.TestNestedStructValidation/"
	all := []string{
		"github.com/go-playground/validator/v10.TestNameNamespace validator_test.go:411",
		sub + "required validator_test.go:15263",
		sub + "excluded_if validator_test.go:15298",
		sub + "excluded_unless validator_test.go:15316",
		sub + "failedInnerField validator_test.go:15396",
	}
	for _, c := range []struct {
		file, format string
		counts       Counts
		failures     []string
	}{
		{"validator-assert.json", FormatGoJSON, Counts{Passed: 5, Failed: 5}, all},
		{"validator-assert-v.txt", FormatGoText, Counts{Passed: 5, Failed: 5}, all},
		// Without -v go test lets stdout through before the result lines
		// it belongs to: those prints are nobody's location, but the
		// parent's t.Errorf line still places the subtest it ended.
		{"validator-assert.txt", FormatGoText, Counts{Failed: 5}, []string{
			"github.com/go-playground/validator/v10.TestNameNamespace :0",
			sub + "required :0",
			sub + "excluded_if :0",
			sub + "excluded_unless :0",
			sub + "failedInnerField validator_test.go:15396",
		}},
	} {
		t.Run(c.file, func(t *testing.T) {
			f, err := os.Open("testdata/realworld/" + c.file)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			rep, err := Step(context.Background(), Input{
				Step:   &glv1.Step{Name: "go-test", Phase: glv1.Phase_PHASE_TEST, Command: "go test ./..."},
				Result: &glv1.StepResult{Status: glv1.StepStatus_STEP_STATUS_FAILED, ExitCode: 1},
				Log:    f, Files: files,
			})
			if err != nil {
				t.Fatal(err)
			}
			if rep.Format != c.format || rep.Counts != c.counts {
				t.Errorf("format %q counts %+v, want %q %+v", rep.Format, rep.Counts, c.format, c.counts)
			}
			var got []string
			for _, f := range rep.Failures {
				got = append(got, fmt.Sprintf("%s %s:%d", f.Test, f.File, f.Line))
			}
			if !slices.Equal(got, c.failures) {
				t.Errorf("failures\n  %q\nwant\n  %q", got, c.failures)
			}
		})
	}
}
