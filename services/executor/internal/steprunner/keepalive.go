package steprunner

import (
	"fmt"
	"os"
	"strconv"
	"syscall"
)

// keepaliveLoop is what keepalive mode becomes once it has dropped root:
// the same main process as in sandboxes without the runner (a shell that
// sleeps until SIGTERM, or until its lifetime of seconds has passed), two
// pids instead of a Go runtime's threads.
func keepaliveLoop(seconds string) []string {
	if seconds == "" {
		return []string{"/bin/sh", "-c", "trap 'exit 0' TERM; while :; do sleep 3600 & wait $!; done"}
	}
	return []string{"/bin/sh", "-c", "trap 'exit 0' TERM; sleep " + seconds + " & wait $!"}
}

// keepAlive is the container's main process in runner-enabled sandboxes.
// The container itself runs as root (so that the runner, exec'd as root,
// keeps its three capabilities); its main process must not: it drops to
// user (with no supplementary groups) at once, before anything else runs,
// and then execs keepaliveLoop. With seconds set (a positive integer) it
// exits after that long, which stops the container: a sandbox whose
// creator died does not run on.
func keepAlive(user, seconds string) error {
	uid, gid, err := parseIDs(user)
	if err != nil {
		return err
	}
	if n, err := strconv.ParseUint(seconds, 10, 32); seconds != "" && (err != nil || n == 0) {
		return fmt.Errorf("keepalive lifetime %q is not a positive number of seconds", seconds)
	}
	if uid == 0 || gid == 0 {
		return fmt.Errorf("keepalive refuses to stay root")
	}
	if err := dropTo(uid, gid); err != nil {
		return err
	}
	loop := keepaliveLoop(seconds)
	if err := syscall.Exec(loop[0], loop, os.Environ()); err != nil {
		return fmt.Errorf("exec %s: %w", loop[0], err)
	}
	return nil
}

// dropTo switches every thread of the process to uid and gid, with no
// supplementary groups, unless it already runs as them.
func dropTo(uid, gid int) error {
	if os.Geteuid() == uid && os.Getegid() == gid {
		return nil
	}
	if err := syscall.Setgroups(nil); err != nil {
		return fmt.Errorf("dropping supplementary groups: %w", err)
	}
	if err := syscall.Setresgid(gid, gid, gid); err != nil {
		return fmt.Errorf("switching to gid %d: %w", gid, err)
	}
	if err := syscall.Setresuid(uid, uid, uid); err != nil {
		return fmt.Errorf("switching to uid %d: %w", uid, err)
	}
	return nil
}
