package main

import (
	"context"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/greenlight-dev/greenlight/pkg/server"
)

func TestHealthcheckExitCodes(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := server.New(server.Config{Name: "probe"}, nil, server.WithoutSignals())
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, ln) }()
	t.Cleanup(func() { cancel(); <-done })
	addr := ln.Addr().String()
	time.Sleep(50 * time.Millisecond) // Serve marks the server SERVING as it starts

	closed, _ := net.Listen("tcp", "127.0.0.1:0")
	deadAddr := closed.Addr().String()
	closed.Close()

	tests := []struct {
		name string
		args []string
		code int
		msg  string
	}{
		{name: "serving", args: []string{addr}, code: 0},
		{name: "unknown service", args: []string{addr, "no.such.Service"}, code: 1, msg: "NotFound"},
		{name: "nobody listening", args: []string{"-timeout", "500ms", deadAddr}, code: 1, msg: deadAddr},
		{name: "no address", args: nil, code: 2, msg: "usage"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var stderr strings.Builder
			if code := run(tc.args, &stderr); code != tc.code {
				t.Fatalf("exit %d, want %d (%s)", code, tc.code, stderr.String())
			}
			if !strings.Contains(stderr.String(), tc.msg) {
				t.Errorf("stderr %q lacks %q", stderr.String(), tc.msg)
			}
		})
	}
}
