package stack

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/metadata"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/blob"
	"github.com/greenlight-dev/greenlight/pkg/server"
)

// Conn is what a CLI command talks to: greenlight's public API.
type Conn struct {
	// Run is the RunService client.
	Run glv1.RunServiceClient
	// Blobs is the BlobService client (snapshots up, logs down).
	Blobs *blob.Client
	// GRPC is the underlying connection (health, reflection).
	GRPC *grpc.ClientConn
	// ReportBase is the base URL of the gateway's report pages
	// ("http://127.0.0.1:7080"), or "" when no report server is known to
	// outlive the command.
	ReportBase string
	// Embedded is true when the services run inside this process.
	Embedded bool

	close func() error
}

// ReportURL returns the report page of a run, or "" when there is none.
func (c *Conn) ReportURL(runID string) string {
	if c.ReportBase == "" || runID == "" {
		return ""
	}
	return c.ReportBase + "/runs/" + runID
}

// Close releases the connection and, in embedded mode, stops the services.
func (c *Conn) Close() error {
	if c.close == nil {
		return nil
	}
	err := c.close()
	c.close = nil
	return err
}

// RemoteOptions configure Remote.
type RemoteOptions struct {
	// Addr is the gateway's (or a loop's) gRPC address, host:port.
	Addr string
	// Token is sent as "authorization: Bearer <token>" on every call when
	// not empty.
	Token string
	// ReportBase overrides the report URL base; "" derives it from Addr.
	ReportBase string
	// TLS is the client's TLS configuration; nil dials in plaintext
	// (tlsconf.UseTLS decides which).
	TLS *tls.Config
}

// ErrNoAddr is returned by Remote without an address.
var ErrNoAddr = errors.New("no address")

// Remote connects to a running greenlight. The connection is lazy: an
// unreachable address fails the first call, with codes.Unavailable.
func Remote(opts RemoteOptions) (*Conn, error) {
	if opts.Addr == "" {
		return nil, ErrNoAddr
	}
	tr := transport{addr: opts.Addr, secure: opts.TLS != nil, clientCert: opts.TLS != nil && len(opts.TLS.Certificates) > 0}
	dialOpts := []grpc.DialOption{grpc.WithChainUnaryInterceptor(tr.unary()), grpc.WithChainStreamInterceptor(tr.stream())}
	if opts.TLS != nil {
		dialOpts = append(dialOpts, grpc.WithTransportCredentials(credentials.NewTLS(opts.TLS)))
	}
	if opts.Token != "" {
		dialOpts = append(dialOpts,
			grpc.WithChainUnaryInterceptor(bearerUnary(opts.Token)),
			grpc.WithChainStreamInterceptor(bearerStream(opts.Token)))
	}
	cc, err := server.Dial(opts.Addr, dialOpts...)
	if err != nil {
		return nil, fmt.Errorf("connect to %s: %w", opts.Addr, err)
	}
	base := opts.ReportBase
	if base == "" {
		base = DeriveReportBase(opts.Addr, opts.TLS != nil)
	}
	return &Conn{
		Run: glv1.NewRunServiceClient(cc), Blobs: blob.NewClient(cc), GRPC: cc,
		ReportBase: base, close: cc.Close,
	}, nil
}

// bearerUnary adds the token to unary calls. An interceptor rather than
// per-RPC credentials: grpc-go refuses those on plaintext connections, and
// a loopback gateway is plaintext (the CLI refuses a token in clear off
// loopback before it gets here: tlsconf.UseTLS).
func bearerUnary(token string) grpc.UnaryClientInterceptor {
	return func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		return invoker(withBearer(ctx, token), method, req, reply, cc, opts...)
	}
}

// bearerStream adds the token to streaming calls.
func bearerStream(token string) grpc.StreamClientInterceptor {
	return func(ctx context.Context, desc *grpc.StreamDesc, cc *grpc.ClientConn, method string, streamer grpc.Streamer, opts ...grpc.CallOption) (grpc.ClientStream, error) {
		return streamer(withBearer(ctx, token), desc, cc, method, opts...)
	}
}

func withBearer(ctx context.Context, token string) context.Context {
	return metadata.AppendToOutgoingContext(ctx, "authorization", "Bearer "+token)
}
