package cli

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/greenlight-dev/greenlight/cmd/greenlight/internal/stack"
	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

func TestFormatFlagUsageErrors(t *testing.T) {
	// Every one is refused before a connection or a verification starts
	// (the flags are checked in PreRunE), so no stack is needed here.
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"verify", "--format", "xml", "."}, `--format: unknown format "xml": use one of junit, ctrf, sarif, github, markdown`},
		{[]string{"verify", "--json", "--format", "junit", "."}, "--json and --format exclude each other"},
		{[]string{"verify", "--output", "r.xml", "."}, "--output needs --format (one of junit, ctrf, sarif, github, markdown)"},
		{[]string{"show", "--format", "sarif", "--markdown", "r_1"}, "--markdown and --format exclude each other"},
		{[]string{"show", "--format", "yaml", "r_1"}, "use one of junit, ctrf, sarif, github, markdown"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := Main(context.Background(), append([]string{"--home", t.TempDir()}, tc.args...), Env{Stdout: &out, Stderr: &errOut})
			if code != ExitError || !strings.Contains(errOut.String(), tc.want) || out.Len() != 0 {
				t.Errorf("exit %d, stderr %q, stdout %q; want exit 2 and %q", code, errOut.String(), out.String(), tc.want)
			}
		})
	}
}

func TestWriteFormatToAFile(t *testing.T) {
	dir := t.TempDir()
	summary := filepath.Join(dir, "summary.md")
	a := &app{env: Env{Stdout: io.Discard, Getenv: func(k string) string {
		if k == "GITHUB_STEP_SUMMARY" {
			return summary
		}
		return ""
	}}}
	run := &glv1.Run{Id: "r_1", Result: &glv1.Result{Status: glv1.Verdict_VERDICT_FAIL, RunId: "r_1",
		Failures: []*glv1.Failure{{File: "a_test.go", Line: 7, Test: "pkg.TestA", Message: "boom"}}}}
	out := filepath.Join(dir, "annotations.txt")
	f := &formatFlags{format: "github", output: out}
	if err := f.check(a.showCmd(), nil); err != nil {
		t.Fatal(err)
	}
	if err := a.writeFormat(&stack.Conn{}, run, f); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(out)
	if err != nil || !strings.HasPrefix(string(b), "::error file=a_test.go,line=7,title=greenlight%3A pkg.TestA::boom\n") {
		t.Errorf("annotations file: %v\n%s", err, b)
	}
	if b, err := os.ReadFile(summary); err != nil || !strings.Contains(string(b), "greenlight FAIL") {
		t.Errorf("step summary: %v\n%s", err, b)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Errorf("a temporary file was left behind: %v", entries)
	}
}
