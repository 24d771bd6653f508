package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/server/servertest"
)

// bin is the service binary, built once for all tests by TestMain.
var bin string

func TestMain(m *testing.M) {
	path, cleanup, err := servertest.BuildForMain(".")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	bin = path
	code := m.Run()
	cleanup()
	for _, c := range cleanups {
		c()
	}
	os.Exit(code)
}

// TestBinaryServesAndStopsOnSIGTERM runs the real binary as a process, with
// no loop behind it.
func TestBinaryServesAndStopsOnSIGTERM(t *testing.T) {
	p := servertest.Start(t, bin, "--http-addr=127.0.0.1:0", "--loop-addr="+deadAddr)
	conn := p.Conn(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()

	servertest.RequireServing(t, ctx, conn, "greenlight.v1.RunService", "greenlight.v1.BlobService")
	_, err := glv1.NewRunServiceClient(conn).GetRun(ctx, &glv1.GetRunRequest{RunId: "x"})
	if status.Code(err) != codes.Unavailable {
		t.Errorf("GetRun with no loop = %v, want Unavailable passed through", err)
	}
	if addr := httpAddrOf(t, p); !strings.HasPrefix(addr, "127.0.0.1:") {
		t.Errorf("http addr = %q", addr)
	}

	if err := p.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	code, err := p.Wait(10 * time.Second)
	if err != nil || code != 0 {
		t.Fatalf("exit = %d, %v; want 0\n%s", code, err, p.Logs())
	}
	if !strings.Contains(p.Logs(), `"msg":"stopped"`) {
		t.Errorf("no stopped line in the logs:\n%s", p.Logs())
	}
}

func TestBinaryRejectsBadConfigWithExit2(t *testing.T) {
	tokenFile := t.TempDir() + "/token"
	if err := os.WriteFile(tokenFile, []byte("  \n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		env  string
		want string
	}{
		{"bad flag", []string{"--loop-addr", "nowhere"}, "", "-loop-addr"},
		{"bad env", nil, "GREENLIGHT_GATEWAY_SHUTDOWN_GRACE=forever", "GREENLIGHT_GATEWAY_SHUTDOWN_GRACE"},
		{"public gRPC without token", []string{"--addr", "0.0.0.0:0", "--http-addr", "127.0.0.1:0"}, "", "--addr 0.0.0.0:0 is not a loopback address"},
		{"public HTTP without token", []string{"--http-addr", "0.0.0.0:0"}, "", "--http-addr 0.0.0.0:0 is not a loopback address"},
		{"empty listen host without token", []string{"--addr", ":0"}, "", "--addr :0 is not a loopback address"},
		{"short token", []string{"--token", "abc"}, "", "token too short"},
		{"empty token file", []string{"--token-file", tokenFile}, "", "is empty"},
		{"missing token file", []string{"--token-file", tokenFile + ".missing"}, "", "token-file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmd := exec.Command(bin, tt.args...)
			cmd.Env = append(os.Environ(), "GREENLIGHT_GATEWAY_TOKEN=")
			if tt.env != "" {
				cmd.Env = append(cmd.Env, tt.env)
			}
			out, err := cmd.CombinedOutput()
			exitErr, ok := err.(*exec.ExitError)
			if !ok || exitErr.ExitCode() != 2 {
				t.Fatalf("exit = %v, want code 2\n%s", err, out)
			}
			if !strings.Contains(string(out), tt.want) || strings.Count(string(out), "\n") != 1 {
				t.Fatalf("output should be one line naming %s:\n%s", tt.want, out)
			}
		})
	}
}
