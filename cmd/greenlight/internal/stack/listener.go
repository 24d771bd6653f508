package stack

import (
	"context"
	"fmt"
	"net"

	"google.golang.org/grpc"
	"google.golang.org/grpc/test/bufconn"

	"github.com/greenlight-dev/greenlight/pkg/server"
)

// bufSize is the in-memory listener's buffer per connection direction.
const bufSize = 1 << 20

// listener is a TCP or an in-memory listener with a way to dial it.
type listener struct {
	name string
	tcp  net.Listener
	mem  *bufconn.Listener
}

// listen opens the listener of one service: TCP on addr with Listen,
// otherwise in memory.
func (st *Stack) listen(name, addr string) (*listener, error) {
	l := &listener{name: name}
	if st.opts.Listen {
		ln, err := net.Listen("tcp", addr)
		if err != nil {
			return nil, fmt.Errorf("%s: listen on %s: %w", name, addr, err)
		}
		l.tcp = ln
	} else {
		l.mem = bufconn.Listen(bufSize)
	}
	st.lns = append(st.lns, l)
	return l, nil
}

// net returns the listener to serve on.
func (l *listener) net() net.Listener {
	if l.mem != nil {
		return l.mem
	}
	return l.tcp
}

// addr is the dialable address ("bufconn:<name>" in memory).
func (l *listener) addr() string {
	if l.mem != nil {
		return "bufconn:" + l.name
	}
	return l.tcp.Addr().String()
}

// dial connects to a listener of this stack, sending the service token;
// the connection is closed by Close.
func (st *Stack) dial(l *listener) (*grpc.ClientConn, error) {
	opts := []grpc.DialOption{server.DialServiceToken(st.opts.ServiceToken)}
	target := l.addr()
	if l.mem != nil {
		opts = append(opts, grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) {
			return l.mem.DialContext(ctx)
		}))
		target = "passthrough:///" + l.name
	}
	cc, err := server.Dial(target, opts...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", l.name, err)
	}
	st.conns = append(st.conns, cc)
	return cc, nil
}
