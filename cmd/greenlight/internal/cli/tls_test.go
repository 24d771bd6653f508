package cli

import (
	"errors"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/greenlight-dev/greenlight/pkg/tlsconf/tlstest"
)

// TestClientTLSDecision: the transport --addr gets from the global flags
// and their variables, decided without connecting anywhere. TLS is the
// default off loopback; a token is never sent in clear off loopback;
// contradicting or unloadable settings are usage errors (exit 2).
func TestClientTLSDecision(t *testing.T) {
	ca := tlstest.NewCA(t, "private")
	client := ca.Client(t, "agent")
	for _, tc := range []struct {
		name    string
		addr    string
		args    []string
		env     map[string]string
		token   bool
		wantTLS bool
		wantErr string // "" for none
	}{
		{"loopback default", "127.0.0.1:7070", nil, nil, true, false, ""},
		{"localhost default", "localhost:7070", nil, nil, true, false, ""},
		{"remote host default", "greenlight.example.com:7070", nil, nil, true, true, ""},
		{"remote IP default without token", "10.1.2.3:7070", nil, nil, false, true, ""},
		{"--tls on loopback", "127.0.0.1:7070", []string{"--tls"}, nil, false, true, ""},
		{"--ca-file implies TLS", "127.0.0.1:7070", []string{"--ca-file", ca.File}, nil, true, true, ""},
		{"GREENLIGHT_CA_FILE implies TLS", "127.0.0.1:7070", nil, map[string]string{"GREENLIGHT_CA_FILE": ca.File}, true, true, ""},
		{"GREENLIGHT_TLS", "127.0.0.1:7070", nil, map[string]string{"GREENLIGHT_TLS": "1"}, true, true, ""},
		{"client certificate", "gw.example:7070", []string{"--cert", client.Cert, "--key", client.Key}, nil, true, true, ""},
		{"--plaintext off loopback without token", "gw.example:7070", []string{"--plaintext"}, nil, false, false, ""},
		{"--plaintext on loopback with token", "127.0.0.1:7070", []string{"--plaintext"}, nil, true, false, ""},
		{"token in clear off loopback", "gw.example:7070", []string{"--plaintext"}, nil, true, false, "refusing to send the token in clear to gw.example:7070"},
		{"GREENLIGHT_PLAINTEXT with token off loopback", "10.1.2.3:7070", nil, map[string]string{"GREENLIGHT_PLAINTEXT": "true"}, true, false, "refusing to send the token in clear"},
		{"--tls and --plaintext", "127.0.0.1:7070", []string{"--tls", "--plaintext"}, nil, false, false, "exclude each other"},
		{"--plaintext and --ca-file", "127.0.0.1:7070", []string{"--plaintext", "--ca-file", ca.File}, nil, false, false, "--plaintext excludes"},
		{"missing CA file", "gw.example:7070", []string{"--ca-file", ca.File + ".missing"}, nil, true, false, "--ca-file"},
		{"cert without key", "gw.example:7070", []string{"--cert", client.Cert}, nil, true, false, "both needed"},
		{"bad GREENLIGHT_TLS", "gw.example:7070", nil, map[string]string{"GREENLIGHT_TLS": "maybe"}, true, false, "GREENLIGHT_TLS"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var c clientTLS
			root := &cobra.Command{Use: "test"}
			c.register(root, func(k string) string { return tc.env[k] })
			if err := root.PersistentFlags().Parse(tc.args); err != nil {
				t.Fatal(err)
			}
			cfg, err := c.config(tc.addr, tc.token)
			if tc.wantErr != "" {
				var ue *usageError
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) || !errors.As(err, &ue) {
					t.Fatalf("config = %v, %v; want a usage error with %q", cfg, err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if (cfg != nil) != tc.wantTLS {
				t.Errorf("TLS = %v, want %v", cfg != nil, tc.wantTLS)
			}
			if cfg != nil && (len(cfg.Certificates) > 0) != (len(tc.args) > 0 && tc.args[0] == "--cert") {
				t.Errorf("client certificates: %d", len(cfg.Certificates))
			}
		})
	}
}
