package server

import (
	"fmt"
	"strings"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
)

// Dial creates a client connection to another greenlight service at addr
// (host:port), plaintext, with the same default message limits as the
// servers. Extra options come after the defaults and so override them. The
// connection is lazy: errors surface on the first RPC.
func Dial(addr string, opts ...grpc.DialOption) (*grpc.ClientConn, error) {
	all := append([]grpc.DialOption{
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultCallOptions(
			grpc.MaxCallRecvMsgSize(DefaultMaxMsgBytes),
			grpc.MaxCallSendMsgSize(DefaultMaxMsgBytes),
		),
	}, opts...)
	conn, err := grpc.NewClient(target(addr), all...)
	if err != nil {
		return nil, fmt.Errorf("dial %s: %w", addr, err)
	}
	return conn, nil
}

// target keeps explicit gRPC targets ("unix:///run/x.sock", "dns:///host:1")
// and sends a bare host:port straight to the dialer, skipping the DNS
// resolver's polling for addresses that are usually literal IPs.
func target(addr string) string {
	if strings.Contains(addr, ":///") || strings.HasPrefix(addr, "unix:") {
		return addr
	}
	return "passthrough:///" + addr
}
