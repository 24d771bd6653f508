package toolchain

// LineParser reads a step's log one line at a time.
type LineParser interface {
	// Feed offers one line (without its newline) found at byte offset off.
	Feed(text []byte, off int64)
	// Finish is called after the last line.
	Finish()
}

// Status is a test's outcome.
type Status int

// Test outcomes.
const (
	Passed Status = iota + 1
	Failed
	Skipped
	Errored
)

// Test is one outcome line of a runner.
type Test struct {
	ID     string
	Name   string
	Status Status
	Offset int64
}

// Counts are the totals a runner printed itself.
type Counts struct {
	Passed, Failed, Skipped int
}

// Frame is one location of a failure, innermost first.
type Frame struct {
	File   string
	Line   int
	Column int
	Func   string
	// Project is true for the project's own code (set by the Recorder).
	Project bool
}

// Failure is what a runner printed about one failing test.
type Failure struct {
	Message string
	Frames  []Frame
	// Assertion says the test failed an assertion (not an error or panic).
	Assertion bool
}

// Recorder receives what a pack's parser found. It bounds what it keeps,
// so a parser need not.
type Recorder interface {
	// Test records one outcome.
	Test(t Test)
	// Summary records totals the runner printed (they win over counting).
	Summary(c Counts)
	// Fail attaches details to the failing record of test id.
	Fail(id string, f Failure)
	// Frame resolves a printed location to a frame, telling project code
	// from libraries.
	Frame(file string, line, column int, fn string) Frame
	// ParseFrame recognises a stack-frame line of any common format.
	ParseFrame(text []byte) (Frame, bool)
	// MaxMessageBytes is how much of a failure message is kept.
	MaxMessageBytes() int
}
