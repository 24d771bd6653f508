package steprunner

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/greenlight-dev/greenlight/services/executor/internal/runnerproto"
)

// envServe makes the test binary run the runner (tests drive the real
// binary code over real pipes, in a process of its own, since the runner
// reaps every child of its process).
const envServe = "STEPRUNNER_TEST_MAIN"

func TestMain(m *testing.M) {
	if args := os.Getenv(envServe); args != "" {
		os.Exit(Main(strings.Fields(args), os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// stepUID is who the tests' processes run as: the sandbox user when the
// tests run as root (as `make test` does here), else the current user.
func stepUID() uint32 {
	if os.Geteuid() == 0 {
		return 10001
	}
	return uint32(os.Geteuid())
}

// client drives one runner process.
type client struct {
	t     *testing.T
	cmd   *exec.Cmd
	in    io.WriteCloser
	w     *runnerproto.Writer
	hello runnerproto.Hello
	done  chan error // the frame reader's end

	mu     sync.Mutex
	out    map[uint32]*bytes.Buffer
	errOut map[uint32]*bytes.Buffer
	exits  map[uint32]chan runnerproto.Exit
	stderr bytes.Buffer
}

func startRunner(t *testing.T) *client { return startRunnerArgs(t, "serve") }

// startRunnerArgs starts the runner with args (space-separated).
func startRunnerArgs(t *testing.T, args string) *client {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), envServe+"="+args, "GREENLIGHT_BASE=from-runner", "OVERRIDE=base")
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	outPipe, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	c := &client{t: t, cmd: cmd, in: in, w: runnerproto.NewWriter(in), done: make(chan error, 1),
		out: map[uint32]*bytes.Buffer{}, errOut: map[uint32]*bytes.Buffer{}, exits: map[uint32]chan runnerproto.Exit{}}
	cmd.Stderr = &lockedWriter{mu: &c.mu, w: &c.stderr}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = in.Close()
		waitOrKill(cmd, 10*time.Second)
	})
	r := runnerproto.NewReader(outPipe)
	f, err := r.Next()
	if err != nil || f.Kind != runnerproto.KindHello {
		t.Fatalf("first frame: %v %v (stderr %s)", f.Kind, err, c.stderr.String())
	}
	if err := f.Decode(&c.hello); err != nil || c.hello.Protocol != runnerproto.Version || c.hello.PID != cmd.Process.Pid {
		t.Fatalf("hello %+v: %v", c.hello, err)
	}
	go c.read(r)
	return c
}

// read dispatches frames until the runner's stdout ends.
func (c *client) read(r *runnerproto.Reader) {
	for {
		f, err := r.Next()
		if err != nil {
			c.done <- err
			return
		}
		c.mu.Lock()
		switch f.Kind {
		case runnerproto.KindStdout:
			c.buf(c.out, f.ID).Write(f.Payload)
		case runnerproto.KindStderr:
			c.buf(c.errOut, f.ID).Write(f.Payload)
		case runnerproto.KindExit:
			var ex runnerproto.Exit
			if err := f.Decode(&ex); err != nil {
				c.t.Errorf("exit frame: %v", err)
			}
			c.exitChan(f.ID) <- ex
		default:
			c.t.Errorf("unexpected %s frame from the runner", f.Kind)
		}
		c.mu.Unlock()
	}
}

func (c *client) buf(m map[uint32]*bytes.Buffer, id uint32) *bytes.Buffer {
	if m[id] == nil {
		m[id] = &bytes.Buffer{}
	}
	return m[id]
}

// exitChan must be called with c.mu held.
func (c *client) exitChan(id uint32) chan runnerproto.Exit {
	if c.exits[id] == nil {
		c.exits[id] = make(chan runnerproto.Exit, 1)
	}
	return c.exits[id]
}

// start starts a shell command as the step user.
func (c *client) start(id uint32, script string, mutate ...func(*runnerproto.Start)) {
	c.t.Helper()
	st := runnerproto.Start{Argv: []string{"sh", "-c", script}, Dir: "/", UID: stepUID(), GID: stepUID(), DrainMillis: 300}
	for _, m := range mutate {
		m(&st)
	}
	if err := c.w.JSON(runnerproto.KindStart, id, st); err != nil {
		c.t.Fatalf("start frame: %v", err)
	}
}

// wait returns process id's exit report and output.
func (c *client) wait(id uint32, within time.Duration) (runnerproto.Exit, string, string) {
	c.t.Helper()
	c.mu.Lock()
	ch := c.exitChan(id)
	c.mu.Unlock()
	select {
	case ex := <-ch:
		c.mu.Lock()
		defer c.mu.Unlock()
		return ex, c.buf(c.out, id).String(), c.buf(c.errOut, id).String()
	case <-time.After(within):
		c.t.Fatalf("process %d: no exit within %s (runner stderr: %s)", id, within, c.stderrText())
	}
	panic("unreachable")
}

func (c *client) send(kind runnerproto.Kind, id uint32, payload []byte) {
	c.t.Helper()
	if err := c.w.Frame(kind, id, payload); err != nil {
		c.t.Fatalf("%s frame: %v", kind, err)
	}
}

func (c *client) stderrText() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.stderr.String()
}

// run starts a command and waits for it.
func (c *client) run(id uint32, script string, mutate ...func(*runnerproto.Start)) (runnerproto.Exit, string, string) {
	c.t.Helper()
	c.start(id, script, mutate...)
	return c.wait(id, 20*time.Second)
}

type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func waitOrKill(cmd *exec.Cmd, d time.Duration) error {
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		return err
	case <-time.After(d):
		_ = cmd.Process.Kill()
		<-done
		return fmt.Errorf("the runner did not exit within %s", d)
	}
}

// alive reports whether pid exists and is not a zombie.
// diesWithin reports whether pid is dead (or a zombie) within d.
func diesWithin(pid string, d time.Duration) bool {
	for end := time.Now().Add(d); alive(pid); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(end) {
			return false
		}
	}
	return true
}

func alive(pid string) bool {
	b, err := os.ReadFile("/proc/" + pid + "/stat")
	if err != nil {
		return false
	}
	_, rest, _ := strings.Cut(string(b), ") ")
	return !strings.HasPrefix(rest, "Z")
}
