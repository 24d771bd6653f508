package parse

import (
	"context"
	"io"
	"strings"
	"testing"
	"testing/fstest"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// TestDoctestOfATextFileIsLocatedAtThatFile checks that a doctest pytest
// collected from docs/usage.rst (--doctest-glob) is reported at
// docs/usage.rst, the file that exists, not at docs/usage/rst.py: pytest's
// JUnit report names it by class "docs.usage.rst" (pytest 8's naming of a text file's doctest).
func TestDoctestOfATextFileIsLocatedAtThatFile(t *testing.T) {
	report := `<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="pytest" errors="0" failures="1" skipped="0" tests="2">` +
		`<testcase classname="docs.usage.rst" name="usage.rst" time="0.004"><failure message="[doctest] usage.rst">012 ` +
		"\n&gt;&gt;&gt; add(2, 2)\nExpected:\n    5\nGot:\n    4\n\n/workspace/docs/usage.rst:12: DocTestFailure</failure></testcase>" +
		`<testcase classname="README.md" name="README.md" time="0.001"/>` +
		`</testsuite></testsuites>`
	tree := fstest.MapFS{"docs/usage.rst": {}, "README.md": {}, "calc.py": {}}
	for _, files := range []struct {
		name string
		fs   fstest.MapFS
	}{{"with the snapshot", tree}, {"without it", nil}} {
		t.Run(files.name, func(t *testing.T) {
			in := Input{
				Step:      &glv1.Step{Name: "pytest", Phase: glv1.Phase_PHASE_TEST, Command: "python3 -m pytest --doctest-glob=*.rst"},
				Result:    &glv1.StepResult{Name: "pytest", Status: glv1.StepStatus_STEP_STATUS_FAILED, ExitCode: 1},
				Log:       strings.NewReader(""),
				Artifacts: map[string]io.Reader{"pytest.xml": strings.NewReader(report)},
			}
			if files.fs != nil {
				in.Files = files.fs
			}
			rep, err := Step(context.Background(), in)
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]string{}
			for _, tc := range rep.Tests {
				got[tc.ID] = tc.File
			}
			if got["docs/usage.rst::usage.rst"] != "docs/usage.rst" || got["README.md::README.md"] != "README.md" {
				t.Fatalf("tests %q (format %s)", got, rep.Format)
			}
		})
	}
}
