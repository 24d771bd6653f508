package main

import (
	"context"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/greenlight-dev/greenlight/pkg/tlsconf"
	"github.com/greenlight-dev/greenlight/pkg/tlsconf/tlstest"
)

// tlsToken is the bearer token of the TLS serve tests.
const tlsToken = "tls-test-token-0123456789abcdef"

// TestCLIReachesATLSServe: `serve --tls-cert --tls-key` with a private CA;
// the CLI trusting that CA (--ca-file) lists and verifies, and prints an
// https report URL; trusting another CA, or speaking plaintext, it exits
// 2 with one line naming the host and the flag to pass.
func TestCLIReachesATLSServe(t *testing.T) {
	requireDocker(t)
	good, wrong := tlstest.NewCA(t, "good"), tlstest.NewCA(t, "wrong")
	pair := good.Server(t, "serve", "127.0.0.1", "localhost")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	srv := startServe(t, ctx, newUser(t), "--token", tlsToken, "--tls-cert", pair.Cert, "--tls-key", pair.Key)
	m := regexp.MustCompile(`\(reports (https://\S+)\)`).FindStringSubmatch(srv.output())
	if m == nil {
		t.Fatalf("serve's serving line does not give https report pages:\n%s", srv.output())
	}
	// The report pages and HTTP/JSON listener is TLS with the same certificate.
	cfg, err := tlsconf.ClientFiles{CA: good.File}.Config()
	if err != nil {
		t.Fatal(err)
	}
	https := &http.Client{Transport: &http.Transport{TLSClientConfig: cfg}}
	resp, err := https.Get(m[1] + "/healthz")
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Errorf("GET %s/healthz over TLS = %v, %v", m[1], resp, err)
	}
	if resp != nil {
		_ = resp.Body.Close()
	}
	if resp, err := http.Get("http://" + strings.TrimPrefix(m[1], "https://") + "/healthz"); err == nil {
		if resp.StatusCode == http.StatusOK {
			t.Errorf("the report listener answered plaintext HTTP with 200")
		}
		_ = resp.Body.Close()
	}
	remote := &user{t: t, home: t.TempDir(), env: []string{"GREENLIGHT_ADDR=" + srv.gateway, "GREENLIGHT_TOKEN=" + tlsToken}}

	remote.run(nil, "--ca-file", good.File, "runs").wantExit(t, 0, "runs trusting the private CA")
	r := remote.run(nil, "--ca-file", good.File, "verify", examples("pass"))
	r.wantExit(t, 0, "verify over TLS")
	if !strings.Contains(r.stdout, "Report:   https://") {
		t.Errorf("verify over TLS does not print an https report URL:\n%s", r.stdout)
	}

	r = remote.run(nil, "--ca-file", wrong.File, "runs")
	r.wantExit(t, 2, "runs trusting another CA")
	r.wantOneLineError(t, srv.gateway+" presented a certificate this machine does not trust: pass --ca-file")

	r = remote.run(nil, "--tls", "runs") // the system's roots do not hold the private CA
	r.wantExit(t, 2, "runs with the system's roots")
	r.wantOneLineError(t, "pass --ca-file")

	r = remote.run(nil, "runs") // loopback defaults to plaintext
	r.wantExit(t, 2, "runs in plaintext")
	r.wantOneLineError(t, "if it serves TLS, pass --tls")
}

// TestServeRequiresClientCertificates: with --tls-client-ca, a CLI without
// a client certificate is refused (exit 2, told to pass --cert and --key);
// with one from that CA it gets through; with another CA's it is refused.
func TestServeRequiresClientCertificates(t *testing.T) {
	requireDocker(t)
	ca := tlstest.NewCA(t, "ca")
	pair, client := ca.Server(t, "serve", "127.0.0.1"), ca.Client(t, "agent")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	srv := startServe(t, ctx, newUser(t), "--token", tlsToken, "--tls-cert", pair.Cert, "--tls-key", pair.Key, "--tls-client-ca", ca.File)
	remote := &user{t: t, home: t.TempDir(), env: []string{"GREENLIGHT_ADDR=" + srv.gateway, "GREENLIGHT_TOKEN=" + tlsToken,
		"GREENLIGHT_CA_FILE=" + ca.File}}

	r := remote.run(nil, "runs")
	r.wantExit(t, 2, "runs without a client certificate")
	r.wantOneLineError(t, "pass --cert and --key")
	remote.run(nil, "--cert", client.Cert, "--key", client.Key, "runs").wantExit(t, 0, "runs with a client certificate")
	rogue := tlstest.NewCA(t, "rogue").Client(t, "rogue")
	r = remote.run(nil, "--cert", rogue.Cert, "--key", rogue.Key, "runs")
	r.wantExit(t, 2, "runs with another CA's client certificate")
	r.wantOneLineError(t, "client certificate")
}

// TestTLSUsageErrors exit 2 before anything listens or dials: serve's TLS
// files that do not load, contradicting client flags, and a token that
// would go in clear to a host off loopback (192.0.2.1 is a documentation
// address; the CLI refuses before dialing it).
func TestTLSUsageErrors(t *testing.T) {
	ca := tlstest.NewCA(t, "ca")
	pair := ca.Server(t, "serve", "127.0.0.1")
	u := newUser(t)
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"serve cert without key", []string{"serve", "--tls-cert", pair.Cert}, "--tls-cert, --tls-key, --tls-client-ca"},
		{"serve key as certificate", []string{"serve", "--tls-cert", pair.Key, "--tls-key", pair.Key}, "--tls-cert, --tls-key, --tls-client-ca"},
		{"token in clear off loopback", []string{"--addr", "192.0.2.1:7070", "--token", tlsToken, "--plaintext", "runs"},
			"refusing to send the token in clear to 192.0.2.1:7070"},
		{"tls and plaintext", []string{"--addr", "127.0.0.1:7070", "--tls", "--plaintext", "runs"}, "exclude each other"},
		{"missing CA file", []string{"--addr", "127.0.0.1:7070", "--ca-file", ca.File + ".missing", "runs"}, "--ca-file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := u.run(nil, tc.args...)
			r.wantExit(t, 2, strings.Join(tc.args, " "))
			r.wantOneLineError(t, tc.want)
		})
	}
}
