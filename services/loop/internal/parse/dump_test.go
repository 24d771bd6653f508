package parse

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

func TestDumpGolden(t *testing.T) {
	which := os.Getenv("DUMP")
	if which == "" {
		t.Skip()
	}
	parts := strings.SplitN(which, "/", 2)
	tool, cs := parts[0], parts[1]
	phase := glv1.Phase_PHASE_TEST
	if p := os.Getenv("PHASE"); p != "" {
		phase = glv1.Phase(glv1.Phase_value[p])
	}
	wd := os.Getenv("WD")
	f, _ := os.Open(filepath.Join("testdata/golden", tool, cs+".log"))
	arts := map[string]io.Reader{}
	for _, ext := range []string{".xml", ".json"} {
		if a, err := os.Open(filepath.Join("testdata/golden", tool, cs+ext)); err == nil {
			arts[cs+ext] = a
		}
	}
	var files = os.DirFS(os.Getenv("SRC"))
	rep, err := Step(context.Background(), Input{Step: &glv1.Step{Name: "s", Phase: phase, Workdir: wd}, Result: &glv1.StepResult{Status: glv1.StepStatus_STEP_STATUS_FAILED, ExitCode: 1}, Log: f, Artifacts: arts, Files: files})
	if err != nil {
		t.Fatal(err)
	}
	fmt.Printf("format=%s hasTests=%v counts=%+v omitted=%d lint=%s/%v/%d\n", rep.Format, rep.HasTests, rep.Counts, rep.TestsOmitted, rep.LintFormat, rep.HasLint, rep.LintIssues)
	for _, x := range rep.Tests {
		fmt.Printf("  T %s %q file=%s:%d msg=%q frames=%d\n", x.Status, x.ID, x.File, x.Line, x.Message, len(x.Frames))
	}
	for _, x := range rep.Failures {
		fmt.Printf("  F %s %s:%d:%d test=%q msg=%q off=%d\n", x.Kind, x.File, x.Line, x.Column, x.Test, x.Message, x.Offset)
		for _, fr := range x.Frames {
			fmt.Printf("      %s:%d %s p=%v\n", fr.File, fr.Line, fr.Func, fr.Project)
		}
	}
}
