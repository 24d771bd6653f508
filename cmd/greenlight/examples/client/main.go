// Command client is the smallest agent-framework integration: pack a
// directory, upload it, verify it and print every event, then the verdict.
//
//	greenlight serve &                      # or docker compose: make up
//	go run ./examples/client ../../examples/fail
//
// It talks to the gateway (GREENLIGHT_ADDR, default 127.0.0.1:7070; TLS off
// loopback, GREENLIGHT_CA_FILE for a private CA) and sends GREENLIGHT_TOKEN
// as a bearer token when set. It is compiled with the CLI
// module so it cannot rot.
package main

import (
	"bytes"
	"context"
	"fmt"
	"os"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/blob"
	"github.com/greenlight-dev/greenlight/pkg/tlsconf"
	"github.com/greenlight-dev/greenlight/pkg/workspace"
)

func main() {
	if err := run(context.Background(), os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "client:", err)
		os.Exit(2)
	}
}

func run(ctx context.Context, args []string) error {
	if len(args) != 1 {
		return fmt.Errorf("usage: client DIR")
	}
	addr := envOr("GREENLIGHT_ADDR", "127.0.0.1:7070")
	tok := os.Getenv("GREENLIGHT_TOKEN")
	if tok != "" {
		ctx = metadata.AppendToOutgoingContext(ctx, "authorization", "Bearer "+tok)
	}
	// TLS for every host but loopback, as the CLI does; GREENLIGHT_CA_FILE
	// trusts a private CA (serve --tls-cert) and implies TLS.
	creds := insecure.NewCredentials()
	ca := os.Getenv("GREENLIGHT_CA_FILE")
	if secure, _ := tlsconf.UseTLS(addr, tlsconf.Auto, tok != ""); secure || ca != "" {
		cfg, err := tlsconf.ClientFiles{CA: ca}.Config()
		if err != nil {
			return err
		}
		creds = credentials.NewTLS(cfg)
	}
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(creds))
	if err != nil {
		return err
	}
	defer conn.Close()

	// 1. Pack the workspace into a deterministic tar and upload it.
	var tarball bytes.Buffer
	if _, err := workspace.Pack(ctx, args[0], &tarball, workspace.PackOptions{}); err != nil {
		return err
	}
	digest, err := blob.NewClient(conn).Put(ctx, bytes.NewReader(tarball.Bytes()))
	if err != nil {
		return err
	}

	// 2. Verify it, printing the run's events as they happen.
	stream, err := glv1.NewRunServiceClient(conn).Verify(ctx, &glv1.VerifyRequest{Snapshot: digest.Proto()})
	if err != nil {
		return err
	}
	for {
		resp, err := stream.Recv()
		if err != nil {
			return err
		}
		ev := resp.GetEvent()
		switch k := ev.GetKind().(type) {
		case *glv1.RunEvent_StepFinished:
			r := k.StepFinished.GetResult()
			fmt.Printf("#%d %s: %s (exit %d)\n", ev.GetSeq(), r.GetName(), r.GetStatus(), r.GetExitCode())
		case *glv1.RunEvent_RunFinished:
			res := k.RunFinished.GetResult()
			fmt.Printf("%s: %s\n", res.GetStatus(), res.GetSummary())
			for _, f := range res.GetFailures() {
				fmt.Printf("  %s:%d %s\n", f.GetFile(), f.GetLine(), f.GetMessage())
			}
			return nil
		}
	}
}

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}
