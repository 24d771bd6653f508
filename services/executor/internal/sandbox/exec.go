package sandbox

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// capBuffer keeps the first max bytes written and discards the rest.
type capBuffer struct {
	buf bytes.Buffer
	max int
}

// Write never fails, so the process writing is never stalled.
func (c *capBuffer) Write(p []byte) (int, error) {
	if room := c.max - c.buf.Len(); room > 0 {
		c.buf.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

// exec runs one process in a box: through the box's greenlight-runner
// when it has one, else with its own `docker exec`. Either way the
// semantics are Runtime.Exec's.
func (r *Runner) exec(ctx context.Context, b *box, spec ExecSpec) (execResult, error) {
	return execOn(ctx, r.rt, b.id, b.sess, spec)
}

// execOn runs one process in container id: through sess when it is set,
// else with its own `docker exec`.
func execOn(ctx context.Context, rt Runtime, id string, sess *session, spec ExecSpec) (execResult, error) {
	if sess != nil {
		return sess.exec(ctx, spec)
	}
	code, err := rt.Exec(ctx, id, spec)
	return execResult{code: code, oomKills: -1}, err
}

// execQuiet runs one of greenlight's own commands in a box as the sandbox
// user, with stdin, and turns a non-zero exit into an error quoting stderr.
func (r *Runner) execQuiet(ctx context.Context, b *box, cmd []string, stdin io.Reader) error {
	_, err := r.execOutput(ctx, b, cmd, stdin, io.Discard)
	return err
}

// execOutput is execQuiet with stdout sent to out.
func (r *Runner) execOutput(ctx context.Context, b *box, cmd []string, stdin io.Reader, out io.Writer) (int, error) {
	stderr := &capBuffer{max: 4 << 10}
	res, err := r.exec(ctx, b, ExecSpec{
		Cmd: cmd, User: SandboxUser, WorkDir: WorkspaceDir, Stdin: stdin, Stdout: out, Stderr: stderr,
	})
	code := res.code
	if err != nil {
		return code, err
	}
	if code != 0 {
		return code, fmt.Errorf("%s exited with %d: %s", cmd[0], code, strings.TrimSpace(validUTF8(stderr.buf.Bytes())))
	}
	return 0, nil
}

// oomKillsCmd prints the memory cgroup's OOM-kill counter: memory.events on
// cgroup v2, memory.oom_control on v1 (both have an "oom_kill N" line). It
// is read from inside the container, so it works wherever the executor runs.
var oomKillsCmd = []string{"cat", "/sys/fs/cgroup/memory.events", "/sys/fs/cgroup/memory/memory.oom_control"}

// oomKills reads the box's OOM-kill counter. Processes the cgroup OOM
// killer kills inside exec'd steps do not stop the container, so
// State.OOMKilled never sees them: this counter does.
func (r *Runner) oomKills(ctx context.Context, b *box) (int64, error) {
	var out capBuffer
	out.max = 8 << 10
	// After the runner's session ended (the OOM killer may have ended it)
	// the counter is read with a `docker exec` of its own.
	sess := b.sess
	if sess != nil && !sess.alive() {
		sess = nil
	}
	// cat fails for the file of the other cgroup version: only the output
	// matters.
	_, err := execOn(ctx, r.rt, b.id, sess, ExecSpec{Cmd: oomKillsCmd, User: SandboxUser, WorkDir: "/", Stdout: &out})
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(out.buf.String(), "\n") {
		if v, ok := strings.CutPrefix(line, "oom_kill "); ok {
			return strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		}
	}
	return 0, fmt.Errorf("no oom_kill counter in the container's memory cgroup")
}
