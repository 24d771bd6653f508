package sandbox

import "time"

// Stream identifies where a log chunk came from.
type Stream int

// Streams of a log chunk.
const (
	StreamStdout Stream = iota + 1
	StreamStderr
	// StreamSystem carries greenlight's own messages (skips, kills, cache).
	StreamSystem
)

// Event is one thing that happened during a run: *StepStarted, *LogChunk or
// *StepFinished.
type Event interface{ event() }

// Sink receives a run's events in order, from one goroutine at a time. An
// error stops further delivery (the run goes on and is canceled by its
// context when the caller is gone).
type Sink func(Event) error

// StepStarted says a step began.
type StepStarted struct {
	Index int
	Step  Step
	Time  time.Time
}

// LogChunk is live output of a step. Data is always valid UTF-8; Offset is
// the position of its first byte in the step's raw combined output. Chunks
// may be dropped under an output flood (the gap shows in Offset); the stored
// log is complete up to its cap.
type LogChunk struct {
	Index  int
	Step   string
	Stream Stream
	Data   string
	Offset int64
}

// StepFinished carries a step's result.
type StepFinished struct {
	Index  int
	Result StepResult
}

func (*StepStarted) event()  {}
func (*LogChunk) event()     {}
func (*StepFinished) event() {}
