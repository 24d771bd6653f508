package store

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// The kill and lock tests re-execute this test binary as a child process
// that works on a store; these variables select what the child does.
const (
	childModeEnv = "GREENLIGHT_STORE_TEST_CHILD"
	childPathEnv = "GREENLIGHT_STORE_TEST_PATH"
	killRunID    = "r_kill"
)

func TestMain(m *testing.M) {
	switch os.Getenv(childModeEnv) {
	case "":
		os.Exit(m.Run())
	case "append":
		os.Exit(childAppend(os.Getenv(childPathEnv)))
	case "hold":
		os.Exit(childHold(os.Getenv(childPathEnv)))
	case "group":
		os.Exit(childGroupAppend(os.Getenv(childPathEnv)))
	default:
		fmt.Fprintf(os.Stderr, "unknown %s\n", childModeEnv)
		os.Exit(2)
	}
}

// childAppend creates a RUNNING run and appends events forever, printing
// "appended N" after event N is durably stored. The parent kills it.
func childAppend(path string) int {
	s, err := Open(path, Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	ctx := context.Background()
	if err := s.CreateRun(ctx, &glv1.Run{Id: killRunID, Status: glv1.RunStatus_RUN_STATUS_RUNNING}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if err := s.PutPatch(ctx, killRunID, &glv1.PatchOutcome{Attempt: 1, Diff: "d"}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	for i := 1; ; i++ {
		if _, err := s.AppendEvent(ctx, killRunID, logEvent(fmt.Sprintf("line %d", i))); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		// A failed write means the parent is gone: stop.
		if _, err := fmt.Printf("appended %d\n", i); err != nil {
			return 1
		}
	}
}

// childHold opens the store, says "ready" and keeps it open until stdin
// closes.
func childHold(path string) int {
	s, err := Open(path, Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer s.Close()
	fmt.Println("ready")
	_, _ = io.Copy(io.Discard, os.Stdin)
	return 0
}

// startChild runs this test binary in the given child mode on path and
// returns the command and a scanner over its stdout.
func startChild(t *testing.T, mode, path string) (*exec.Cmd, *bufio.Scanner, io.WriteCloser) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childModeEnv+"="+mode, childPathEnv+"="+path)
	cmd.Stderr = os.Stderr
	// The child must not outlive a test binary that dies.
	cmd.SysProcAttr = childProcAttr()
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start child: %v", err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	return cmd, bufio.NewScanner(stdout), stdin
}

// waitKilled waits for a child and fails unless SIGKILL ended it.
func waitKilled(t *testing.T, cmd *exec.Cmd) {
	t.Helper()
	err := cmd.Wait()
	ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus)
	if !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
		t.Fatalf("child did not die of SIGKILL: %v", err)
	}
}

// fixedNow is the recovery time used by the kill test.
var fixedNow = time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC)
