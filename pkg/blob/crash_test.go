//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package blob

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"
)

// crashRootEnv, when set, turns this test binary into a writer that dies
// mid-write (see crashWriter).
const crashRootEnv = "GREENLIGHT_BLOB_CRASH_ROOT"

// crashBlob is what the helper tries to store; it writes only the first half.
var crashBlob = randomBytes(4*copyBufSize, 42)

// TestMain lets the test binary double as the crash helper: re-executed with
// crashRootEnv set it runs crashWriter instead of the tests.
func TestMain(m *testing.M) {
	if root := os.Getenv(crashRootEnv); root != "" {
		crashWriter(root)
	}
	os.Exit(m.Run())
}

// crashWriter starts a Put, writes half the blob, says "ready" and blocks
// until TestCrashSafetySIGKILL kills it.
func crashWriter(root string) {
	s, err := NewStore(root)
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(2)
	}
	half := crashBlob[:len(crashBlob)/2]
	_, err = s.PutVerified(context.Background(), DigestOf(crashBlob), &stallingReader{data: half})
	fmt.Println("error: Put returned", err)
	os.Exit(2)
}

// stallingReader yields its data, then announces "ready" and blocks forever.
type stallingReader struct{ data []byte }

func (s *stallingReader) Read(p []byte) (int, error) {
	if len(s.data) > 0 {
		n := copy(p, s.data)
		s.data = s.data[n:]
		return n, nil
	}
	// Everything was handed to the store, which wrote it before asking again.
	fmt.Println("ready")
	select {}
}

func TestCrashSafetySIGKILL(t *testing.T) {
	root := t.TempDir()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), crashRootEnv+"="+root)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	killed := false
	t.Cleanup(func() {
		if !killed {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
	})
	waitForLine(t, out, "ready")

	s := newStoreAt(t, root) // opened while the writer lives: its temp file must stay
	temps := tempFiles(t, s)
	if len(temps) != 1 {
		t.Fatalf("temp files while the writer is mid-write: %v, want exactly one", temps)
	}
	if info, err := os.Stat(s.tmpDir() + "/" + temps[0]); err != nil || info.Size() != int64(len(crashBlob)/2) {
		t.Fatalf("temp file = %v, %v; want %d bytes written", info, err, len(crashBlob)/2)
	}

	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	killed = true
	if err := cmd.Wait(); err == nil {
		t.Fatal("helper exited cleanly, want killed")
	}

	for _, d := range []Digest{DigestOf(crashBlob), DigestOf(crashBlob[:len(crashBlob)/2])} {
		if _, found, err := s.Stat(context.Background(), d); found || err != nil {
			t.Fatalf("after the kill Stat(%v) = found %v, %v; want not found", d, found, err)
		}
	}
	fresh := newStoreAt(t, root)
	assertEmpty(t, fresh)
}

// waitForLine reads lines from r until want, failing on anything else or
// after a timeout.
func waitForLine(t *testing.T, r interface{ Read([]byte) (int, error) }, want string) {
	t.Helper()
	lines := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			lines <- sc.Text()
			if sc.Text() == want {
				return
			}
		}
		close(lines)
	}()
	timeout := time.After(30 * time.Second)
	for {
		select {
		case line, ok := <-lines:
			switch {
			case !ok:
				t.Fatalf("helper ended without saying %q", want)
			case line == want:
				return
			default:
				t.Logf("helper: %s", line)
			}
		case <-timeout:
			t.Fatalf("helper did not say %q within 30s", want)
		}
	}
}
