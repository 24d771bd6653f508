package auth

import (
	"errors"
	"strings"
	"testing"
)

func TestIsLoopback(t *testing.T) {
	tests := []struct {
		addr string
		want bool
	}{
		{"127.0.0.1:7070", true},
		{"127.0.0.2:7070", true},
		{"[::1]:7070", true},
		{"localhost:7070", true},
		{"0.0.0.0:7070", false},
		{"[::]:7070", false},
		{":7070", false},
		{"10.1.2.3:7070", false},
		{"gateway.internal:7070", false},
		{"bufconn:gateway", true},
		{"unix:/run/greenlight.sock", true},
	}
	for _, tt := range tests {
		if got := IsLoopback(tt.addr); got != tt.want {
			t.Errorf("IsLoopback(%q) = %v, want %v", tt.addr, got, tt.want)
		}
	}
}

func TestRequireForExposure(t *testing.T) {
	lo := Listener{Flag: "addr", Addr: "127.0.0.1:7070"}
	public := Listener{Flag: "http-addr", Addr: "0.0.0.0:7080"}
	off := Listener{Flag: "http-addr", Addr: ""}
	if err := RequireForExposure(false, lo, off); err != nil {
		t.Fatalf("loopback only: %v", err)
	}
	if err := RequireForExposure(true, lo, public); err != nil {
		t.Fatalf("with token: %v", err)
	}
	err := RequireForExposure(false, lo, public)
	if !errors.Is(err, ErrTokenRequired) || !strings.Contains(err.Error(), "--http-addr 0.0.0.0:7080") {
		t.Fatalf("public without token = %v; want ErrTokenRequired naming --http-addr", err)
	}
}
