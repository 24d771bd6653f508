package stack

import (
	"context"
	"strings"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// transport is what a remote connection knows about itself to explain a
// failed connection: gRPC's own words ("authentication handshake failed:
// tls: ...", "error reading server preface: EOF") name neither the host
// nor the flag that fixes it.
type transport struct {
	addr string
	// secure is TLS; clientCert says a client certificate is offered.
	secure, clientCert bool
}

// explain rewrites an Unavailable status that a TLS mismatch explains into
// one that names the host and the flag to pass; other errors pass as
// they are. The code stays Unavailable (exit 2, "not reachable").
func (t transport) explain(err error) error {
	st, ok := status.FromError(err)
	if !ok || st.Code() != codes.Unavailable {
		return err
	}
	msg := st.Message()
	var hint string
	switch {
	case strings.Contains(msg, "x509: certificate signed by unknown authority"),
		strings.Contains(msg, "x509: certificate has expired or is not yet valid"):
		hint = t.addr + " presented a certificate this machine does not trust: pass --ca-file PEM with the CA that signed it (the private CA of `serve --tls-cert`)"
	case strings.Contains(msg, "x509: certificate is valid for"):
		hint = t.addr + "'s certificate is for another name: use that name in --addr, or pass --server-name NAME"
	case strings.Contains(msg, "first record does not look like a TLS handshake"):
		hint = t.addr + " does not speak TLS (serve without --tls-cert, or a TLS proxy's backend): drop --tls, --ca-file, --cert and --server-name"
	case strings.Contains(msg, "remote error: tls: certificate required"):
		hint = t.addr + " requires a client certificate (serve --tls-client-ca): pass --cert and --key"
	case strings.Contains(msg, "remote error: tls: unknown certificate authority"),
		strings.Contains(msg, "remote error: tls: bad certificate"):
		hint = t.addr + " refused the client certificate: pass --cert and --key signed by a CA its --tls-client-ca holds"
	case strings.Contains(msg, "x509:") || strings.Contains(msg, "tls:"):
		hint = "the TLS handshake with " + t.addr + " failed"
	case t.secure && (strings.Contains(msg, "broken pipe") || strings.Contains(msg, "connection reset") ||
		strings.Contains(msg, "EOF")):
		// A refused client certificate shows this way when the server's
		// alert loses the race with the client's first write.
		hint = t.addr + " closed the TLS connection: if it requires a client certificate (serve --tls-client-ca), pass --cert and --key"
		if t.clientCert {
			hint = t.addr + " closed the TLS connection: if it requires client certificates, check that --cert is signed by a CA its --tls-client-ca holds"
		}
	case !t.secure && strings.Contains(msg, "error reading server preface"):
		hint = t.addr + " did not answer in plaintext: if it serves TLS, pass --tls (and --ca-file PEM for a private CA)"
	default:
		return err
	}
	return status.Error(codes.Unavailable, hint+" ("+msg+")")
}

// unary explains the failures of unary calls.
func (t transport) unary() grpc.UnaryClientInterceptor {
	return func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		return t.explain(invoker(ctx, method, req, reply, cc, opts...))
	}
}

// stream explains the failures of opening a stream, where a connection
// that cannot be made shows (a stream's later messages pass as they are).
func (t transport) stream() grpc.StreamClientInterceptor {
	return func(ctx context.Context, desc *grpc.StreamDesc, cc *grpc.ClientConn, method string, streamer grpc.Streamer, opts ...grpc.CallOption) (grpc.ClientStream, error) {
		s, err := streamer(ctx, desc, cc, method, opts...)
		return s, t.explain(err)
	}
}
