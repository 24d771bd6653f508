// Package enginefake is an in-memory container engine implementing
// sandbox.Runtime, so that the sandbox's and the executor service's logic
// can be tested without Docker. It is imported by tests only.
//
// What it models:
//
//   - images registered by the test (Add, NewImage) with their labels and
//     environment, and images a Pull can fetch (AddRemote); the engine's
//     description (SetInfo);
//   - containers: every ContainerSpec is recorded as given (Specs), so tests
//     assert the hardening; names are unique, state goes created → running →
//     exited, labels answer List, networks answer Connect and Disconnect
//     (AddNetwork; "bridge" and "host" exist), Remove kills and forgets;
//   - each container's filesystem: a directory tree on the host whose
//     tmpfs mounts (/workspace, /home/sandbox, /tmp) are created with the
//     spec's mode and owner; the sandbox's absolute paths (those three and
//     /sys/fs/cgroup) are rewritten into it in every argv, working
//     directory and environment value (and `tar -c` names its members
//     as in the container);
//   - processes: real host processes (/bin/sh, tar, git, ...) in a process
//     group of their own, as the uid:gid asked for when the test runs as
//     root (never as root: the fake refuses uid 0) and as the test's own
//     user otherwise; Exec follows Runtime.Exec's semantics (output never
//     written after it returns, a failing stdin kills the process, an ended
//     context returns at once and leaves the process to Remove);
//   - greenlight-runner: a container created with OpenStdin whose entry
//     point is runnerproto.Path runs, once started, an in-process runner
//     speaking runnerproto over the attachment (hello, start, stdin, kill,
//     exit with the OOM counter, its own timeout); closing the attachment
//     ends it and stops the container, like the real one. An image without
//     the runner label cannot start such a container;
//   - the memory cgroup's OOM counter: /sys/fs/cgroup/memory.events holds
//     "oom_kill 0" and is writable, so a step simulates the OOM killer by
//     writing "oom_kill 1" there; Crash kills a container's main process
//     (with the OOMKilled flag if asked);
//   - failures: SetDown makes every call fail with ErrEngineUnavailable,
//     FailOn makes one operation fail, Block makes one wait for its context.
//
// What it does not model: isolation of any kind (processes see the host's
// filesystem, network, pids and kernel; the root filesystem is not
// read-only; capabilities, seccomp, no-new-privileges, CPU, memory and pids
// limits, sysctls and tmpfs sizes are recorded, never enforced), the
// network itself (a connected container reaches exactly what the host
// reaches), the main process's lifetime (`serve SECONDS` and keepaliveCmd
// never expire), docker-init, orphans that leave their process group
// (Remove kills process groups, not a cgroup), and paths a command builds
// at run time rather than names literally, which are the host's. Output
// shows host paths wherever a command prints a rewritten one (pwd).
package enginefake
