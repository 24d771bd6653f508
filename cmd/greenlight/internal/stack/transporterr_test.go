package stack

import (
	"errors"
	"strings"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// TestTransportExplain: each TLS mismatch is reworded to name the host
// and the flag that fixes it, and keeps the Unavailable code; other
// errors pass unchanged. The messages are grpc-go's, as seen against a
// real serve.
func TestTransportExplain(t *testing.T) {
	const addr = "127.0.0.1:7070"
	tls, plain := transport{addr: addr, secure: true}, transport{addr: addr}
	for _, tc := range []struct {
		name string
		tr   transport
		msg  string
		want string // "" for unchanged
	}{
		{"untrusted CA", tls, `connection error: desc = "transport: authentication handshake failed: tls: failed to verify certificate: x509: certificate signed by unknown authority"`,
			"127.0.0.1:7070 presented a certificate this machine does not trust: pass --ca-file"},
		{"other name", tls, `connection error: desc = "transport: authentication handshake failed: tls: failed to verify certificate: x509: certificate is valid for localhost, not other"`,
			"pass --server-name"},
		{"plaintext server", tls, `connection error: desc = "transport: authentication handshake failed: tls: first record does not look like a TLS handshake"`,
			"does not speak TLS"},
		{"client certificate required", tls, `write tcp 127.0.0.1:42170->127.0.0.1:7070: write: broken pipe`,
			"pass --cert and --key"},
		{"client certificate required (TLS alert)", tls, `connection error: desc = "error reading server preface: remote error: tls: certificate required"`,
			"requires a client certificate (serve --tls-client-ca): pass --cert and --key"},
		{"client certificate refused", transport{addr: addr, secure: true, clientCert: true}, `connection error: desc = "error reading server preface: remote error: tls: unknown certificate authority"`,
			"refused the client certificate"},
		{"TLS server", plain, `connection error: desc = "error reading server preface: EOF"`, "pass --tls"},
		{"nothing listening", tls, `connection error: desc = "transport: Error while dialing: dial tcp 127.0.0.1:7070: connect: connection refused"`, ""},
		{"nothing listening in plaintext", plain, `connection error: desc = "transport: Error while dialing: dial tcp 127.0.0.1:7070: connect: connection refused"`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := status.Error(codes.Unavailable, tc.msg)
			got := tc.tr.explain(in)
			if tc.want == "" {
				if got != in {
					t.Errorf("explain changed %v into %v", in, got)
				}
				return
			}
			st := status.Convert(got)
			if st.Code() != codes.Unavailable || !strings.Contains(st.Message(), tc.want) || !strings.Contains(st.Message(), tc.msg) {
				t.Errorf("explain = %v; want Unavailable with %q and the original message", got, tc.want)
			}
		})
	}
	for _, err := range []error{nil, errors.New("plain"), status.Error(codes.PermissionDenied, "x509: irrelevant")} {
		if got := tls.explain(err); got != err {
			t.Errorf("explain(%v) = %v, want it unchanged", err, got)
		}
	}
}
