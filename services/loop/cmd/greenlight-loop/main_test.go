package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/blob"
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
	os.Exit(code)
}

// TestBinaryServesAndStopsOnSIGTERM runs the real binary as a process.
func TestBinaryServesAndStopsOnSIGTERM(t *testing.T) {
	dataDir := t.TempDir()
	p := servertest.Start(t, bin, "--data-dir", dataDir)
	conn := p.Conn(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()

	servertest.RequireServing(t, ctx, conn, "greenlight.v1.RunService", "greenlight.v1.BlobService")
	_, err := glv1.NewRunServiceClient(conn).GetRun(ctx, &glv1.GetRunRequest{})
	if status.Code(err) != codes.InvalidArgument {
		t.Errorf("GetRun without id = %v, want InvalidArgument", err)
	}

	// BlobService is the real store under the data directory.
	blobs := blob.NewClient(conn)
	d, err := blobs.Put(ctx, strings.NewReader("snapshot bytes"))
	if err != nil {
		t.Fatalf("blob Put: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dataDir, "blobs", "sha256", d.Hash[:2], d.Hash)); err != nil {
		t.Errorf("blob not stored under the data dir: %v", err)
	}
	r, err := blobs.Open(ctx, d)
	if err != nil {
		t.Fatalf("blob Open: %v", err)
	}
	got, err := io.ReadAll(r)
	_ = r.Close()
	if err != nil || string(got) != "snapshot bytes" {
		t.Errorf("blob read back %q, %v", got, err)
	}

	if err := p.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	code, err := p.Wait(5 * time.Second)
	if err != nil || code != 0 {
		t.Fatalf("exit = %d, %v; want 0\n%s", code, err, p.Logs())
	}
	if !strings.Contains(p.Logs(), `"msg":"stopped"`) {
		t.Errorf("no stopped line in the logs:\n%s", p.Logs())
	}
}

func TestBinaryRejectsBadConfigWithExit2(t *testing.T) {
	tests := []struct {
		name string
		args []string
		env  string
		want string
	}{
		{"bad flag", []string{"--discovery-addr", "nowhere"}, "", "-discovery-addr"},
		{"bad env", nil, "GREENLIGHT_LOOP_SHUTDOWN_GRACE=forever", "GREENLIGHT_LOOP_SHUTDOWN_GRACE"},
		{"negative retention", []string{"--retention-runs", "-1"}, "", "retention"},
		{"score out of range", []string{"--score-threshold", "11"}, "", "score-threshold"},
		{"zero budget", nil, "GREENLIGHT_LOOP_TIME_BUDGET=0s", "time-budget"},
		{"profile without its key", []string{"--provider-profile", "name=hosted,kind=openai,model=m,key-env=GL_TEST_UNSET_KEY"}, "",
			`provider profile "hosted": its key variable GL_TEST_UNSET_KEY is not set`},
		{"malformed profile", []string{"--provider-profile", "name=x,kind=command"}, "", "provider-profile"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmd := exec.Command(bin, tt.args...)
			if tt.env != "" {
				cmd.Env = append(cmd.Environ(), tt.env)
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
