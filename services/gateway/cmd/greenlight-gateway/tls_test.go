package main

import (
	"context"
	"crypto/tls"
	"io"
	"net/http"
	"os/exec"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/status"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/server"
	"github.com/greenlight-dev/greenlight/pkg/server/servertest"
	"github.com/greenlight-dev/greenlight/pkg/tlsconf"
	"github.com/greenlight-dev/greenlight/pkg/tlsconf/tlstest"
)

// tlsGateway is a gateway started with --tls-cert/--tls-key (and maybe
// --tls-client-ca) in front of a real loop.
type tlsGateway struct {
	grpcAddr, httpAddr string
}

func startTLSGateway(t *testing.T, pair tlstest.Pair, extra ...string) tlsGateway {
	t.Helper()
	loop := startLoop(t, t.TempDir(), deadAddr, deadAddr)
	p := servertest.Start(t, bin, append([]string{"--http-addr", "127.0.0.1:0", "--loop-addr", loop.Addr, "--token", token,
		"--tls-cert", pair.Cert, "--tls-key", pair.Key}, extra...)...)
	return tlsGateway{grpcAddr: p.Addr, httpAddr: httpAddrOf(t, p)}
}

// listRuns calls ListRuns with the token over a connection with creds.
func listRuns(t *testing.T, addr string, creds credentials.TransportCredentials) error {
	t.Helper()
	conn, err := server.Dial(addr, grpc.WithTransportCredentials(creds))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	_, err = glv1.NewRunServiceClient(conn).ListRuns(bearer(ctx, token), &glv1.ListRunsRequest{})
	return err
}

// postListRuns is ListRuns as HTTP/JSON on the report listener.
func postListRuns(client *http.Client, base string) (int, error) {
	req, _ := http.NewRequest(http.MethodPost, base+"/greenlight.v1.RunService/ListRuns", strings.NewReader("{}"))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := client.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, resp.Body)
	return resp.StatusCode, nil
}

func clientTLS(t *testing.T, f tlsconf.ClientFiles) *tls.Config {
	t.Helper()
	cfg, err := f.Config()
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// TestGatewayServesTLS: with --tls-cert and --tls-key both listeners speak
// TLS. A client trusting the private CA gets answers on gRPC and on
// HTTP/JSON; one trusting another CA, and a plaintext one, get none.
func TestGatewayServesTLS(t *testing.T) {
	good, wrong := tlstest.NewCA(t, "good"), tlstest.NewCA(t, "wrong")
	g := startTLSGateway(t, good.Server(t, "gateway", "127.0.0.1"))

	if err := listRuns(t, g.grpcAddr, credentials.NewTLS(clientTLS(t, tlsconf.ClientFiles{CA: good.File}))); err != nil {
		t.Errorf("ListRuns over TLS with the private CA: %v", err)
	}
	err := listRuns(t, g.grpcAddr, credentials.NewTLS(clientTLS(t, tlsconf.ClientFiles{CA: wrong.File})))
	if status.Code(err) != codes.Unavailable || !strings.Contains(err.Error(), "x509") {
		t.Errorf("ListRuns trusting another CA = %v, want Unavailable with the x509 failure", err)
	}
	plain, err := server.Dial(g.grpcAddr)
	if err != nil {
		t.Fatal(err)
	}
	defer plain.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if _, err := glv1.NewRunServiceClient(plain).ListRuns(bearer(ctx, token), &glv1.ListRunsRequest{}); status.Code(err) != codes.Unavailable {
		t.Errorf("ListRuns in plaintext to a TLS gateway = %v, want Unavailable", err)
	}

	https := &http.Client{Transport: &http.Transport{TLSClientConfig: clientTLS(t, tlsconf.ClientFiles{CA: good.File})}}
	if code, err := postListRuns(https, "https://"+g.httpAddr); err != nil || code != http.StatusOK {
		t.Errorf("HTTP/JSON ListRuns over https = %d, %v; want 200", code, err)
	}
	untrusting := &http.Client{Transport: &http.Transport{TLSClientConfig: clientTLS(t, tlsconf.ClientFiles{CA: wrong.File})}}
	if _, err := postListRuns(untrusting, "https://"+g.httpAddr); err == nil || !strings.Contains(err.Error(), "x509") {
		t.Errorf("HTTP/JSON trusting another CA: %v, want an x509 failure", err)
	}
	if code, err := postListRuns(http.DefaultClient, "http://"+g.httpAddr); err == nil && code == http.StatusOK {
		t.Errorf("HTTP/JSON in plaintext to a TLS listener answered 200")
	}
}

// TestGatewayRequiresClientCertificates: with --tls-client-ca a client
// without a certificate from that CA is refused on both listeners.
func TestGatewayRequiresClientCertificates(t *testing.T) {
	ca, other := tlstest.NewCA(t, "ca"), tlstest.NewCA(t, "other")
	g := startTLSGateway(t, ca.Server(t, "gateway", "127.0.0.1"), "--tls-client-ca", ca.File)
	client, rogue := ca.Client(t, "agent"), other.Client(t, "rogue")

	for _, tc := range []struct {
		name  string
		files tlsconf.ClientFiles
		ok    bool
	}{
		{"client certificate", tlsconf.ClientFiles{CA: ca.File, Cert: client.Cert, Key: client.Key}, true},
		{"no client certificate", tlsconf.ClientFiles{CA: ca.File}, false},
		{"another CA's client certificate", tlsconf.ClientFiles{CA: ca.File, Cert: rogue.Cert, Key: rogue.Key}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := clientTLS(t, tc.files)
			if err := listRuns(t, g.grpcAddr, credentials.NewTLS(cfg)); (err == nil) != tc.ok {
				t.Errorf("gRPC ListRuns = %v, want success %v", err, tc.ok)
			}
			https := &http.Client{Transport: &http.Transport{TLSClientConfig: cfg}}
			code, err := postListRuns(https, "https://"+g.httpAddr)
			if (err == nil && code == http.StatusOK) != tc.ok {
				t.Errorf("HTTP/JSON ListRuns = %d, %v; want success %v", code, err, tc.ok)
			}
		})
	}
}

// TestGatewayTLSFlagsThatDoNotLoad exit 2 with the flags named, before
// listening: a TLS gateway never starts in plaintext.
func TestGatewayTLSFlagsThatDoNotLoad(t *testing.T) {
	ca := tlstest.NewCA(t, "ca")
	pair := ca.Server(t, "gateway", "127.0.0.1")
	for name, args := range map[string][]string{
		"cert without key":   {"--tls-cert", pair.Cert},
		"key as certificate": {"--tls-cert", pair.Key, "--tls-key", pair.Key},
		"missing client CA":  {"--tls-cert", pair.Cert, "--tls-key", pair.Key, "--tls-client-ca", pair.Cert + ".missing"},
	} {
		t.Run(name, func(t *testing.T) {
			out, err := exec.Command(bin, args...).CombinedOutput()
			exitErr, ok := err.(*exec.ExitError)
			if !ok || exitErr.ExitCode() != server.ExitUsage || !strings.Contains(string(out), "tls-cert, tls-key, tls-client-ca") {
				t.Errorf("exit %v, output %q; want exit 2 naming the TLS flags", err, out)
			}
		})
	}
}
