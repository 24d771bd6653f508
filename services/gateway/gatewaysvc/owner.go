package gatewaysvc

import (
	"context"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/greenlight-dev/greenlight/pkg/server"
	"github.com/greenlight-dev/greenlight/services/gateway/internal/auth"
)

// errNoIdentity answers a call that reached the upstream connection
// without an authenticated identity: a wiring mistake, refused rather
// than sent to the loop, which would take a call without an owner for one
// of greenlight's own services and show it everything.
var errNoIdentity = status.Error(codes.Unauthenticated, "unauthenticated")

// callerConn is the upstream connection stamped with who each call is
// for: the identity the gateway's gates (gRPC) or middleware (HTTP) put in
// the call's context, or a fixed one. Every call to the loop carries it
// under server.OwnerKey and server.OperatorKey, replacing whatever the
// outgoing metadata held (a client's own metadata is never forwarded
// anyway, see upstreamContext).
type callerConn struct {
	grpc.ClientConnInterface
	// fixed, when set, is used instead of the context's identity.
	fixed *auth.Identity
}

// stamp returns ctx with the caller's metadata.
func (c callerConn) stamp(ctx context.Context) (context.Context, error) {
	id, ok := auth.IdentityFrom(ctx)
	if c.fixed != nil {
		id, ok = *c.fixed, true
	}
	if !ok || id.Owner == "" {
		return nil, errNoIdentity
	}
	return server.WithCaller(ctx, id.Owner, id.Operator), nil
}

// Invoke stamps a unary call.
func (c callerConn) Invoke(ctx context.Context, method string, args, reply any, opts ...grpc.CallOption) error {
	ctx, err := c.stamp(ctx)
	if err != nil {
		return err
	}
	return c.ClientConnInterface.Invoke(ctx, method, args, reply, opts...)
}

// NewStream stamps a streaming call.
func (c callerConn) NewStream(ctx context.Context, desc *grpc.StreamDesc, method string, opts ...grpc.CallOption) (grpc.ClientStream, error) {
	ctx, err := c.stamp(ctx)
	if err != nil {
		return nil, err
	}
	return c.ClientConnInterface.NewStream(ctx, desc, method, opts...)
}

// fanoutIdentity is who the event fan-out's shared upstream streams are
// for: they serve every watcher of a run, so they see every run; each
// watcher is authorized on its own before it joins (ownedWatch).
var fanoutIdentity = auth.Identity{Owner: "gateway:fanout", Operator: true}
