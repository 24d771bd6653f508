package auth

import (
	"context"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
)

func TestUnaryInterceptor(t *testing.T) {
	tok, _ := New(secret)
	tests := []struct {
		name   string
		method string
		md     metadata.MD
		want   codes.Code
	}{
		{"no token", "/greenlight.v1.RunService/GetRun", nil, codes.Unauthenticated},
		{"wrong token", "/greenlight.v1.RunService/GetRun", metadata.Pairs("authorization", "Bearer nope-nope-nope-nope"), codes.Unauthenticated},
		{"two tokens", "/greenlight.v1.RunService/GetRun", metadata.Pairs("authorization", "Bearer "+secret, "authorization", "Bearer x"), codes.Unauthenticated},
		{"right token", "/greenlight.v1.RunService/GetRun", metadata.Pairs("authorization", "Bearer "+secret), codes.OK},
		{"health is open", "/grpc.health.v1.Health/Check", nil, codes.OK},
	}
	ic := tok.UnaryInterceptor()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := metadata.NewIncomingContext(context.Background(), tt.md)
			called := false
			_, err := ic(ctx, nil, &grpc.UnaryServerInfo{FullMethod: tt.method}, func(context.Context, any) (any, error) {
				called = true
				return nil, nil
			})
			if status.Code(err) != tt.want || called != (tt.want == codes.OK) {
				t.Fatalf("err = %v, handler called = %v; want %v", err, called, tt.want)
			}
			if err != nil && status.Convert(err).Message() != "unauthenticated" {
				t.Fatalf("refusal says more than it should: %v", err)
			}
		})
	}
}
