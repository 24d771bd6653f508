package sandbox

import (
	"time"

	"github.com/greenlight-dev/greenlight/pkg/blob"
)

// Status is the outcome of one step.
type Status int

// Step outcomes, mirroring greenlight.v1.StepStatus.
const (
	StatusUnspecified Status = iota
	StatusOK
	StatusFailed
	StatusTimedOut
	StatusOOMKilled
	StatusCanceled
	StatusSkipped
	StatusError
)

var statusNames = [...]string{"UNSPECIFIED", "OK", "FAILED", "TIMED_OUT", "OOM_KILLED", "CANCELED", "SKIPPED", "ERROR"}

// String returns the status name as in the protobuf enum, without prefix.
func (s Status) String() string {
	if int(s) < len(statusNames) {
		return statusNames[s]
	}
	return "UNKNOWN"
}

// StepResult is what happened to one step.
type StepResult struct {
	Index      int
	Name       string
	Command    string
	Workdir    string
	Image      string
	Status     Status
	ExitCode   int
	StartedAt  time.Time
	FinishedAt time.Time
	Duration   time.Duration
	// LogDigest names the step's stored (capped) output; zero when the step
	// did not run.
	LogDigest blob.Digest
	// Tail is at most TailLines last lines of the output, valid UTF-8.
	Tail string
	// Truncated says the stored log hit the cap.
	Truncated bool
	// OutputBytes counts everything the step printed, stored or not.
	OutputBytes int64
	// Reason says why a step was skipped, canceled, timed out or errored.
	Reason string
	// CacheHit says an install step was satisfied from the dependency cache.
	CacheHit bool
	// CacheNote says why the dependency cache was not used for an install
	// step (the snapshot already holds a cache path) or why an entry was
	// dropped (failed verification or restore); "" otherwise.
	CacheNote string
}

// Platform describes where the commands ran.
type Platform struct {
	OS            string
	Arch          string
	Image         string
	ImageDigest   string
	EngineVersion string
}

// Manifest is the run manifest of the output contract.
type Manifest struct {
	RunID     string
	Start     time.Time
	End       time.Time
	CommitSHA string
	Snapshot  blob.Digest
	Platform  Platform
	// Limits are the limits actually applied (after defaults and clamping).
	Limits Limits
}

// Report is a machine-readable report file a step wrote, as stored.
type Report struct {
	// Step is the index of the step that wrote it.
	Step int
	// Path is its absolute path in the sandbox.
	Path   string
	Digest blob.Digest
}

// Result is the outcome of a run.
type Result struct {
	Manifest Manifest
	Steps    []StepResult
	// Reports are the report files the steps wrote, in step order.
	Reports []Report
	// CombinedLog names the stored log of all steps, with step headers.
	CombinedLog blob.Digest
}
