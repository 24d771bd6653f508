package store

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestSecondProcessFailsFast holds the store in a child process and checks
// that Open here fails with a clear ErrLocked instead of hanging, then
// succeeds once the holder is gone.
func TestSecondProcessFailsFast(t *testing.T) {
	path := filepath.Join(t.TempDir(), "runs.db")
	cmd, out, stdin := startChild(t, "hold", path)
	if !out.Scan() || out.Text() != "ready" {
		t.Fatalf("child did not get ready: %q %v", out.Text(), out.Err())
	}
	s, err := Open(path, Options{LockTimeout: 200 * time.Millisecond})
	if !errors.Is(err, ErrLocked) {
		if s != nil {
			s.Close()
		}
		t.Fatalf("Open while held: err = %v, want ErrLocked", err)
	}
	if want := "run store " + path + " is locked by another greenlight process"; !strings.Contains(err.Error(), want) {
		t.Errorf("error %q does not say %q", err, want)
	}
	if err := stdin.Close(); err != nil { // the child closes the store and exits
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("holder exited with %v", err)
	}
	s, err = Open(path, Options{LockTimeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatalf("Open after the holder exited: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
}
