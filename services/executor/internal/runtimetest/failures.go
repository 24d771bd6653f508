package runtimetest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/greenlight-dev/greenlight/services/executor/internal/sandbox"
	"github.com/greenlight-dev/greenlight/services/executor/internal/testenv"
)

// Names that no engine has.
const (
	missingImage     = "greenlight/no-such-image-conformance:latest"
	missingContainer = "no-such-container-greenlight-conformance"
)

// testMissingObjects: a missing image and a missing container map to the
// sandbox's sentinels, which the executor turns into its own answers;
// removing a missing container is not an error.
func testMissingObjects(t *testing.T, s *suite) {
	rt, ctx := s.h.Runtime, context.Background()
	spec := like(s.exec, testenv.Owner(t))
	spec.Image = missingImage
	_, imgErr := rt.Image(ctx, missingImage)
	_, createErr := rt.Create(ctx, spec)
	_, stateErr := rt.State(ctx, missingContainer)
	_, execErr := rt.Exec(ctx, missingContainer, sandbox.ExecSpec{Cmd: []string{"true"}, User: sandbox.SandboxUser})
	_, attachErr := rt.Attach(ctx, missingContainer, io.Discard)
	for _, c := range []struct {
		call string
		err  error
		want error
	}{
		{"Image", imgErr, sandbox.ErrImageNotFound},
		{"Create", createErr, sandbox.ErrImageNotFound},
		{"State", stateErr, sandbox.ErrContainerNotFound},
		{"Start", rt.Start(ctx, missingContainer), sandbox.ErrContainerNotFound},
		{"Exec", execErr, sandbox.ErrContainerNotFound},
		{"Attach", attachErr, sandbox.ErrContainerNotFound},
	} {
		s.expect(t, c.call, errors.Is(c.err, c.want), fmt.Sprintf("%s of a missing object: %v, want %v", c.call, c.err, c.want))
	}
	if err := rt.Remove(ctx, missingContainer); err != nil {
		t.Errorf("Remove of a missing container: %v, want nil", err)
	}
}

// cancelBound is how soon an Exec must return after its context ends
// (ADVERSARIAL row 25: a canceled stream's container is killed within 2 s).
const cancelBound = 2 * time.Second

// testExecCanceled: an Exec returns its context's error within
// cancelBound of the context ending, whether canceled or past its
// deadline; removing the container then ends the process as promptly.
func testExecCanceled(t *testing.T, s *suite) {
	const after = 300 * time.Millisecond
	for _, c := range []struct {
		name string
		ctx  func() (context.Context, context.CancelFunc)
		want error
	}{
		{"deadline", func() (context.Context, context.CancelFunc) {
			return context.WithTimeout(context.Background(), after)
		}, context.DeadlineExceeded},
		{"cancel", func() (context.Context, context.CancelFunc) {
			ctx, cancel := context.WithCancel(context.Background())
			time.AfterFunc(after, cancel)
			return ctx, cancel
		}, context.Canceled},
	} {
		t.Run(c.name, func(t *testing.T) {
			id := s.started(t)
			ctx, cancel := c.ctx()
			defer cancel()
			start := time.Now()
			_, err := s.h.Runtime.Exec(ctx, id, sandbox.ExecSpec{Cmd: []string{"sleep", "60"}, User: sandbox.SandboxUser, Env: s.exec.Env})
			if took := time.Since(start); !errors.Is(err, c.want) || took > after+cancelBound {
				t.Errorf("Exec = %v after %s; want %v within %s", err, took, c.want, after+cancelBound)
			}
			start = time.Now()
			if err := s.h.Runtime.Remove(context.Background(), id); err != nil || time.Since(start) > cancelBound {
				t.Errorf("Remove of the container = %v after %s; want nil within %s", err, time.Since(start), cancelBound)
			}
		})
	}
}
