package servertest

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"testing"

	"google.golang.org/grpc"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	reflectionpb "google.golang.org/grpc/reflection/grpc_reflection_v1"
)

// ListServices asks the server's reflection service for its services, the
// way `grpcurl list` does, and returns their full names sorted.
func ListServices(ctx context.Context, conn grpc.ClientConnInterface) ([]string, error) {
	stream, err := reflectionpb.NewServerReflectionClient(conn).ServerReflectionInfo(ctx)
	if err != nil {
		return nil, fmt.Errorf("open reflection stream: %w", err)
	}
	defer func() { _ = stream.CloseSend() }()
	req := &reflectionpb.ServerReflectionRequest{
		MessageRequest: &reflectionpb.ServerReflectionRequest_ListServices{ListServices: "*"},
	}
	if err := stream.Send(req); err != nil {
		return nil, fmt.Errorf("send list request: %w", err)
	}
	resp, err := stream.Recv()
	if err != nil {
		return nil, fmt.Errorf("receive list response: %w", err)
	}
	if e := resp.GetErrorResponse(); e != nil {
		return nil, fmt.Errorf("reflection error %d: %s", e.GetErrorCode(), e.GetErrorMessage())
	}
	var names []string
	for _, s := range resp.GetListServicesResponse().GetService() {
		names = append(names, s.GetName())
	}
	sort.Strings(names)
	return names, nil
}

// Health returns the serving status of service ("" for the whole server).
func Health(ctx context.Context, conn grpc.ClientConnInterface, service string) (healthpb.HealthCheckResponse_ServingStatus, error) {
	resp, err := healthpb.NewHealthClient(conn).Check(ctx, &healthpb.HealthCheckRequest{Service: service})
	if err != nil {
		return healthpb.HealthCheckResponse_UNKNOWN, fmt.Errorf("health check %q: %w", service, err)
	}
	return resp.GetStatus(), nil
}

// RequireServing fails t unless the server answers health SERVING for the
// whole server and for each of services, and its reflection lists each of
// services plus the health and reflection services themselves (what
// `grpcurl list` shows).
func RequireServing(t testing.TB, ctx context.Context, conn grpc.ClientConnInterface, services ...string) {
	t.Helper()
	for _, svc := range append([]string{""}, services...) {
		got, err := Health(ctx, conn, svc)
		if err != nil || got != healthpb.HealthCheckResponse_SERVING {
			t.Fatalf("health %q = %v, %v; want SERVING", svc, got, err)
		}
	}
	listed, err := ListServices(ctx, conn)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range append(services, "grpc.health.v1.Health", "grpc.reflection.v1.ServerReflection") {
		if !slices.Contains(listed, want) {
			t.Errorf("reflection list %v lacks %s", listed, want)
		}
	}
}
