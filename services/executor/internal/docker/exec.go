package docker

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/docker/docker/api/types"
	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/pkg/stdcopy"

	"github.com/greenlight-dev/greenlight/services/executor/internal/sandbox"
)

// drainGrace is how long output already on its way is still read after the
// exec's context ended.
const drainGrace = 200 * time.Millisecond

// exitPollWait bounds how long Exec waits for the engine to report the exit
// code once the output stream has ended.
const exitPollWait = 5 * time.Second

// Exec runs a process in a container. Output is demultiplexed as it arrives
// (stdout and stderr are read concurrently from one stream, never buffered
// whole); stdin, when given, is streamed and then closed. When ctx ends the
// stream is closed and Exec returns at once; the process keeps running in
// the container, which the caller must remove.
func (r *Runtime) Exec(ctx context.Context, id string, spec sandbox.ExecSpec) (int, error) {
	var execID string
	err := r.call(ctx, "exec create", func(cctx context.Context) error {
		resp, err := r.cli.ContainerExecCreate(cctx, id, container.ExecOptions{
			User: spec.User, WorkingDir: spec.WorkDir, Env: spec.Env, Cmd: spec.Cmd,
			AttachStdin: spec.Stdin != nil, AttachStdout: true, AttachStderr: true,
		})
		execID = resp.ID
		return err
	})
	if err != nil {
		return -1, err
	}
	var resp types.HijackedResponse
	err = r.call(ctx, "exec attach", func(cctx context.Context) error {
		var err error
		resp, err = r.cli.ContainerExecAttach(cctx, execID, container.ExecAttachOptions{})
		return err
	})
	if err != nil {
		return -1, err
	}
	streamErr := stream(ctx, resp, spec)
	if ctx.Err() != nil {
		return -1, ctx.Err()
	}
	if streamErr != nil {
		return -1, streamErr
	}
	return r.exitCode(ctx, execID)
}

// stream pumps stdin in and output out until the process's output ends, ctx
// ends or stdin fails; it returns only when no goroutine touches spec's
// readers and writers any more.
func stream(ctx context.Context, resp types.HijackedResponse, spec sandbox.ExecSpec) error {
	stdout, stderr := orDiscard(spec.Stdout), orDiscard(spec.Stderr)
	done := make(chan struct{})
	var stdinErr error
	stdinDone := make(chan struct{})
	if spec.Stdin != nil {
		go func() {
			defer close(stdinDone)
			if _, err := io.Copy(resp.Conn, spec.Stdin); err != nil {
				stdinErr = err
				resp.Close() // abort: the process must not see a partial input as complete
				return
			}
			_ = resp.CloseWrite()
		}()
	} else {
		close(stdinDone)
	}
	go func() {
		select {
		case <-ctx.Done():
			// Let what the engine already sent (a prompt printed just
			// before a hang) reach the writers, then stop reading.
			if err := resp.Conn.SetReadDeadline(time.Now().Add(drainGrace)); err != nil {
				resp.Close()
			}
		case <-done:
		}
	}()
	_, copyErr := stdcopy.StdCopy(stdout, stderr, resp.Reader)
	close(done)
	resp.Close()
	<-stdinDone
	switch {
	case stdinErr != nil && !errors.Is(stdinErr, io.ErrClosedPipe):
		return fmt.Errorf("exec stdin: %w", stdinErr)
	case copyErr != nil && ctx.Err() == nil:
		return fmt.Errorf("exec output: %w", copyErr)
	}
	return nil
}

// exitCode waits for the engine to record the exec's exit code. The output
// stream ends when the process has exited (or, when a background process
// keeps the pipe open, after the engine's own grace period).
func (r *Runtime) exitCode(ctx context.Context, execID string) (int, error) {
	deadline := time.Now().Add(exitPollWait)
	for delay := time.Millisecond; ; delay = min(2*delay, 100*time.Millisecond) {
		var info container.ExecInspect
		err := r.call(ctx, "exec inspect", func(cctx context.Context) error {
			var err error
			info, err = r.cli.ContainerExecInspect(cctx, execID)
			return err
		})
		if err != nil {
			return -1, err
		}
		if !info.Running {
			return info.ExitCode, nil
		}
		if time.Now().After(deadline) {
			return -1, fmt.Errorf("exec still running %s after its output ended", exitPollWait)
		}
		select {
		case <-ctx.Done():
			return -1, ctx.Err()
		case <-time.After(delay):
		}
	}
}

func orDiscard(w io.Writer) io.Writer {
	if w == nil {
		return io.Discard
	}
	return w
}
