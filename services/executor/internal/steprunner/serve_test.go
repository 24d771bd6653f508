package steprunner

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/greenlight-dev/greenlight/services/executor/internal/runnerproto"
)

func TestRunsCommandsAndReportsTheirStatus(t *testing.T) {
	c := startRunner(t)
	uid := strconv.Itoa(int(stepUID()))
	cases := []struct {
		name, script         string
		env                  []string
		dir                  string
		code, signal         int
		wantOut, wantErrText string
	}{
		{name: "streams", script: "echo out; echo err >&2", code: 0, wantOut: "out\n", wantErrText: "err\n"},
		{name: "exit code", script: "echo before; exit 3", code: 3, wantOut: "before\n"},
		{name: "signal", script: "kill -TERM $$", code: 128 + 15, signal: 15},
		{name: "working directory", script: "pwd", dir: "/usr", wantOut: "/usr\n"},
		{name: "environment", script: `echo "$GREENLIGHT_BASE $OVERRIDE $ADDED"`, env: []string{"OVERRIDE=step", "ADDED=yes"},
			wantOut: "from-runner step yes\n"},
		{name: "identity", script: "id -u; id -g; id -G", wantOut: uid + "\n" + uid + "\n" + uid + "\n"},
		// The pipes belong to the process's user, so it can reopen them.
		{name: "dev stdout", script: "echo a > /dev/stdout; echo b > /dev/stderr; stat -L -c %u /proc/self/fd/1",
			wantOut: "a\n" + uid + "\n", wantErrText: "b\n"},
		{name: "own process group", script: `ps -o pgid= -p $$ | tr -d ' '; echo $$`},
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ex, out, errText := c.run(uint32(i+1), tc.script, func(s *runnerproto.Start) {
				s.Env = tc.env
				if tc.dir != "" {
					s.Dir = tc.dir
				}
			})
			if ex.Code != tc.code || ex.Signal != tc.signal || ex.Error != "" || ex.Killed || ex.TimedOut {
				t.Errorf("exit %+v, want code %d signal %d", ex, tc.code, tc.signal)
			}
			if tc.name == "own process group" {
				if f := strings.Fields(out); len(f) != 2 || f[0] != f[1] {
					t.Errorf("process group and pid: %q", out)
				}
				return
			}
			if out != tc.wantOut || errText != tc.wantErrText {
				t.Errorf("stdout %q stderr %q, want %q %q", out, errText, tc.wantOut, tc.wantErrText)
			}
		})
	}
}

// A process holds exactly stdin, stdout and stderr, and as the sandbox
// user it has no capabilities at all.
func TestProcessesGetNoDescriptorsAndNoCapabilities(t *testing.T) {
	c := startRunner(t)
	ex, out, _ := c.run(1, `ls /proc/self/fd | sort -n | tr '\n' ' '; echo; readlink /proc/self/fd/0; grep -E '^Cap(Inh|Prm|Eff|Amb):' /proc/self/status`)
	if ex.Code != 0 {
		t.Fatalf("exit %+v", ex)
	}
	lines := strings.Split(out, "\n")
	// ls itself holds one more descriptor: the directory it lists.
	if lines[0] != "0 1 2 3 " || lines[1] != "/dev/null" {
		t.Errorf("descriptors: %q", out)
	}
	if os.Geteuid() == 0 && strings.Count(out, "0000000000000000") != 4 {
		t.Errorf("capabilities of the step:\n%s", out)
	}
}

// Whatever a process prints, even bytes that are a valid frame, arrives as
// its output; only the runner reports its exit.
func TestAProcessCannotForgeFrames(t *testing.T) {
	c := startRunner(t)
	forged := runnerproto.AppendFrame(nil, runnerproto.KindExit, 1, []byte(`{"code":0,"oom_kills":0,"ms":1}`))
	forged = runnerproto.AppendFrame(forged, runnerproto.KindStdout, 1, []byte("forged output\n"))
	script := `printf '` + octal(forged) + `'; printf '` + octal(forged) + `' >&2; exit 5`
	ex, out, errText := c.run(1, script)
	if ex.Code != 5 {
		t.Errorf("exit %+v: a forged frame decided the status", ex)
	}
	if out != string(forged) || errText != string(forged) {
		t.Errorf("the forged bytes did not arrive verbatim as output:\nstdout %q\nstderr %q", out, errText)
	}
}

// octal escapes b for printf.
func octal(b []byte) string {
	var sb strings.Builder
	for _, c := range b {
		fmt.Fprintf(&sb, "\\%03o", c)
	}
	return sb.String()
}

