package steprunner

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"syscall"

	"github.com/greenlight-dev/greenlight/services/executor/internal/runnerproto"
)

// keepaliveUser is the default identity of keepalive mode: neither root
// nor the sandbox user, so steps can neither signal it nor read it.
const keepaliveUser = "65534:65534"

// usage is printed for unknown arguments.
const usage = `usage: greenlight-runner [serve | keepalive [UID:GID [SECONDS]] | version]
  serve      speak the runner protocol on stdin/stdout (the default)
  keepalive  drop to UID:GID (default 65534:65534), then sleep until SIGTERM
             or, with SECONDS, until that many seconds have passed
  version    print the protocol version`

// Main runs the command line args and returns the exit status.
func Main(args []string, stdout, stderr io.Writer) int {
	cmd := "serve"
	if len(args) > 0 {
		cmd, args = args[0], args[1:]
	}
	var err error
	switch {
	case cmd == "serve" && len(args) == 0:
		err = serveStdio()
	case cmd == "keepalive" && len(args) <= 2:
		user, seconds := keepaliveUser, ""
		if len(args) >= 1 {
			user = args[0]
		}
		if len(args) == 2 {
			seconds = args[1]
		}
		err = keepAlive(user, seconds)
	case cmd == "version" && len(args) == 0:
		_, err = fmt.Fprintln(stdout, runnerproto.Version)
	default:
		fmt.Fprintln(stderr, usage)
		return 2
	}
	if err != nil {
		fmt.Fprintf(stderr, "greenlight-runner: %v\n", err)
		return 1
	}
	return 0
}

// serveStdio serves the protocol on file descriptors 0 and 1, switched to
// non-blocking mode so that reading and writing them takes no thread of
// its own (see prewarmThreads).
func serveStdio() error {
	runtime.GOMAXPROCS(1)
	in, out := pollable(0, "stdin"), pollable(1, "stdout")
	return Serve(in, out, DefaultConfig())
}

// pollable returns fd as an *os.File served by the runtime's poller.
func pollable(fd int, name string) *os.File {
	_ = syscall.SetNonblock(fd, true) // on failure reads simply block a thread
	return os.NewFile(uintptr(fd), name)
}

// parseIDs parses "UID:GID".
func parseIDs(s string) (uid, gid int, err error) {
	u, g, ok := strings.Cut(s, ":")
	if !ok {
		return 0, 0, fmt.Errorf("%q is not UID:GID", s)
	}
	if uid, err = strconv.Atoi(u); err != nil || uid < 0 {
		return 0, 0, fmt.Errorf("bad uid in %q", s)
	}
	if gid, err = strconv.Atoi(g); err != nil || gid < 0 {
		return 0, 0, fmt.Errorf("bad gid in %q", s)
	}
	return uid, gid, nil
}
