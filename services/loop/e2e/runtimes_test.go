package e2e_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// fixtureFiles reads a discovery fixture (services/discovery/testdata/repos)
// into a snapshot map, leaving out the directories named in skip.
func fixtureFiles(t *testing.T, name string, skip ...string) map[string]string {
	t.Helper()
	root := filepath.Join("..", "..", "discovery", "testdata", "repos", name)
	files := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		for _, s := range skip {
			if strings.HasPrefix(rel, s+"/") {
				return nil
			}
		}
		b, err := os.ReadFile(p)
		files[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// haveImage reports whether the engine has an image.
func haveImage(t *testing.T, ref string) bool {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	return exec.CommandContext(ctx, "docker", "image", "inspect", "--format", "{{.Id}}", ref).Run() == nil
}

// TestPolyglotMissingImage is issue 12's polyglot run: Go, Node and Python
// subprojects each run in their own runtime's image, while the Rust one,
// whose image the table points at something nobody built, ends ERROR with
// a message naming the runtime and `make images IMAGES=...`; the others'
// tests still run and pass, and the verdict says what is missing instead
// of PASS. (The C subproject is left out: its image may not be built.)
func TestPolyglotMissingImage(t *testing.T) {
	const missing = "greenlight/sandbox-nosuchrust:latest"
	s := newStackImages(t, "rust="+missing)
	evs := s.verify(&glv1.VerifyRequest{Snapshot: s.snapshot(fixtureFiles(t, "polyglot", "native"))})
	fin := finished(evs)
	res := fin.GetResult()
	if fin.GetStatus() == glv1.RunStatus_RUN_STATUS_PASSED || res.GetStatus() == glv1.Verdict_VERDICT_PASS {
		t.Fatalf("a run with a missing image passed: %s", res.GetSummary())
	}
	for _, want := range []string{"engine:", missing, `runtime "rust"`, "make images IMAGES=nosuchrust"} {
		if !strings.Contains(res.GetSummary(), want) {
			t.Errorf("summary %q does not name %q", res.GetSummary(), want)
		}
	}
	byName := map[string]*glv1.StepResult{}
	for _, st := range res.GetSteps() {
		byName[st.GetName()] = st
	}
	for name, want := range map[string]glv1.StepStatus{
		"api:go-test": glv1.StepStatus_STEP_STATUS_OK, "web:npm-test": glv1.StepStatus_STEP_STATUS_OK,
		"py:pytest": glv1.StepStatus_STEP_STATUS_OK, "engine:cargo-build": glv1.StepStatus_STEP_STATUS_ERROR,
		"engine:cargo-test": glv1.StepStatus_STEP_STATUS_SKIPPED,
	} {
		if got := byName[name].GetStatus(); got != want {
			t.Errorf("%s = %s (%s), want %s", name, got, byName[name].GetReason(), want)
		}
	}
	if c := res.GetCounts(); c.GetPassed() < 3 || c.GetFailed() != 0 {
		t.Errorf("counts = %v, want the Go, Node and Python tests passed", c)
	}
}

// TestAgentYAMLShellProject is issue 12's first case: a repository whose
// only configuration is agent.yaml with plain shell steps runs in the
// generic image and passes (before: `runtime "" has no configured image`).
func TestAgentYAMLShellProject(t *testing.T) {
	const generic = "greenlight/sandbox-generic:latest"
	integration(t)
	if !haveImage(t, generic) {
		t.Skip(generic + " is not built yet: run `make images IMAGES=generic`")
	}
	s := newStack(t)
	fin := finished(s.verify(&glv1.VerifyRequest{Snapshot: s.snapshot(fixtureFiles(t, "agent-yaml-shell"))}))
	res := fin.GetResult()
	if res.GetStatus() != glv1.Verdict_VERDICT_PASS || res.GetCounts().GetPassed() != 2 {
		t.Fatalf("verdict %s counts %v: %s\n%s", res.GetStatus(), res.GetCounts(), res.GetSummary(), res.GetTailLog())
	}
}