// A process cannot signal the runner: it runs as another user and has no
// capabilities (only meaningful when the runner is root).
func TestAProcessCannotKillTheRunner(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("the runner and its processes share a uid unless the tests run as root")
	}
	c := startRunner(t)
	pid := strconv.Itoa(c.hello.PID)
	// (No `kill -9 -1` here: on the host it would reach every uid-10001
	// process, other sandboxes included. The sandbox tests do that one.)
	ex, _, errText := c.run(1, "kill -9 "+pid)
	if ex.Code == 0 || !strings.Contains(errText, "Operation not permitted") {
		t.Errorf("kill of the runner: exit %+v, stderr %q", ex, errText)
	}
	if ex, out, _ := c.run(2, "cat /proc/"+pid+"/environ; ls /proc/"+pid+"/fd; echo end"); ex.Code != 0 ||
		strings.Contains(out, "GREENLIGHT_BASE") || !strings.HasSuffix(out, "end\n") {
		t.Errorf("reading the runner: exit %+v out %q", ex, out)
	}
	if ex, out, _ := c.run(3, "echo still-serving"); ex.Code != 0 || out != "still-serving\n" {
		t.Errorf("after the attacks: exit %+v out %q", ex, out)
	}
}

// A Kill frame kills the whole process group; the runner's own timeout
// does the same and says so.
func TestKillAndTimeoutKillTheProcessGroup(t *testing.T) {
	c := startRunner(t)
	cases := []struct {
		name    string
		mutate  func(*runnerproto.Start)
		kill    bool
		killed  bool
		timeout bool
	}{
		{name: "kill frame", kill: true, killed: true},
		{name: "runner timeout", mutate: func(s *runnerproto.Start) { s.TimeoutMillis = 300 }, timeout: true},
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			id := uint32(i + 1)
			c.start(id, "sleep 100 & echo $!; sleep 100", func(s *runnerproto.Start) {
				if tc.mutate != nil {
					tc.mutate(s)
				}
			})
			bg := waitOutput(t, c, id)
			if tc.kill {
				c.send(runnerproto.KindKill, id, nil)
			}
			start := time.Now()
			ex, _, _ := c.wait(id, 10*time.Second)
			if ex.Code != 137 || ex.Signal != 9 || ex.Killed != tc.killed || ex.TimedOut != tc.timeout {
				t.Errorf("exit %+v", ex)
			}
			if d := time.Since(start); d > 2*time.Second {
				t.Errorf("the exit came %s after the kill", d)
			}
			// SIGKILL is delivered at once but acted on when the process
			// next runs, which on a loaded machine can be a moment later.
			if !diesWithin(bg, 2*time.Second) {
				t.Errorf("the background process %s of the group survived", bg)
			}
		})
	}
}

// waitOutput waits for the first line of process id's output.
func waitOutput(t *testing.T, c *client, id uint32) string {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		c.mu.Lock()
		out := c.buf(c.out, id).String()
		c.mu.Unlock()
		if line, _, ok := strings.Cut(out, "\n"); ok {
			return line
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("no output from process %d", id)
	return ""
}

// Input sent in Stdin frames reaches the process; CloseStdin ends it.
func TestStdinFrames(t *testing.T) {
	c := startRunner(t)
	c.start(1, "wc -c; echo done >&2", func(s *runnerproto.Start) { s.Stdin = true })
	chunk := strings.Repeat("x", runnerproto.ChunkBytes)
	for range 40 { // more than a pipe buffer holds
		c.send(runnerproto.KindStdin, 1, []byte(chunk))
	}
	c.send(runnerproto.KindCloseStdin, 1, nil)
	ex, out, errText := c.wait(1, 10*time.Second)
	if ex.Code != 0 || strings.TrimSpace(out) != strconv.Itoa(40*len(chunk)) || errText != "done\n" {
		t.Errorf("exit %+v out %q err %q", ex, out, errText)
	}
	// Without Stdin the process reads /dev/null.
	if ex, out, _ := c.run(2, "wc -c"); ex.Code != 0 || strings.TrimSpace(out) != "0" {
		t.Errorf("without input: %+v %q", ex, out)
	}
}

// Bad starts are reported in the Exit frame and never run anything.
func TestRefusedStarts(t *testing.T) {
	c := startRunner(t)
	cases := []struct {
		name   string
		mutate func(*runnerproto.Start)
		want   string
	}{
		{"root", func(s *runnerproto.Start) { s.UID = 0 }, "never starts anything as root"},
		{"root group", func(s *runnerproto.Start) { s.GID = 0 }, "never starts anything as root"},
		{"missing directory", func(s *runnerproto.Start) { s.Dir = "/does/not/exist" }, "no such file or directory"},
		{"missing command", func(s *runnerproto.Start) { s.Argv = []string{"no-such-command-xyz"} }, "not found in $PATH"},
		{"empty command", func(s *runnerproto.Start) { s.Argv = nil }, "empty command"},
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ex, out, _ := c.run(uint32(i+1), "echo ran", tc.mutate)
			if ex.Code != -1 || !strings.Contains(ex.Error, tc.want) || out != "" {
				t.Errorf("exit %+v out %q, want an error with %q", ex, out, tc.want)
			}
		})
	}
}

