package server

import (
	"context"
	"strings"
	"unicode"

	"google.golang.org/grpc/metadata"
)

// OwnerKey is the gRPC metadata key naming who a call is made for: the
// gateway sets it on every call to the loop to the identity of the
// authenticated client (always overwriting: a client's own value never
// travels on), and the loop sends it to the executor as
// ExecuteRequest.owner, which keeps dependency-cache entries apart. The
// loop trusts it because only the gateway can call the loop off loopback
// (service-to-service authentication).
const OwnerKey = "x-greenlight-owner"

// maxOwnerLen bounds an owner value.
const maxOwnerLen = 128

// OwnerFromIncoming returns the OwnerKey value of an incoming call, "" when
// there is none or it is not a short printable string.
func OwnerFromIncoming(ctx context.Context) string {
	vals := metadata.ValueFromIncomingContext(ctx, OwnerKey)
	if len(vals) != 1 || !ValidOwner(vals[0]) {
		return ""
	}
	return vals[0]
}

// ValidOwner says whether s can be an owner: 1 to 128 printable, non-space
// characters.
func ValidOwner(s string) bool {
	if s == "" || len(s) > maxOwnerLen {
		return false
	}
	return strings.IndexFunc(s, func(r rune) bool { return !unicode.IsPrint(r) || unicode.IsSpace(r) }) < 0
}

// WithOwner returns ctx whose outgoing metadata carries owner under
// OwnerKey, replacing any value already there.
func WithOwner(ctx context.Context, owner string) context.Context {
	md, _ := metadata.FromOutgoingContext(ctx)
	md = md.Copy()
	md.Set(OwnerKey, owner)
	return metadata.NewOutgoingContext(ctx, md)
}
