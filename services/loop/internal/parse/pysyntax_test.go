package parse

import (
	"context"
	"strings"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// Python syntax error reports in their forms, located where Python says;
// reports of code that is not the project's are not failures of it.
func TestPySyntaxErrors(t *testing.T) {
	type loc struct {
		file string
		line int
		msg  string
	}
	tests := []struct {
		name string
		log  string
		want []loc
	}{
		{"traceback of an import", "Traceback (most recent call last):\n  File \"<string>\", line 1, in <module>\n" +
			"  File \"/workspace/app/calc.py\", line 5\n    def mul(a, b:\n           ^\nSyntaxError: '(' was never closed\n",
			[]loc{{"app/calc.py", 5, "SyntaxError: '(' was never closed\n    def mul(a, b:"}}},
		{"python 3.8 caret and relative path", "  File \"app/x.py\", line 2\n    print 'hi'\n             ^\nSyntaxError: invalid syntax\n",
			[]loc{{"app/x.py", 2, "SyntaxError: invalid syntax"}}},
		{"pytest's E lines", "E     File \"/workspace/app/t.py\", line 7\nE       \tx = 1\nE   TabError: inconsistent use of tabs and spaces in indentation\n",
			[]loc{{"app/t.py", 7, "TabError: inconsistent use of tabs and spaces in indentation"}}},
		{"compileall's one-line form", "*** Error compiling './pkg/shapes.py'...\nSorry: IndentationError: unexpected indent (shapes.py, line 3)\n",
			[]loc{{"pkg/shapes.py", 3, "IndentationError: unexpected indent"}}},
		{"code compiled from a string", "  File \"<string>\", line 1\n    1 +\n       ^\nSyntaxError: invalid syntax\n", nil},
		{"an installed package", "  File \"/usr/lib/python3/dist-packages/x/y.py\", line 9\n    def (\nSyntaxError: invalid syntax\n", nil},
		{"a location far from the error", "  File \"/workspace/app/a.py\", line 3\none\ntwo\nthree\nfour\nfive\nSyntaxError: invalid syntax\n", nil},
		{"a traceback frame is no syntax location", "  File \"/workspace/app/a.py\", line 3, in f\n    x()\nSyntaxError: invalid syntax\n", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rep, err := Step(context.Background(), Input{
				Step:   &glv1.Step{Name: "smoke", Phase: glv1.Phase_PHASE_SMOKE},
				Result: &glv1.StepResult{Status: glv1.StepStatus_STEP_STATUS_FAILED, ExitCode: 1},
				Log:    strings.NewReader(tc.log),
			})
			if err != nil {
				t.Fatal(err)
			}
			var got []loc
			for _, f := range rep.Failures {
				if f.Kind == glv1.FailureKind_FAILURE_KIND_COMPILE && f.File != "" {
					got = append(got, loc{f.File, f.Line, f.Message})
				}
			}
			if len(got) != len(tc.want) {
				t.Fatalf("located %+v, want %+v (all failures: %+v)", got, tc.want, rep.Failures)
			}
			for i := range got {
				if got[i].file != tc.want[i].file || got[i].line != tc.want[i].line || !strings.HasPrefix(got[i].msg, tc.want[i].msg) || strings.Contains(got[i].msg, "^") {
					t.Errorf("failure %d: %+v, want %+v", i, got[i], tc.want[i])
				}
			}
		})
	}
}

// A step that passed is not failed by a syntax error its log shows (a
// test printing one on purpose).
func TestPySyntaxInAPassingStep(t *testing.T) {
	rep, err := Step(context.Background(), Input{
		Step:   &glv1.Step{Name: "smoke", Phase: glv1.Phase_PHASE_SMOKE},
		Result: &glv1.StepResult{Status: glv1.StepStatus_STEP_STATUS_OK},
		Log:    strings.NewReader("  File \"/workspace/app/calc.py\", line 5\n    def mul(a, b:\nSyntaxError: '(' was never closed\n"),
	})
	if err != nil || len(rep.Failures) != 0 {
		t.Errorf("a passing step has failures %+v (%v)", rep.Failures, err)
	}
}
