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

// OperatorKey is the gRPC metadata key by which the gateway says that the
// client it authenticated holds an operator token: the loop then shows it
// every owner's runs and blobs. Like OwnerKey it is set (or removed) by
// the gateway on every call, never taken from a client.
const OperatorKey = "x-greenlight-operator"

// Caller is who an incoming call is made for, as the gateway vouched.
type Caller struct {
	// Owner is the authenticated identity; "" when the call carries none
	// or an unusable one (then Vouched tells which).
	Owner string
	// Operator sees every owner's runs and blobs.
	Operator bool
	// Vouched is true when the call carries OwnerKey at all: it came
	// through a gateway, which always sets it. A call without it comes
	// from greenlight's own services or an embedding process, which the
	// service token (or loopback) already trusts with everything.
	Vouched bool
}

// SeesAll reports whether the caller may see every owner's runs and blobs:
// an operator, or a trusted internal caller no gateway spoke for.
func (c Caller) SeesAll() bool { return c.Operator || !c.Vouched }

// CallerFromIncoming reads who an incoming call is for. A call with
// OwnerKey metadata that is not exactly one valid owner is Vouched with no
// Owner: it sees nothing, rather than everything.
func CallerFromIncoming(ctx context.Context) Caller {
	md, _ := metadata.FromIncomingContext(ctx)
	vals := md.Get(OwnerKey)
	if len(vals) == 0 {
		return Caller{}
	}
	c := Caller{Vouched: true}
	if len(vals) == 1 && ValidOwner(vals[0]) {
		c.Owner = vals[0]
		op := md.Get(OperatorKey)
		c.Operator = len(op) == 1 && op[0] == "true"
	}
	return c
}

// WithCaller returns ctx whose outgoing metadata carries owner under
// OwnerKey and, for an operator, OperatorKey; both replace any value
// already there (a non-operator's outgoing metadata loses OperatorKey).
func WithCaller(ctx context.Context, owner string, operator bool) context.Context {
	md, _ := metadata.FromOutgoingContext(ctx)
	md = md.Copy()
	md.Set(OwnerKey, owner)
	if operator {
		md.Set(OperatorKey, "true")
	} else {
		md.Delete(OperatorKey)
	}
	return metadata.NewOutgoingContext(ctx, md)
}
