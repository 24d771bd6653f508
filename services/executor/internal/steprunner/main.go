package steprunner

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"syscall"
	"time"

	"github.com/greenlight-dev/greenlight/services/executor/internal/runnerproto"
)

// usage is printed for unknown arguments.
const usage = `usage: greenlight-runner [serve [SECONDS] | version]
  serve      speak the runner protocol on stdin/stdout (the default) until
             stdin ends or, with SECONDS, until that many seconds have passed
  version    print the protocol version`

// Main runs the command line args and returns the exit status.
func Main(args []string, stdout, stderr io.Writer) int {
	cmd := "serve"
	if len(args) > 0 {
		cmd, args = args[0], args[1:]
	}
	var err error
	switch {
	case cmd == "serve" && len(args) <= 1:
		var lifetime time.Duration
		if lifetime, err = parseLifetime(args); err == nil {
			err = serveStdio(lifetime)
		}
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

// parseLifetime parses serve's optional lifetime, a positive number of
// seconds; none is 0 (no lifetime).
func parseLifetime(args []string) (time.Duration, error) {
	if len(args) == 0 {
		return 0, nil
	}
	n, err := strconv.ParseUint(args[0], 10, 32)
	if err != nil || n == 0 {
		return 0, fmt.Errorf("lifetime %q is not a positive number of seconds", args[0])
	}
	return time.Duration(n) * time.Second, nil
}

// serveStdio serves the protocol on file descriptors 0 and 1, switched to
// non-blocking mode so that reading and writing them takes no thread of
// its own (see prewarmThreads), for lifetime at most when it is positive.
func serveStdio(lifetime time.Duration) error {
	runtime.GOMAXPROCS(1)
	in, out := pollable(0, "stdin"), pollable(1, "stdout")
	cfg := DefaultConfig()
	cfg.Lifetime = lifetime
	return Serve(in, out, cfg)
}

// pollable returns fd as an *os.File served by the runtime's poller.
func pollable(fd int, name string) *os.File {
	_ = syscall.SetNonblock(fd, true) // on failure reads simply block a thread
	return os.NewFile(uintptr(fd), name)
}
