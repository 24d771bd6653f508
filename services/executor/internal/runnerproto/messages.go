package runnerproto

// Version is the protocol version. The images carry it in the LabelRunner
// label (images/build.sh asks the binary), and the runner repeats it in its
// Hello; the executor uses the runner only when both match. Version 2:
// keepalive takes a lifetime in seconds (the sandbox's deadline). Version
// 3: the runner is the container's main process (`serve SECONDS`, ending
// at that lifetime or at the end of its input), attached before start;
// there is no keepalive mode.
const Version = 3

// Path is where the sandbox images install the runner: root-owned and on
// the read-only root filesystem, so nothing running in the sandbox can
// replace it.
const Path = "/usr/local/libexec/greenlight/runner"

// LabelRunner is the image label that says the image has the runner at
// Path; its value is the protocol Version.
const LabelRunner = "greenlight.runner"

// Hello is the runner's first frame.
type Hello struct {
	Protocol int `json:"protocol"`
	PID      int `json:"pid"`
}

// Start asks the runner to start a process. The runner refuses uid or gid
// 0: it never starts anything as root.
type Start struct {
	// Argv is the command; Argv[0] is looked up in the PATH of Env when it
	// has no slash.
	Argv []string `json:"argv"`
	// Dir is the working directory.
	Dir string `json:"dir"`
	// Env is added to the runner's own environment (the container's),
	// replacing variables of the same name, as `docker exec --env` does.
	Env []string `json:"env,omitempty"`
	UID uint32   `json:"uid"`
	GID uint32   `json:"gid"`
	// TimeoutMillis, when positive, makes the runner kill the process
	// group itself after that long (the executor keeps its own deadline).
	TimeoutMillis int64 `json:"timeout_ms,omitempty"`
	// Stdin says input follows in Stdin frames (else it is /dev/null).
	Stdin bool `json:"stdin,omitempty"`
	// DrainMillis is how long output is still read once the process has
	// exited, while something it left behind keeps the pipes open.
	DrainMillis int64 `json:"drain_ms,omitempty"`
}

// Exit ends a process: its exit status, and what the runner saw.
type Exit struct {
	// Code is the exit status; 128+Signal when a signal killed it; -1 when
	// it never started.
	Code   int `json:"code"`
	Signal int `json:"signal,omitempty"`
	// TimedOut: the runner killed it at TimeoutMillis. Killed: on a Kill
	// frame.
	TimedOut bool `json:"timed_out,omitempty"`
	Killed   bool `json:"killed,omitempty"`
	// Error says why it could not start (then Code is -1).
	Error string `json:"error,omitempty"`
	// OOMKills is the memory cgroup's oom_kill counter read after the
	// process ended, -1 when unreadable.
	OOMKills int64 `json:"oom_kills"`
	// Millis is the process's wall time.
	Millis int64 `json:"ms"`
}
