package repoconfig

import (
	"strings"
	"testing"
)

// TestSecurityMode: greenlight.yaml's security names the mode of
// greenlight's own scans; anything else is an error naming the key and the
// modes.
func TestSecurityMode(t *testing.T) {
	for _, tt := range []struct {
		body string
		want string
		err  string
	}{
		{body: "version: 1\n"},
		{body: "security: advisory\n", want: SecurityAdvisory},
		{body: "security: required\n", want: SecurityRequired},
		{body: "security: off\n", want: SecurityOff},
		{body: "security: strict\n", err: "want advisory, required or off"},
		{body: "security:\n  mode: off\n", err: "security"},
	} {
		cfg, err := load(t, map[string]string{"greenlight.yaml": tt.body})
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%q: err = %v, want one saying %s", tt.body, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%q: %v", tt.body, err)
		}
		if cfg.Security != tt.want {
			t.Errorf("%q: Security = %q, want %q", tt.body, cfg.Security, tt.want)
		}
	}
}
