package servertest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc"

	"github.com/greenlight-dev/greenlight/pkg/server"
)

// startTimeout bounds how long Start waits for the "serving" log line.
const startTimeout = 15 * time.Second

// Build compiles the main package pkg (a path relative to the test's working
// directory, e.g. "." or "./cmd/greenlight-loop") into a temp directory and
// returns the binary's path.
func Build(t testing.TB, pkg string) string {
	t.Helper()
	bin, err := buildInto(t.TempDir(), pkg)
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

// BuildForMain is Build for TestMain, so that several tests share one build:
// it returns the binary's path and a cleanup function removing it.
func BuildForMain(pkg string) (bin string, cleanup func(), err error) {
	dir, err := os.MkdirTemp("", "greenlight-bin-*")
	if err != nil {
		return "", nil, fmt.Errorf("temp dir: %w", err)
	}
	cleanup = func() { _ = os.RemoveAll(dir) }
	if bin, err = buildInto(dir, pkg); err != nil {
		cleanup()
		return "", nil, err
	}
	return bin, cleanup, nil
}

func buildInto(dir, pkg string) (string, error) {
	bin := filepath.Join(dir, "service-under-test")
	cmd := exec.Command("go", "build", "-o", bin, pkg)
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build %s: %w\n%s", pkg, err, out)
	}
	return bin, nil
}

// Process is a service binary running under a test.
type Process struct {
	// Addr is the gRPC address the service reported in its "serving" line.
	Addr string

	cmd  *exec.Cmd
	logs *syncBuffer
	done chan struct{}
	err  error // from cmd.Wait, valid after done is closed
}

// Start runs bin with --addr=127.0.0.1:0 --log-format=json --drain-delay=0
// followed by args (later flags win), waits until the service logs that it
// is serving and records the address it listens on. The process is killed
// at test cleanup if still running; its stderr is logged on failure.
func Start(t testing.TB, bin string, args ...string) *Process {
	t.Helper()
	all := append([]string{"--addr=127.0.0.1:0", "--log-format=json", "--drain-delay=0"}, args...)
	p := &Process{cmd: exec.Command(bin, all...), logs: &syncBuffer{}, done: make(chan struct{})}
	stderr, err := p.cmd.StderrPipe()
	if err != nil {
		t.Fatalf("stderr pipe: %v", err)
	}
	if err := p.cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", bin, err)
	}
	addrc := make(chan string, 1)
	go p.scan(stderr, addrc)
	t.Cleanup(func() {
		_ = p.cmd.Process.Kill()
		<-p.done
		if t.Failed() {
			t.Logf("service stderr:\n%s", p.Logs())
		}
	})
	select {
	case p.Addr = <-addrc:
		return p
	case <-p.done:
		t.Fatalf("service exited before serving: %v\n%s", p.err, p.Logs())
	case <-time.After(startTimeout):
		t.Fatalf("service did not report serving within %v\n%s", startTimeout, p.Logs())
	}
	return nil
}

// scan copies stderr into the log buffer, reports the first "serving"
// address and reaps the process once stderr closes.
func (p *Process) scan(r io.Reader, addrc chan<- string) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Bytes()
		p.logs.Write(line)
		p.logs.Write([]byte{'\n'})
		var entry struct {
			Msg  string `json:"msg"`
			Addr string `json:"addr"`
		}
		if json.Unmarshal(line, &entry) == nil && entry.Msg == "serving" && entry.Addr != "" {
			select {
			case addrc <- entry.Addr:
			default:
			}
		}
	}
	_, _ = io.Copy(io.Discard, r)
	p.err = p.cmd.Wait()
	close(p.done)
}

// Conn dials the process; the connection is closed at test cleanup.
func (p *Process) Conn(t testing.TB) *grpc.ClientConn {
	t.Helper()
	conn, err := server.Dial(p.Addr)
	if err != nil {
		t.Fatalf("dial %s: %v", p.Addr, err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	return conn
}

// Signal sends sig to the process.
func (p *Process) Signal(sig os.Signal) error { return p.cmd.Process.Signal(sig) }

// Wait waits up to timeout for the process to exit and returns its exit
// code (-1 when a signal killed it).
func (p *Process) Wait(timeout time.Duration) (int, error) {
	select {
	case <-p.done:
	case <-time.After(timeout):
		return 0, fmt.Errorf("process still running after %v", timeout)
	}
	var exitErr *exec.ExitError
	if p.err != nil && !errors.As(p.err, &exitErr) {
		return 0, p.err
	}
	return p.cmd.ProcessState.ExitCode(), nil
}

// Logs returns everything the process wrote to stderr so far.
func (p *Process) Logs() string { return p.logs.String() }

// syncBuffer is a bytes.Buffer safe for one writer and concurrent readers.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
