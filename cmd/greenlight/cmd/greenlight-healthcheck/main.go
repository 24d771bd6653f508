// Command greenlight-healthcheck asks a greenlight service's gRPC health
// service whether it is SERVING and exits 0 if so, 1 otherwise. The
// service containers are FROM scratch (no shell, no curl, no grpcurl), so
// their compose health checks run this small static binary:
//
//	greenlight-healthcheck [-timeout 3s] HOST:PORT [SERVICE]
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	healthpb "google.golang.org/grpc/health/grpc_health_v1"

	"github.com/greenlight-dev/greenlight/pkg/server"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stderr))
}

// run checks health and returns the exit code.
func run(args []string, stderr io.Writer) int {
	fs := flag.NewFlagSet("greenlight-healthcheck", flag.ContinueOnError)
	fs.SetOutput(stderr)
	timeout := fs.Duration("timeout", 3*time.Second, "how long to wait for the answer")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() < 1 || fs.NArg() > 2 {
		fmt.Fprintln(stderr, "usage: greenlight-healthcheck [-timeout 3s] HOST:PORT [SERVICE]")
		return 2
	}
	service := ""
	if fs.NArg() == 2 {
		service = fs.Arg(1)
	}
	if err := check(fs.Arg(0), service, *timeout); err != nil {
		fmt.Fprintf(stderr, "greenlight-healthcheck: %s: %v\n", fs.Arg(0), err)
		return 1
	}
	return 0
}

// check returns nil when the service reports SERVING.
func check(addr, service string, timeout time.Duration) error {
	conn, err := server.Dial(addr)
	if err != nil {
		return err
	}
	defer conn.Close()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	resp, err := healthpb.NewHealthClient(conn).Check(ctx, &healthpb.HealthCheckRequest{Service: service})
	if err != nil {
		return err
	}
	if s := resp.GetStatus(); s != healthpb.HealthCheckResponse_SERVING {
		return fmt.Errorf("status %s", s)
	}
	return nil
}
