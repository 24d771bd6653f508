package sandbox

import (
	"context"
	"io"
	"time"
)

// Runtime is what the sandbox needs from a container engine. Implementations
// wrap engine errors: ErrEngineUnavailable when the engine does not answer,
// ErrImageNotFound and ErrContainerNotFound for missing objects.
type Runtime interface {
	// Ping checks that the engine answers.
	Ping(ctx context.Context) error
	// Engine describes the engine (version, OS, architecture).
	Engine(ctx context.Context) (EngineInfo, error)
	// Image describes a local image; it never pulls.
	Image(ctx context.Context, ref string) (ImageInfo, error)
	// Create creates (but does not start) a container.
	Create(ctx context.Context, spec ContainerSpec) (id string, err error)
	// Start starts a created container.
	Start(ctx context.Context, id string) error
	// Connect attaches a container to a network.
	Connect(ctx context.Context, id, network string) error
	// Disconnect detaches a container from a network.
	Disconnect(ctx context.Context, id, network string) error
	// Attach connects to the standard streams of a created container's
	// main process (ContainerSpec.OpenStdin): what is written goes to its
	// stdin, what is read is its stdout, and its stderr goes to stderr
	// (nil discards). Called before Start, so nothing the process writes
	// is lost. ctx bounds the attach call, not the stream. Close ends the
	// attachment, and the engine then closes the process's stdin: so does
	// the death of the process holding it.
	Attach(ctx context.Context, id string, stderr io.Writer) (io.ReadWriteCloser, error)
	// Exec runs a process in a running container, streaming Stdin in and
	// Stdout/Stderr out, and returns its exit code. When ctx ends, Exec
	// returns promptly with ctx's error; the process itself keeps running
	// inside the container (killing an exec'd client does not kill it), so
	// the caller must remove the container.
	Exec(ctx context.Context, id string, spec ExecSpec) (exitCode int, err error)
	// State inspects a container.
	State(ctx context.Context, id string) (ContainerState, error)
	// Remove kills and removes a container with its anonymous volumes. A
	// container that does not exist is not an error.
	Remove(ctx context.Context, id string) error
	// List returns the containers (running or not) carrying a label key,
	// optionally with a value (key=value).
	List(ctx context.Context, label string) ([]ContainerInfo, error)
}

// EngineInfo describes the container engine.
type EngineInfo struct {
	Version    string
	APIVersion string
	OS         string
	Arch       string
	// Init says the engine has an init binary (docker-init) for Init.
	Init bool
}

// ImageInfo describes a local image.
type ImageInfo struct {
	// Ref is the reference the image was looked up by.
	Ref string
	// ID is the image ID (sha256:...).
	ID string
	// Digest is the first repository digest, or the ID for images that
	// were built or imported locally.
	Digest string
	OS     string
	Arch   string
	// Env is the image's configured environment (KEY=VALUE).
	Env []string
	// Labels are the image's labels (runnerproto.LabelRunner says it has
	// the step runner).
	Labels map[string]string
}

// ContainerSpec is everything a container is created with. The sandbox fills
// every security-relevant field itself (see hardenedSpec); the runtime maps it
// one to one and adds nothing.
type ContainerSpec struct {
	Name  string
	Image string
	// Entrypoint replaces the image's entry point when set.
	Entrypoint []string
	Cmd        []string
	User       string
	WorkDir    string
	Env        []string
	Labels     map[string]string
	// Network is the network to attach at creation; "" means no network at
	// all (only loopback, and no way to attach one later).
	Network        string
	NanoCPUs       int64
	MemoryBytes    int64
	PidsLimit      int64
	ReadonlyRootfs bool
	// Tmpfs maps a mount point to its mount options.
	Tmpfs       map[string]string
	CapDrop     []string
	CapAdd      []string
	SecurityOpt []string
	Init        bool
	// OpenStdin keeps the main process's stdin open for one Attach; the
	// engine closes it when that attachment ends (the greenlight-runner
	// main process then ends, and the container stops).
	OpenStdin bool
	// Sysctls are kernel parameters set in the container's own network
	// namespace (net.* only; see loopbackIPv6).
	Sysctls map[string]string
}

// ExecSpec describes one process to run in a container.
type ExecSpec struct {
	Cmd     []string
	User    string
	WorkDir string
	Env     []string
	// Stdin, when set, is copied to the process's standard input, which is
	// closed at its end.
	Stdin io.Reader
	// Stdout and Stderr receive the demultiplexed output; nil discards.
	// They must not block for long: the engine stalls the process while
	// they do.
	Stdout io.Writer
	Stderr io.Writer
}

// ContainerState is the inspected state of a container.
type ContainerState struct {
	Running   bool
	OOMKilled bool
	ExitCode  int
}

// ContainerInfo is one listed container.
type ContainerInfo struct {
	ID string
	// Name is the container's name ("" when the runtime has none): a
	// pooled container's is greenlight-pool-IMAGE-RANDOM.
	Name    string
	Labels  map[string]string
	Created time.Time
	State   string
}
