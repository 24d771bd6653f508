package config_test

import (
	"testing"

	"github.com/greenlight-dev/greenlight/pkg/config"
)

func TestIsLoopback(t *testing.T) {
	for addr, want := range map[string]bool{
		"127.0.0.1:7072": true, "127.0.0.2:7072": true, "[::1]:7072": true, "localhost:7072": true,
		"bufconn:executor": true, "unix:/run/greenlight.sock": true,
		"0.0.0.0:7072": false, "[::]:7072": false, ":7072": false, "10.1.2.3:7072": false, "executor:7072": false,
	} {
		if got := config.IsLoopback(addr); got != want {
			t.Errorf("IsLoopback(%q) = %v, want %v", addr, got, want)
		}
	}
}
