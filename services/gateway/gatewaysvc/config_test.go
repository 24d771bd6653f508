package gatewaysvc

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/greenlight-dev/greenlight/services/gateway/internal/auth"
)

func TestConfigTokens(t *testing.T) {
	dir := t.TempDir()
	file := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	const a, b, op = "tenant-a-0123456789abcdef", "tenant-b-0123456789abcdef", "operator-0123456789abcdef"
	tests := []struct {
		name      string
		mod       func(*Config)
		tenants   []string
		operators []string
		err       error
	}{
		{"one token per line, comments and blanks skipped", func(c *Config) {
			c.TokenFile = file("tokens", "# tenants\n"+a+"\n\n  "+b+"  \n")
			c.Token = "ignored-0123456789abcdef"
		}, []string{a, b}, nil, nil},
		{"operator token alone opens a public listener", func(c *Config) {
			c.GRPCAddr, c.OperatorTokenFile = "0.0.0.0:7070", file("ops", op+"\n")
		}, nil, []string{op}, nil},
		{"no token off loopback", func(c *Config) { c.GRPCAddr = "0.0.0.0:7070" }, nil, nil, auth.ErrTokenRequired},
		{"empty operator file", func(c *Config) { c.OperatorTokenFile = file("empty", "# nothing\n") }, nil, nil, ErrConfig},
		{"a tenant token that is also the operator's", func(c *Config) { c.Token, c.OperatorToken = a, a }, nil, nil, auth.ErrDuplicateToken},
		{"short operator token", func(c *Config) { c.OperatorToken = "short" }, nil, nil, auth.ErrTokenTooShort},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := DefaultConfig()
			tt.mod(&c)
			err := c.Validate()
			if tt.err != nil {
				if !errors.Is(err, tt.err) {
					t.Fatalf("Validate = %v, want %v", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(c.tenants, tt.tenants) || !slices.Equal(c.operators, tt.operators) {
				t.Fatalf("tenants %q operators %q, want %q %q", c.tenants, c.operators, tt.tenants, tt.operators)
			}
			if len(tt.tenants) > 0 && c.Token != tt.tenants[0] {
				t.Fatalf("Token = %q, want the first tenant", c.Token)
			}
		})
	}
}
