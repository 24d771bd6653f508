// Package blob is greenlight's content-addressed store (CAS): snapshots, logs
// and artifacts are stored once, named by the sha256 of their bytes plus their
// size, and never change afterwards.
//
// It offers three things with the same method set (Put, PutVerified, PutFile,
// Open, OpenRange, Stat), so callers can depend on a small interface of their
// own and not care whether blobs are local or remote:
//
//   - Store: blobs as files on disk.
//   - NewServer: the greenlight.v1.BlobService gRPC service over a Store.
//   - Client: the same operations over gRPC.
//
// On-disk layout under the store's root:
//
//	ROOT/
//	  sha256/
//	    00/ … ff/                 fan-out by the first two hex digits, made on first use
//	      ab/abcdef…              one read-only file per blob, named by its full hash
//	  tmp/
//	    put-*                     uploads in progress (locked by their writer)
//
// A blob becomes visible only after its bytes were written to a temp file,
// verified, fsynced and renamed into place (then the directory is fsynced), so
// a writer that dies mid-write leaves at most a temp file, never a wrong blob
// under a digest. Temp files whose writer is gone are removed when a Store is
// opened.
package blob
