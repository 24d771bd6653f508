package cli

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"google.golang.org/protobuf/types/known/timestamppb"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// The hints name greenlight the way the user ran it: a bare name found on
// PATH stays as is, a path stays a path unless the greenlight on PATH is
// that very file.
func TestProgramName(t *testing.T) {
	dir := t.TempDir()
	onPath := filepath.Join(dir, "bin", "greenlight")
	other := filepath.Join(dir, "release", "greenlight")
	for _, p := range []string{onPath, other} {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	found := func(string) (string, error) { return onPath, nil }
	missing := func(string) (string, error) { return "", errors.New("not found") }
	tests := []struct {
		name   string
		argv0  string
		lookup func(string) (string, error)
		want   string
	}{
		{"found on PATH by name", "greenlight", missing, "greenlight"},
		{"renamed on PATH", "gl", missing, "gl"},
		{"empty argv0", "", missing, "greenlight"},
		{"path, nothing on PATH", ".bin/greenlight", missing, ".bin/greenlight"},
		{"path to the greenlight on PATH", onPath, found, "greenlight"},
		{"path to another greenlight than PATH's", other, found, other},
		{"path with a space is quoted", "/tmp/my tools/greenlight", missing, "'/tmp/my tools/greenlight'"},
		{"quote in a path", "/tmp/it's/greenlight", missing, `'/tmp/it'\''s/greenlight'`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := ProgramName(tc.argv0, tc.lookup); got != tc.want {
				t.Errorf("ProgramName(%q) = %q, want %q", tc.argv0, got, tc.want)
			}
		})
	}
}

// The hints (how to follow a run still going, how to list the failures
// left out, where run ids come from) name the program as invoked.
func TestHintsNameTheProgramAsInvoked(t *testing.T) {
	running := &glv1.Run{Id: "r_running", Kind: glv1.RunKind_RUN_KIND_VERIFY, Status: glv1.RunStatus_RUN_STATUS_RUNNING, CreatedAt: timestamppb.Now()}
	many := finishedRun("r_many", glv1.Verdict_VERDICT_FAIL)
	for i := 0; i < 25; i++ {
		many.Result.Failures = append(many.Result.Failures, many.Result.Failures[0])
	}
	addr := startFakeRuns(t, running, many)
	tests := []struct {
		program string
		args    []string
		want    string
	}{
		{".bin/greenlight", []string{"show", "r_running"}, "(no result yet): .bin/greenlight watch r_running"},
		{"./greenlight", []string{"show", "r_many"}, "more (./greenlight show r_many --json)"},
		{"", []string{"show", "r_running"}, "(no result yet): greenlight watch r_running"},
		{".bin/greenlight", []string{"watch"}, "a run id (see .bin/greenlight runs)"},
		{".bin/greenlight", []string{"cancel"}, "a run id (see .bin/greenlight runs)"},
		{".bin/greenlight", []string{"show", "r_nosuch"}, `run "r_nosuch" not found (.bin/greenlight runs lists the runs)`},
		{".bin/greenlight", []string{"artifacts", "-o", "out", "r_nosuch"}, `run "r_nosuch" not found (.bin/greenlight runs lists the runs)`},
	}
	for _, tc := range tests {
		t.Run(tc.program+" "+strings.Join(tc.args, " "), func(t *testing.T) {
			var out, errb bytes.Buffer
			Main(context.Background(), append([]string{"--addr", addr}, tc.args...), Env{Stdout: &out, Stderr: &errb, Program: tc.program})
			if !strings.Contains(out.String()+errb.String(), tc.want) {
				t.Errorf("output lacks %q:\nstdout:\n%s\nstderr:\n%s", tc.want, out.String(), errb.String())
			}
		})
	}
}
