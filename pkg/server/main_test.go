package server_test

import (
	"bytes"
	"context"
	"errors"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/zap"
	testgrpc "google.golang.org/grpc/interop/grpc_testing"

	"github.com/greenlight-dev/greenlight/pkg/config"
	"github.com/greenlight-dev/greenlight/pkg/server"
)

// demoSettings is a service's own configuration for the Run tests.
type demoSettings struct {
	Greeting string
}

func (d *demoSettings) RegisterFlags(fs *config.FlagSet) {
	fs.String(&d.Greeting, "greeting", "what to say")
}

func (d *demoSettings) Validate() error {
	if d.Greeting == "" {
		return errors.New("greeting must not be empty")
	}
	return nil
}

// lockedBuffer collects the output of a running Run.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func TestRunExitCodes(t *testing.T) {
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	errBoom := errors.New("boom")
	tests := []struct {
		name       string
		args       []string
		register   error
		closeErr   error
		want       int
		wantStderr string
	}{
		{"clean shutdown", nil, nil, nil, server.ExitOK, `"msg":"stopped"`},
		{"help", []string{"-h"}, nil, nil, server.ExitOK, "GREENLIGHT_DEMO_GREETING"},
		{"unknown flag", []string{"--nope"}, nil, nil, server.ExitUsage, "flag provided but not defined: -nope"},
		{"bad addr", []string{"--addr", "localhost"}, nil, nil, server.ExitUsage, `invalid value "localhost" for flag -addr`},
		{"positional argument", []string{"extra"}, nil, nil, server.ExitUsage, `unexpected arguments ["extra"]`},
		{"settings invalid", []string{"--greeting="}, nil, nil, server.ExitUsage, "greeting must not be empty"},
		{"register fails", nil, errBoom, nil, server.ExitFailure, "register demo: boom"},
		{"close fails", nil, nil, errBoom, server.ExitFailure, "close demo: boom"},
		{"address busy", []string{"--addr", busy.Addr().String()}, nil, nil, server.ExitFailure, "listen on " + busy.Addr().String()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			settings := &demoSettings{Greeting: "hello"}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			spec := server.Spec{
				Name:        "demo",
				DefaultAddr: "127.0.0.1:0",
				Settings:    settings,
				Register: func(_ context.Context, s *server.Server, _ *zap.Logger) (func() error, error) {
					if tt.register != nil {
						return nil, tt.register
					}
					testgrpc.RegisterTestServiceServer(s.GRPC(), newTestService())
					// Stop as soon as the service is up.
					time.AfterFunc(200*time.Millisecond, cancel)
					return func() error { return tt.closeErr }, nil
				},
			}
			var stderr lockedBuffer
			args := append([]string{"--log-format=json", "--drain-delay=0"}, tt.args...)
			got := server.Run(ctx, spec, args, &stderr)
			if got != tt.want {
				t.Fatalf("Run = %d, want %d; stderr:\n%s", got, tt.want, stderr.String())
			}
			if !strings.Contains(stderr.String(), tt.wantStderr) {
				t.Fatalf("stderr does not contain %q:\n%s", tt.wantStderr, stderr.String())
			}
			if tt.want == server.ExitUsage && strings.Count(stderr.String(), "\n") != 1 {
				t.Errorf("usage error is not one line:\n%s", stderr.String())
			}
		})
	}
}

func TestRunRegisterSeesParsedSettings(t *testing.T) {
	settings := &demoSettings{Greeting: "hello"}
	var seen string
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	spec := server.Spec{
		Name:        "demo",
		DefaultAddr: "127.0.0.1:0",
		Settings:    settings,
		Register: func(context.Context, *server.Server, *zap.Logger) (func() error, error) {
			seen = settings.Greeting
			cancel()
			return nil, nil
		},
	}
	t.Setenv("GREENLIGHT_DEMO_GREETING", "from-env")
	var stderr lockedBuffer
	if code := server.Run(ctx, spec, []string{"--drain-delay=0"}, &stderr); code != server.ExitOK {
		t.Fatalf("Run = %d; stderr:\n%s", code, stderr.String())
	}
	if seen != "from-env" {
		t.Fatalf("Register saw greeting %q, want %q", seen, "from-env")
	}
}
