// Package steprunner is greenlight-runner, the step runner inside the
// sandbox (cmd/greenlight-runner is its main). It is standard library only
// and Linux only, so the binary stays small and static.
//
// It is the sandbox container's main process (under docker-init), as uid 0
// in a container whose capabilities are only CAP_SETUID, CAP_SETGID and
// CAP_KILL (and no-new-privileges); the executor attaches to its stdin and
// stdout before the container starts. It reads runnerproto frames on stdin and, for
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
// It exits, and so stops the container with everything in it, at the end
// of its input (the engine closes a main process's stdin when the
// attachment ends, so a sandbox whose executor died stops at once) or at
// the sandbox's deadline (`serve SECONDS`, protocol 3), whichever comes
// first: a sandbox whose creator hangs does not run on either.
package steprunner
