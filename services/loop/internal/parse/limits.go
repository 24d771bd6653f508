package parse

// Limits bound the memory a parse may use, independent of the log size.
type Limits struct {
	// MaxLineBytes is the longest line kept; the rest of a longer line is
	// skipped (a 20 MB line costs MaxLineBytes of memory, not 20 MB).
	MaxLineBytes int
	// MaxTests is how many non-failing test records are kept; the rest are counted only.
	MaxTests int
	// MaxInventory is how many test ids and outcomes are listed in a
	// step's inventory (every counted test, records kept or not).
	MaxInventory int
	// MaxFailures is how many failing test records and failures are kept.
	MaxFailures int
	// MaxMessageBytes caps one test's or failure's message.
	MaxMessageBytes int
	// MaxTestOutputBytes caps the output buffered for one running test (go test -json).
	MaxTestOutputBytes int
	// MaxBufferedBytes caps all test output buffered at once.
	MaxBufferedBytes int
	// MaxFrames caps the frames kept per failure.
	MaxFrames int
	// MaxArtifactBytes caps what is read from one artifact (JUnit XML, JSON report).
	MaxArtifactBytes int64
}

// DefaultLimits are sized for a few MiB of memory per parse.
func DefaultLimits() Limits {
	return Limits{
		MaxLineBytes:       1 << 20,
		MaxTests:           2000,
		MaxInventory:       200000,
		MaxFailures:        200,
		MaxMessageBytes:    4 << 10,
		MaxTestOutputBytes: 16 << 10,
		MaxBufferedBytes:   8 << 20,
		MaxFrames:          20,
		MaxArtifactBytes:   64 << 20,
	}
}

// withDefaults fills zero fields from DefaultLimits.
func (l Limits) withDefaults() Limits {
	d := DefaultLimits()
	if l.MaxLineBytes <= 0 {
		l.MaxLineBytes = d.MaxLineBytes
	}
	if l.MaxTests <= 0 {
		l.MaxTests = d.MaxTests
	}
	if l.MaxInventory <= 0 {
		l.MaxInventory = d.MaxInventory
	}
	if l.MaxFailures <= 0 {
		l.MaxFailures = d.MaxFailures
	}
	if l.MaxMessageBytes <= 0 {
		l.MaxMessageBytes = d.MaxMessageBytes
	}
	if l.MaxTestOutputBytes <= 0 {
		l.MaxTestOutputBytes = d.MaxTestOutputBytes
	}
	if l.MaxBufferedBytes <= 0 {
		l.MaxBufferedBytes = d.MaxBufferedBytes
	}
	if l.MaxFrames <= 0 {
		l.MaxFrames = d.MaxFrames
	}
	if l.MaxArtifactBytes <= 0 {
		l.MaxArtifactBytes = d.MaxArtifactBytes
	}
	return l
}
