package stack

import (
	"context"

	"google.golang.org/grpc"

	"github.com/greenlight-dev/greenlight/pkg/server"
)

// host is one service's gRPC server on its listener.
type host struct {
	name string
	ln   *listener
	srv  *server.Server
	done chan struct{}
	err  error
	// running is set by serve; a host that never served has nothing to wait for.
	running bool
}

// host registers a service on a new server for ln; serve starts it.
func (st *Stack) host(name string, ln *listener, register func(grpc.ServiceRegistrar), opts ...server.Option) {
	h := &host{name: name, ln: ln, srv: st.newServer(name, opts...), done: make(chan struct{})}
	register(h.srv.GRPC())
	st.hosts = append(st.hosts, h)
}

// serve runs the server until ctx ends; stopped runs when it returns.
func (h *host) serve(ctx context.Context, stopped func()) {
	h.running = true
	go func() {
		defer stopped()
		defer close(h.done)
		h.err = h.srv.Serve(ctx, h.ln.net())
	}()
}

// wait waits for the server to stop and returns why it stopped, if not
// by ctx. A server that never started returns at once.
func (h *host) wait() error {
	if !h.running {
		return nil
	}
	<-h.done
	return h.err
}
