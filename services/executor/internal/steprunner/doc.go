// Package steprunner is greenlight-runner, the step runner inside the
// sandbox (cmd/greenlight-runner is its main). It is standard library only
// and Linux only, so the binary stays small and static.
//
// The executor starts it with one `docker exec` per sandbox, as uid 0 in a
// container whose capabilities are only CAP_SETUID, CAP_SETGID and CAP_KILL
// (and no-new-privileges). It reads runnerproto frames on stdin and, for
// each Start, forks the command as the sandbox user (uid/gid 10001, no
// supplementary groups, its own process group, only stdin, stdout and
// stderr open), reads its output from pipes it owns and frames it onto its
// own stdout, kills the process group on a Kill frame or at the timeout,
// and reports the exit status (and the cgroup's OOM-kill counter) in an
// Exit frame. Steps cannot forge frames (they never hold the runner's
// stdout), cannot signal or trace the runner (another uid, no
// capabilities), and cannot read its memory or environment.
//
// The runner is also a child subreaper: orphans of the steps are
// reparented to it and reaped.
//
// In "keepalive" mode it is the container's main process: it drops to
// 65534:65534 and becomes a shell that sleeps until SIGTERM or until the
// sandbox's deadline (a lifetime in seconds, protocol 2), when it exits and
// the container stops.
package steprunner
