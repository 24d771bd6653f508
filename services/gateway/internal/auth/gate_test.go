package auth

import (
	"context"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
)

const (
	secretB  = "s3cret-token-B-0123456789"
	operator = "s3cret-operator-0123456789"
)

// TestGate: the gate admits a call from its headers with the identity of
// the token it carries (each tenant token its own owner, the operator's
// marked as such), refuses everything else with one fixed answer, and
// leaves health open.
func TestGate(t *testing.T) {
	keys, err := NewKeys([]string{secret, secretB}, []string{operator})
	if err != nil {
		t.Fatal(err)
	}
	a, _ := New(secret)
	b, _ := New(secretB)
	op, _ := New(operator)
	const run = "/greenlight.v1.RunService/GetRun"
	tests := []struct {
		name   string
		method string
		md     metadata.MD
		want   codes.Code
		id     Identity
	}{
		{"no token", run, nil, codes.Unauthenticated, Identity{}},
		{"wrong token", run, metadata.Pairs("authorization", "Bearer nope-nope-nope-nope"), codes.Unauthenticated, Identity{}},
		{"two tokens", run, metadata.Pairs("authorization", "Bearer "+secret, "authorization", "Bearer x"), codes.Unauthenticated, Identity{}},
		{"tenant A", run, metadata.Pairs("authorization", "Bearer "+secret), codes.OK, Identity{Owner: "token:" + a.fingerprint()}},
		{"tenant B", run, metadata.Pairs("authorization", "Bearer "+secretB), codes.OK, Identity{Owner: "token:" + b.fingerprint()}},
		{"operator", run, metadata.Pairs("authorization", "Bearer "+operator), codes.OK, Identity{Owner: "operator:" + op.fingerprint(), Operator: true}},
		{"reflection needs one", "/grpc.reflection.v1.ServerReflection/ServerReflectionInfo", nil, codes.Unauthenticated, Identity{}},
		{"health is open", "/grpc.health.v1.Health/Check", nil, codes.OK, Identity{}},
	}
	gate := keys.Gate()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, err := gate(context.Background(), tt.method, tt.md)
			if status.Code(err) != tt.want {
				t.Fatalf("err = %v; want %v", err, tt.want)
			}
			if err != nil {
				if status.Convert(err).Message() != "unauthenticated" {
					t.Fatalf("refusal says more than it should: %v", err)
				}
				return
			}
			if got, _ := IdentityFrom(ctx); got != tt.id {
				t.Fatalf("identity = %+v, want %+v", got, tt.id)
			}
		})
	}
}

func TestGateWithoutTokensIsAnonymous(t *testing.T) {
	keys, err := NewKeys(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, err := keys.Gate()(context.Background(), "/greenlight.v1.RunService/GetRun", nil)
	if err != nil {
		t.Fatal(err)
	}
	if id, _ := IdentityFrom(ctx); id != (Identity{Owner: AnonymousIdentity}) {
		t.Fatalf("identity = %+v, want anonymous", id)
	}
}

func TestNewKeysRefusesADuplicate(t *testing.T) {
	if _, err := NewKeys([]string{secret}, []string{secret}); err == nil {
		t.Fatal("a token configured as tenant and operator was accepted")
	}
}
