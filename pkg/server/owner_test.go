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
