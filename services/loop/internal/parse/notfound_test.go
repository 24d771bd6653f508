package parse

import (
	"context"
	"slices"
	"strings"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// TestMissingBuildToolsAreRecognized checks the "not found" lines of sh,
// bash, make and env that name a build tool, and that other names and
// ordinary output are left alone.
func TestMissingBuildToolsAreRecognized(t *testing.T) {
	cases := []struct {
		log  string
		want []string
	}{
		{"./unittest.sh: line 3: gcc: command not found\n./unittest.sh: line 4: gcc: command not found\n", []string{"gcc"}},
		{"sh: 1: cmake: not found\n", []string{"cmake"}},
		{"make: cc: No such file or directory\nmake: *** [Makefile:3: all] Error 127\n", []string{"cc"}},
		{"env: 'node': No such file or directory\n", []string{"node"}},
		{"/bin/sh: 1: cargo: not found\nbash: javac: command not found\n", []string{"cargo", "javac"}},
		// json-c's CLI test in an image without xxd (ctest's output).
		{"/workspace/tests/test_json_parse_cli.test: 14: xxd: not found\n", []string{"xxd"}},
		{"diff: expected.txt: No such file or directory\nzstd: /tmp/x.zst: No such file or directory\n", nil},
		{"cat: data.txt: No such file or directory\nsh: 1: mytool: not found\n", nil},
		{"ok  \texample.com/m\t0.01s\nthe word not found appears here\n", nil},
	}
	for _, c := range cases {
		rep, err := Step(context.Background(), Input{
			Step:   &glv1.Step{Name: "test", Phase: glv1.Phase_PHASE_TEST, Command: "./unittest.sh"},
			Result: &glv1.StepResult{Name: "test", Status: glv1.StepStatus_STEP_STATUS_OK},
			Log:    strings.NewReader(c.log),
		})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(rep.MissingTools, c.want) && !(len(rep.MissingTools) == 0 && len(c.want) == 0) {
			t.Errorf("log %q: missing tools %q, want %q", c.log, rep.MissingTools, c.want)
		}
	}
}
