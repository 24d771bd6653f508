package workspace

import (
	"errors"
	"fmt"
)

// Sentinel errors. Every error this package returns about a tar entry or a
// workspace limit wraps one of them, so callers can map them (for example to
// gRPC InvalidArgument) with errors.Is without parsing messages.
var (
	// ErrUnsafeEntry marks an entry that could harm the extractor: an
	// absolute path, a ".." component, a link leaving the root, a device,
	// an entry written through a symlink, a path nested too deep.
	ErrUnsafeEntry = errors.New("unsafe tar entry")
	// ErrTooLarge marks a workspace or archive over a byte limit (total or
	// per file).
	ErrTooLarge = errors.New("workspace too large")
	// ErrTooManyFiles marks a workspace or archive over the entry-count limit.
	ErrTooManyFiles = errors.New("too many files")
	// ErrCompressed marks a compressed stream: greenlight only accepts
	// uncompressed tars, so that nothing ever has to run a decompressor
	// (in particular not one shipped inside a sandbox image).
	ErrCompressed = errors.New("compressed archive: only uncompressed tar is accepted")
	// ErrMalformed marks a stream that is not a well-formed tar archive.
	ErrMalformed = errors.New("malformed tar archive")
	// ErrChanged marks a file that changed while it was being packed.
	ErrChanged = errors.New("file changed while packing")
)

// EntryError describes why one tar entry (or one workspace path, when
// packing) was refused. It wraps one of the sentinel errors above.
type EntryError struct {
	// Name is the entry's path as written in the archive (or the workspace
	// path when packing). It is empty when the header could not be parsed.
	Name string
	// Reason says, for a person, what is wrong with the entry.
	Reason string
	// Index is the 1-based position of the entry in the archive; 0 when
	// unknown.
	Index int
	// Offset is the byte offset at which the entry's headers start; -1 when
	// it does not apply (packing).
	Offset int64
	// Err is the sentinel this error wraps.
	Err error
}

// Error names the entry and the reason.
func (e *EntryError) Error() string {
	if e.Name == "" && e.Index > 0 {
		return fmt.Sprintf("%v: tar entry #%d at byte %d: %s", e.Err, e.Index, e.Offset, e.Reason)
	}
	return fmt.Sprintf("%v: %q: %s", e.Err, e.Name, e.Reason)
}

// Unwrap returns the sentinel, for errors.Is.
func (e *EntryError) Unwrap() error { return e.Err }

// entryErr builds an EntryError without position information.
func entryErr(sentinel error, name, format string, args ...any) *EntryError {
	return &EntryError{Name: name, Reason: fmt.Sprintf(format, args...), Offset: -1, Err: sentinel}
}
