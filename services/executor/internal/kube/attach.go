package kube

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"

	"k8s.io/client-go/tools/remotecommand"
)

// Attach returns the standard streams of the pod's main process, which
// must keep stdin open (ContainerSpec.OpenStdin). A Kubernetes attach
// only carries what the process writes once it is connected, and can
// only connect to a running container: so before Start the attachment
// is recorded, and Start connects it and then sends the line the main
// process waits for (awaitScript) — nothing it writes is lost. Attaching
// to a running pod connects at once. Close ends the session; with
// stdinOnce the container's stdin is then closed, as Docker's StdinOnce
// does.
func (r *Runtime) Attach(ctx context.Context, id string, stderr io.Writer) (io.ReadWriteCloser, error) {
	pod, err := r.getPod(ctx, id)
	if err != nil {
		return nil, err
	}
	main := &pod.Spec.Containers[0]
	if !main.Stdin {
		return nil, fmt.Errorf("attach to pod %s: its main process was created without stdin", id)
	}
	a := newAttachment(r, id, stderr)
	r.mu.Lock()
	if r.attached[id] != nil {
		r.mu.Unlock()
		return nil, fmt.Errorf("attach to pod %s: already attached", id)
	}
	r.attached[id] = a
	r.mu.Unlock()
	if s := status(pod, mainContainer); s != nil && s.State.Running != nil {
		if err := a.connect(ctx, r, id); err != nil {
			_ = a.Close()
			return nil, err
		}
	}
	return a, nil
}

// attachmentOf returns the attachment of pod id, nil when there is none.
func (r *Runtime) attachmentOf(id string) *attachment {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.attached[id]
}

// attachment is an attach session: Write goes to the process's stdin,
// Read is its stdout, its stderr is copied to stderr.
type attachment struct {
	r        *Runtime
	id       string
	stderr   io.Writer
	inR      *io.PipeReader
	inW      *io.PipeWriter
	outR     *io.PipeReader
	outW     *io.PipeWriter
	ctx      context.Context
	cancel   context.CancelFunc
	connOnce sync.Once
	once     sync.Once
}

func newAttachment(r *Runtime, id string, stderr io.Writer) *attachment {
	a := &attachment{r: r, id: id, stderr: stderr}
	a.inR, a.inW = io.Pipe()
	a.outR, a.outW = io.Pipe()
	a.ctx, a.cancel = context.WithCancel(context.Background())
	return a
}

func (a *attachment) Read(p []byte) (int, error)  { return a.outR.Read(p) }
func (a *attachment) Write(p []byte) (int, error) { return a.inW.Write(p) }

// Close ends the session: the process's stdin first (a clean end of
// input), then the connection.
func (a *attachment) Close() error {
	a.once.Do(func() {
		_ = a.inW.Close()
		a.cancel()
		_ = a.outR.CloseWithError(io.ErrClosedPipe)
		a.r.mu.Lock()
		if a.r.attached[a.id] == a {
			delete(a.r.attached, a.id)
		}
		a.r.mu.Unlock()
	})
	return nil
}

// connect opens the attach session and returns once it is connected,
// with the go-ahead line already on its way; ctx bounds the wait. Only
// the first call connects.
func (a *attachment) connect(ctx context.Context, r *Runtime, id string) error {
	var err error
	a.connOnce.Do(func() { err = a.open(ctx, r, id) })
	return err
}

func (a *attachment) open(ctx context.Context, r *Runtime, id string) error {
	connected := make(chan struct{})
	in := &firstRead{r: io.MultiReader(strings.NewReader("\n"), a.inR), first: connected}
	failed := make(chan error, 1)
	go func() {
		err := r.stream(a.ctx, r.namespace, id, mainContainer, nil, remotecommand.StreamOptions{
			Stdin: in, Stdout: a.outW, Stderr: orDiscard(a.stderr),
		})
		if errors.Is(err, context.Canceled) && a.ctx.Err() != nil {
			err = nil // closed by Close: the reader sees the end
		}
		_ = a.outW.CloseWithError(err) // nil: io.EOF
		failed <- err
	}()
	select {
	case <-connected:
		return nil
	case err := <-failed:
		if err == nil {
			err = errors.New("the session ended at once")
		}
		return mapErr(fmt.Sprintf("attach to pod %s", id), err)
	case <-ctx.Done():
		_ = a.Close()
		return fmt.Errorf("attach to pod %s: %w", id, ctx.Err())
	}
}

// firstRead closes first when the stream first reads stdin: client-go
// starts copying stdin once the session's streams exist.
type firstRead struct {
	r     io.Reader
	first chan struct{}
	once  sync.Once
}

func (f *firstRead) Read(p []byte) (int, error) {
	f.once.Do(func() { close(f.first) })
	return f.r.Read(p)
}

func orDiscard(w io.Writer) io.Writer {
	if w == nil {
		return io.Discard
	}
	return w
}
