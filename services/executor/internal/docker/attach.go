package docker

import (
	"context"
	"io"
	"sync"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/docker/docker/api/types"
	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/pkg/stdcopy"
)

// Attach connects to the standard streams of a created container's main
// process, which must have been created with OpenStdin. The stream is the
// engine's multiplexed one (no TTY): stdout is read through the returned
// stream, stderr is copied to stderr as it arrives. The engine closes the
// process's stdin when the connection closes (StdinOnce), whether Close or
// the death of this process closed it.
func (r *Runtime) Attach(ctx context.Context, id string, stderr io.Writer) (io.ReadWriteCloser, error) {
	var resp types.HijackedResponse
	err := r.call(ctx, "container attach", func(cctx context.Context) error {
		var err error
		resp, err = r.cli.ContainerAttach(cctx, id, container.AttachOptions{Stream: true, Stdin: true, Stdout: true, Stderr: true})
		if err != nil {
			// The client reports a refused hijack only as "unable to
			// upgrade ..., received 404", untyped: ask whether the
			// container exists, so a missing one is ErrContainerNotFound.
			if _, ierr := r.cli.ContainerInspect(cctx, id); cerrdefs.IsNotFound(ierr) {
				return ierr
			}
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	out, pw := io.Pipe()
	go func() {
		_, err := stdcopy.StdCopy(pw, orDiscard(stderr), resp.Reader)
		pw.CloseWithError(err) // nil: the reader sees io.EOF
	}()
	return &attachment{resp: resp, out: out}, nil
}

// attachment is an attached main process's stdin (Write) and demultiplexed
// stdout (Read).
type attachment struct {
	resp types.HijackedResponse
	out  *io.PipeReader
	once sync.Once
}

func (a *attachment) Read(p []byte) (int, error)  { return a.out.Read(p) }
func (a *attachment) Write(p []byte) (int, error) { return a.resp.Conn.Write(p) }

// Close closes the connection (the engine then closes the process's
// stdin) and ends reads.
func (a *attachment) Close() error {
	a.once.Do(func() {
		a.resp.Close()
		_ = a.out.CloseWithError(io.ErrClosedPipe)
	})
	return nil
}
