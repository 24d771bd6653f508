package zzorig

import "errors"

// Sentinel errors of the package.
var (
	// ErrNotReport means an artifact is not a test report greenlight can read.
	ErrNotReport = errors.New("not a recognized test report")
	// ErrNoLog means the input carried no log reader.
	ErrNoLog = errors.New("no step log")
)
