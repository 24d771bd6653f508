package server_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/greenlight-dev/greenlight/pkg/server"
)

func TestConfigValidate(t *testing.T) {
	tests := []struct {
		name   string
		modify func(*server.Config)
		want   string // "" = valid
	}{
		{"defaults", func(*server.Config) {}, ""},
		{"no name", func(c *server.Config) { c.Name = "" }, "service name"},
		{"bad addr", func(c *server.Config) { c.Addr = "7073" }, "addr"},
		{"zero message size", func(c *server.Config) { c.MaxRecvMsgBytes = 0 }, "message size"},
		{"negative grace", func(c *server.Config) { c.ShutdownGrace = -1 }, "negative"},
		{"bad level", func(c *server.Config) { c.LogLevel = "chatty" }, "log-level"},
		{"bad format", func(c *server.Config) { c.LogFormat = "yaml" }, "log-format"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := server.DefaultConfig("demo", "127.0.0.1:7073")
			tt.modify(&cfg)
			err := cfg.Validate()
			if tt.want == "" {
				if err != nil {
					t.Fatalf("Validate = %v, want nil", err)
				}
				return
			}
			if !errors.Is(err, server.ErrConfig) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Validate = %v, want ErrConfig mentioning %q", err, tt.want)
			}
		})
	}
}
