package server

import (
	"context"
	"testing"

	"google.golang.org/grpc/metadata"
)

func TestOwnerMetadata(t *testing.T) {
	out := WithOwner(metadata.NewOutgoingContext(context.Background(), metadata.Pairs(OwnerKey, "forged", "x-request-id", "1")), "token:abc")
	md, _ := metadata.FromOutgoingContext(out)
	if got := md.Get(OwnerKey); len(got) != 1 || got[0] != "token:abc" {
		t.Errorf("outgoing owner %q, want the one value token:abc", got)
	}
	if got := md.Get("x-request-id"); len(got) != 1 {
		t.Errorf("other metadata lost: %v", md)
	}
	in := metadata.NewIncomingContext(context.Background(), md)
	if got := OwnerFromIncoming(in); got != "token:abc" {
		t.Errorf("incoming owner %q", got)
	}
	for _, bad := range [][]string{{OwnerKey, "a", OwnerKey, "b"}, {OwnerKey, "has space"}, {OwnerKey, "\x1b[31m"}} {
		if got := OwnerFromIncoming(metadata.NewIncomingContext(context.Background(), metadata.Pairs(bad...))); got != "" {
			t.Errorf("owner from %q = %q, want none", bad, got)
		}
	}
}

func TestCallerMetadata(t *testing.T) {
	// A forged operator flag in the outgoing metadata does not survive a
	// non-operator's stamp.
	forged := metadata.NewOutgoingContext(context.Background(), metadata.Pairs(OperatorKey, "true", OwnerKey, "x"))
	tests := []struct {
		name string
		md   metadata.MD
		want Caller
		all  bool
	}{
		{"no owner: internal caller", metadata.Pairs("x-request-id", "1"), Caller{}, true},
		{"tenant", mdOf(WithCaller(forged, "token:abc", false)), Caller{Owner: "token:abc", Vouched: true}, false},
		{"operator", mdOf(WithCaller(context.Background(), "operator:def", true)), Caller{Owner: "operator:def", Operator: true, Vouched: true}, true},
		{"operator flag without a valid owner", metadata.Pairs(OwnerKey, "has space", OperatorKey, "true"), Caller{Vouched: true}, false},
		{"two owners", metadata.Pairs(OwnerKey, "a", OwnerKey, "b"), Caller{Vouched: true}, false},
		{"operator flag not true", metadata.Pairs(OwnerKey, "a", OperatorKey, "yes"), Caller{Owner: "a", Vouched: true}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := CallerFromIncoming(metadata.NewIncomingContext(context.Background(), tt.md))
			if got != tt.want || got.SeesAll() != tt.all {
				t.Errorf("caller = %+v (sees all %v), want %+v (%v)", got, got.SeesAll(), tt.want, tt.all)
			}
		})
	}
}

func mdOf(ctx context.Context) metadata.MD {
	md, _ := metadata.FromOutgoingContext(ctx)
	return md
}
