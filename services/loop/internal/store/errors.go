package store

import "errors"

// Sentinel errors; every error the store returns wraps at most one of them.
var (
	// ErrNotFound means the run does not exist.
	ErrNotFound = errors.New("not found")
	// ErrAlreadyExists means a run with that id is already stored.
	ErrAlreadyExists = errors.New("already exists")
	// ErrInvalidArgument means the caller passed something the store cannot
	// accept; the message says what.
	ErrInvalidArgument = errors.New("invalid argument")
	// ErrFinished means the run already ended: no event may follow RunFinished.
	ErrFinished = errors.New("run already finished")
	// ErrLocked means another process holds the store file.
	ErrLocked = errors.New("run store locked")
	// ErrSchema means the file was written with a schema this code cannot read.
	ErrSchema = errors.New("unsupported run store schema")
	// ErrEventCap means a droppable event (a live log chunk) was not stored
	// because its run reached the per-run event storage cap.
	ErrEventCap = errors.New("run event storage cap reached")
	// ErrClosed means the store was closed.
	ErrClosed = errors.New("run store closed")
)
