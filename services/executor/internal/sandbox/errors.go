package sandbox

import "errors"

// Sentinel errors. Every error returned by Runner.Run wraps at most one of
// them, so the gRPC layer maps them to status codes with errors.Is.
var (
	// ErrInvalidRequest marks a request that cannot be run as given (no
	// steps, a bad step name, workdir or environment variable, ...).
	ErrInvalidRequest = errors.New("invalid execution request")
	// ErrInvalidSnapshot marks a snapshot tar that failed validation; the
	// wrapped error names the entry.
	ErrInvalidSnapshot = errors.New("invalid workspace snapshot")
	// ErrSnapshotNotFound marks a snapshot digest that the blob store does
	// not hold.
	ErrSnapshotNotFound = errors.New("snapshot not found")
	// ErrImageNotFound marks a sandbox image that the engine does not have.
	ErrImageNotFound = errors.New("sandbox image not found")
	// ErrEngineUnavailable marks a container engine that did not answer.
	ErrEngineUnavailable = errors.New("container engine unavailable")
	// ErrContainerNotFound marks a container that no longer exists.
	ErrContainerNotFound = errors.New("container not found")
	// ErrClosed marks a call on a Runner or Pool that is shutting down.
	ErrClosed = errors.New("executor is shutting down")
)

// ErrNoStepRunner marks an image without a usable greenlight-runner while
// the executor is configured to require one (StepRunnerAgent).
var ErrNoStepRunner = errors.New("sandbox image has no step runner")
