// Package workspace turns a directory into a greenlight snapshot and back.
//
// A snapshot is an uncompressed tar, packed deterministically (Pack): the
// same tree always gives the same bytes and so the same sha256 digest, the
// snapshot's identity in the blob store. In a git work tree the files are
// the ones git would commit (tracked plus untracked-not-ignored); elsewhere
// the directory is walked minus VCS metadata, dependency trees, caches,
// virtualenvs and build outputs, honouring .gitignore files.
//
// A snapshot received from elsewhere is hostile until checked. Validate
// reads a whole stream; NewValidatingReader checks headers while passing
// the bytes through unchanged, so the executor can stream a snapshot into a
// container without buffering it, and the container never receives a byte
// of a refused entry's header. Unpack extracts a checked stream into a
// directory without ever following a symlink. Every refusal is an
// *EntryError naming the entry and wrapping ErrUnsafeEntry, ErrTooLarge,
// ErrTooManyFiles or ErrMalformed; compressed input is refused with
// ErrCompressed, because decompressing would mean running a decompressor.
package workspace
