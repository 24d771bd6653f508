package parse

import (
	"context"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// TestMakeTargetZstd: zstd's check target (tests/playTests.sh under make)
// with the injected bug of docs/realworld-bugs-corpus2.txt, as greenlight's
// sandbox printed it (see testdata/realworld/README.md): the script stops at
// its first failed command and prints no runner's format; make names the
// target whose recipe failed, `make[1]: *** [Makefile:330: test-zstd]`, in
// the directory make[1] entered.
func TestMakeTargetZstd(t *testing.T) {
	rep := parseRealworld(t, "make-zstd-playtests.log", "", "tests/Makefile", "tests/playTests.sh")
	if rep.Format != FormatMakeTarget || rep.Counts != (Counts{Failed: 1}) {
		t.Fatalf("format %q counts %+v, want make-target 1 failed", rep.Format, rep.Counts)
	}
	want := []string{"TEST_ERROR tests/Makefile:330 test-zstd"}
	if got := failureLines(rep.Failures, 10); !slices.Equal(got, want) {
		t.Errorf("failures\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
	m := rep.Failures[0].Message
	if !strings.HasPrefix(m, "make target test-zstd failed (Error 1)") || !strings.Contains(m, "Decoding error (36) : Destination buffer is too small") {
		t.Errorf("message %q, want the target and the script's last lines", m)
	}
}

// TestMakeTargetShapes: which failed recipes are a test step's failed
// check, and which are not.
func TestMakeTargetShapes(t *testing.T) {
	snap := fstest.MapFS{"Makefile": {}, "tests/Makefile": {}, "src/calc.c": {}}
	for _, c := range []struct {
		name, log string
		phase     glv1.Phase
		failed    bool
		want      []string
	}{
		{"make before 4.2 prints no location", "*** zlib test FAILED ***\nmake: *** [test] Error 1\n", glv1.Phase_PHASE_TEST, true,
			[]string{"TEST_ERROR :0 test"}},
		{"the innermost recipe, in the step's workdir", "boom\nmake: *** [Makefile:12: check-unit] Error 2\n", glv1.Phase_PHASE_TEST, true,
			[]string{"TEST_ERROR Makefile:12 check-unit"}},
		{"an object file is a build failure", "cc: fatal\nmake[1]: *** [Makefile:5: calc.o] Error 1\nmake: *** [Makefile:9: all] Error 2\n",
			glv1.Phase_PHASE_TEST, true, nil},
		{"a compiler error is the failure, not the recipe", "src/calc.c:3:1: error: expected ';' before '}' token\nmake: *** [Makefile:4: test] Error 1\n",
			glv1.Phase_PHASE_TEST, true, nil},
		{"a command not found is no test", "make: clang-tidy: No such file or directory\nmake: *** [Makefile:28: lint] Error 127\n",
			glv1.Phase_PHASE_TEST, true, nil},
		{"a build step's recipe is no test", "boom\nmake: *** [Makefile:4: all] Error 1\n", glv1.Phase_PHASE_BUILD, true, nil},
		{"a step that passed", "make: *** [Makefile:4: test] Error 1 (ignored)\n", glv1.Phase_PHASE_TEST, false, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			res := &glv1.StepResult{Status: glv1.StepStatus_STEP_STATUS_FAILED, ExitCode: 2}
			if !c.failed {
				res = &glv1.StepResult{Status: glv1.StepStatus_STEP_STATUS_OK}
			}
			rep, err := Step(context.Background(), Input{
				Step:   &glv1.Step{Name: "make-test", Phase: c.phase, Command: "make test"},
				Result: res, Log: strings.NewReader(c.log), Files: snap,
			})
			if err != nil {
				t.Fatal(err)
			}
			if got := rep.Format == FormatMakeTarget; got != (c.want != nil) {
				t.Fatalf("format %q, want make-target: %v", rep.Format, c.want != nil)
			}
			if c.want == nil {
				return
			}
			if got := failureLines(rep.Failures, 10); !slices.Equal(got, c.want) {
				t.Errorf("failures\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(c.want, "\n  "))
			}
		})
	}
}
