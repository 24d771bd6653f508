package provider

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"syscall"
	"time"

	"google.golang.org/protobuf/encoding/protojson"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// Command provider defaults and bounds.
const (
	DefaultCommandTimeout = 5 * time.Minute
	// maxCommandOutput bounds the patch a program may print.
	maxCommandOutput = 4 << 20
	// stderrTail is how much of the program's stderr errors quote.
	stderrTail = 2 << 10
)

// CommandConfig configures the command provider.
type CommandConfig struct {
	// Command is run with /bin/sh -c.
	Command string
	// Timeout bounds one run; zero means DefaultCommandTimeout.
	Timeout time.Duration
	// Dir is the working directory; empty means the current one.
	Dir string
	// Env is the environment; nil means the provider's own.
	Env []string
}

// Command runs an external program per request: the PatchRequest as JSON
// (protojson, the API's JSON form) on stdin, the patch on stdout. Empty
// output means the program gives up.
type Command struct {
	cfg CommandConfig
}

// NewCommand validates the configuration.
func NewCommand(cfg CommandConfig) (*Command, error) {
	if strings.TrimSpace(cfg.Command) == "" {
		return nil, fmt.Errorf("%w: the command provider needs a command", ErrConfig)
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultCommandTimeout
	}
	return &Command{cfg: cfg}, nil
}

// Propose runs the program with the request as JSON on its stdin.
func (c *Command) Propose(ctx context.Context, req *glv1.PatchRequest) (Proposal, error) {
	in, err := protojson.Marshal(req)
	if err != nil {
		return Proposal{}, fmt.Errorf("command provider: %w", err)
	}
	out, err := c.Run(ctx, in)
	if err != nil {
		return Proposal{}, err
	}
	if strings.TrimSpace(out) == "" {
		return Proposal{GiveUp: true}, nil
	}
	return Proposal{Patch: out}, nil
}

// Run runs the program once with in on its stdin and returns its stdout.
// It runs in its own process group, killed whole when the timeout or ctx
// ends, so that nothing it started survives it. The reviewer uses it too.
func (c *Command) Run(ctx context.Context, in []byte) (string, error) {
	rctx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	defer cancel()
	cmd := exec.CommandContext(rctx, "/bin/sh", "-c", c.cfg.Command)
	cmd.Dir, cmd.Env = c.cfg.Dir, c.cfg.Env
	cmd.Stdin = bytes.NewReader(in)
	stdout := &capped{max: maxCommandOutput}
	stderr := &tailBuffer{max: stderrTail}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 2 * time.Second // pipes held open by an escaped child
	err := cmd.Run()
	switch {
	case rctx.Err() != nil && ctx.Err() == nil:
		return "", fmt.Errorf("command provider: %w: `%s` timed out after %s and was killed%s", ErrUpstream, c.cfg.Command, c.cfg.Timeout, stderr.quote())
	case ctx.Err() != nil:
		return "", fmt.Errorf("command provider: %w", ctx.Err())
	case err != nil:
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return "", fmt.Errorf("command provider: %w: `%s` exited with status %d%s", ErrUpstream, c.cfg.Command, ee.ExitCode(), stderr.quote())
		}
		return "", fmt.Errorf("command provider: %w: `%s`: %w%s", ErrUpstream, c.cfg.Command, err, stderr.quote())
	case stdout.over:
		return "", fmt.Errorf("command provider: %w: `%s` printed more than %d bytes", ErrUpstream, c.cfg.Command, maxCommandOutput)
	}
	return stdout.buf.String(), nil
}

// capped keeps up to max bytes and notes an overflow.
type capped struct {
	buf  bytes.Buffer
	max  int
	over bool
}

func (c *capped) Write(p []byte) (int, error) {
	if room := c.max - c.buf.Len(); len(p) > room {
		c.buf.Write(p[:max(room, 0)])
		c.over = true
		return len(p), nil
	}
	return c.buf.Write(p)
}

// tailBuffer keeps the last max bytes written.
type tailBuffer struct {
	buf []byte
	max int
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.buf = append(t.buf, p...)
	if len(t.buf) > 2*t.max {
		t.buf = append([]byte(nil), t.buf[len(t.buf)-t.max:]...)
	}
	return len(p), nil
}

// quote renders the tail for an error message, or "" when empty.
func (t *tailBuffer) quote() string {
	s := t.buf
	if len(s) > t.max {
		s = s[len(s)-t.max:]
	}
	if str := strings.TrimSpace(string(s)); str != "" {
		return ": stderr: " + str
	}
	return ""
}
