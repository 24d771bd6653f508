package gatewaysvc

import (
	"context"

	"google.golang.org/grpc"

	"github.com/greenlight-dev/greenlight/pkg/server"
)

// ownerConn is the upstream connection stamped with the identity of the
// gateway's clients: every call to the loop carries it under
// server.OwnerKey, replacing whatever the outgoing metadata held (a
// client's own metadata is never forwarded anyway, see upstreamContext).
type ownerConn struct {
	grpc.ClientConnInterface
	owner string
}

// Invoke stamps a unary call.
func (c ownerConn) Invoke(ctx context.Context, method string, args, reply any, opts ...grpc.CallOption) error {
	return c.ClientConnInterface.Invoke(server.WithOwner(ctx, c.owner), method, args, reply, opts...)
}

// NewStream stamps a streaming call.
func (c ownerConn) NewStream(ctx context.Context, desc *grpc.StreamDesc, method string, opts ...grpc.CallOption) (grpc.ClientStream, error) {
	return c.ClientConnInterface.NewStream(server.WithOwner(ctx, c.owner), desc, method, opts...)
}
