package runtimetest

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/greenlight-dev/greenlight/services/executor/internal/sandbox"
	"github.com/greenlight-dev/greenlight/services/executor/internal/testenv"
)

// callTimeout bounds each Runtime call of the suite.
const callTimeout = 30 * time.Second

// like returns a copy of a production spec for a container of the suite:
// no name (the production one is the run's, and may still be taken), the
// production labels with owner as LabelOwner and the suite's run.
func like(spec sandbox.ContainerSpec, owner string) sandbox.ContainerSpec {
	s := cloneSpec(spec)
	s.Name = ""
	if s.Labels == nil {
		s.Labels = map[string]string{}
	}
	s.Labels[sandbox.LabelOwner], s.Labels[sandbox.LabelRun] = owner, "conformance"
	return s
}

// create creates a container from spec, removed when the test ends.
func (s *suite) create(t *testing.T, spec sandbox.ContainerSpec) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
	defer cancel()
	id, err := s.h.Runtime.Create(ctx, spec)
	if err != nil {
		t.Fatalf("Create: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
		defer cancel()
		if err := s.h.Runtime.Remove(ctx, id); err != nil {
			t.Errorf("Remove at cleanup: %v", err)
		}
	})
	return id
}

// started creates and starts an exec-mode sandbox of a new owner.
func (s *suite) started(t *testing.T) string {
	t.Helper()
	id := s.create(t, like(s.exec, testenv.Owner(t)))
	ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
	defer cancel()
	if err := s.h.Runtime.Start(ctx, id); err != nil {
		t.Fatalf("Start: %v", err)
	}
	return id
}

// sh runs a shell command in container id as a step would run there (the
// sandbox user, the workspace, the sandbox's environment) and returns its
// exit code and output.
func (s *suite) sh(t *testing.T, id, command string) (code int, stdout, stderr string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
	defer cancel()
	var out, errOut strings.Builder
	code, err := s.h.Runtime.Exec(ctx, id, sandbox.ExecSpec{
		Cmd: []string{"/bin/sh", "-c", command}, User: sandbox.SandboxUser, WorkDir: sandbox.WorkspaceDir,
		Env: s.exec.Env, Stdout: &out, Stderr: &errOut,
	})
	if err != nil {
		t.Fatalf("Exec %q: %v", command, err)
	}
	return code, out.String(), errOut.String()
}
