package engine

import "errors"

// Sentinel errors; the loop service maps them to gRPC codes in one place.
var (
	// ErrInvalidArgument means the request cannot be served as asked; the
	// message says what to change.
	ErrInvalidArgument = errors.New("invalid argument")
	// ErrPermissionDenied means the request asks for something the
	// server's configuration does not offer it (a provider profile that
	// does not exist); the message names what is offered.
	ErrPermissionDenied = errors.New("permission denied")
	// ErrClosed means the engine is shutting down and takes no new runs.
	ErrClosed = errors.New("engine closed")
	// ErrGaveUp means the patch provider has no (further) patch to offer.
	ErrGaveUp = errors.New("patch provider gave up")
	// errInfra marks a failure of greenlight's own machinery (discovery,
	// executor, blob store): the run ends ERROR, never FAIL.
	errInfra = errors.New("infrastructure error")
)