// A background process that keeps the output pipes open delays the exit
// report only by the drain time; it keeps running (until the run ends).
func TestBackgroundProcessHoldingOutputIsDrained(t *testing.T) {
	c := startRunner(t)
	start := time.Now()
	ex, out, _ := c.run(1, "sleep 30 & echo $!", func(s *runnerproto.Start) { s.DrainMillis = 200 })
	if d := time.Since(start); ex.Code != 0 || d > 5*time.Second {
		t.Errorf("exit %+v after %s", ex, d)
	}
	bg := strings.TrimSpace(out)
	if !alive(bg) {
		t.Errorf("the background process %q ended with the step", bg)
	}
	_ = syscall.Kill(atoi(bg), syscall.SIGKILL)
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

// Orphans are reparented to the runner (a subreaper) and reaped by it.
func TestOrphansAreReaped(t *testing.T) {
	c := startRunner(t)
	ex, out, _ := c.run(1, "sh -c 'sleep 0.5 & echo $!' ; true")
	orphan := strings.TrimSpace(out)
	if ex.Code != 0 || orphan == "" {
		t.Fatalf("exit %+v out %q", ex, out)
	}
	if ppid := parentOf(orphan); ppid != strconv.Itoa(c.hello.PID) && alive(orphan) {
		t.Errorf("orphan %s has parent %s, want the runner %d", orphan, ppid, c.hello.PID)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		_, err := os.Stat("/proc/" + orphan)
		if os.IsNotExist(err) {
			return // exited and reaped: not even a zombie is left
		}
		if time.Now().After(deadline) {
			t.Fatalf("orphan %s still exists (alive=%v)", orphan, alive(orphan))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func parentOf(pid string) string {
	b, err := os.ReadFile("/proc/" + pid + "/stat")
	if err != nil {
		return ""
	}
	_, rest, _ := strings.Cut(string(b), ") ")
	f := strings.Fields(rest)
	if len(f) < 2 {
		return ""
	}
	return f[1]
}

// Concurrent processes' output is told apart by id.
func TestConcurrentProcesses(t *testing.T) {
	c := startRunner(t)
	for id := uint32(1); id <= 4; id++ {
		c.start(id, fmt.Sprintf("for i in 1 2 3 4 5; do echo p%d-$i; sleep 0.01; done", id))
	}
	for id := uint32(1); id <= 4; id++ {
		ex, out, _ := c.wait(id, 10*time.Second)
		want := ""
		for i := 1; i <= 5; i++ {
			want += fmt.Sprintf("p%d-%d\n", id, i)
		}
		if ex.Code != 0 || out != want {
			t.Errorf("process %d: %+v %q", id, ex, out)
		}
	}
}

// The end of input kills what still runs, reports it, and ends the runner
// cleanly; so does the end of its lifetime (the sandbox's deadline) while
// its input stays open; a protocol error does the same but fails.
func TestEndOfInputLifetimeAndProtocolErrors(t *testing.T) {
	cases := []struct {
		name     string
		args     string
		end      func(c *client)
		wantFail bool
	}{
		{"end of input", "serve", func(c *client) { _ = c.in.Close() }, false},
		{"lifetime passes", "serve 1", func(*client) {}, false},
		{"garbage", "serve", func(c *client) { _, _ = c.in.Write([]byte("not a frame at all")); _ = c.in.Close() }, true},
		{"runner-only frame", "serve", func(c *client) { c.send(runnerproto.KindExit, 9, []byte("{}")) }, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := startRunnerArgs(t, tc.args)
			c.start(1, "sleep 100")
			time.Sleep(100 * time.Millisecond)
			tc.end(c)
			ex, _, _ := c.wait(1, 10*time.Second)
			if !ex.Killed || ex.Code != 137 {
				t.Errorf("running process at the end: %+v", ex)
			}
			err := waitOrKill(c.cmd, 10*time.Second)
			var ee *exec.ExitError
			if failed := err != nil; failed != tc.wantFail || (failed && !isExit(err, &ee)) {
				t.Errorf("runner exit: %v (stderr %s)", err, c.stderrText())
			}
		})
	}
}

func isExit(err error, ee **exec.ExitError) bool {
	e, ok := err.(*exec.ExitError)
	*ee = e
	return ok
}

func TestMainArguments(t *testing.T) {
	cases := []struct {
		args []string
		code int
		out  string
	}{
		{[]string{"version"}, 0, strconv.Itoa(runnerproto.Version) + "\n"},
		{[]string{"nonsense"}, 2, ""},
		{[]string{"keepalive", "65534:65534"}, 2, ""},
		{[]string{"serve", "0"}, 1, ""},
		{[]string{"serve", "soon"}, 1, ""},
		{[]string{"serve", "-5"}, 1, ""},
		{[]string{"serve", "1", "extra"}, 2, ""},
	}
	for _, tc := range cases {
		var out, errOut strings.Builder
		if code := Main(tc.args, &out, &errOut); code != tc.code || out.String() != tc.out {
			t.Errorf("Main(%v) = %d %q (stderr %q)", tc.args, code, out.String(), errOut.String())
		}
	}
}
