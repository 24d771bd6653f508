package store

import (
	"encoding/binary"
	"time"
)

// Bucket names; see the tree in the package comment.
var (
	rootBucket       = []byte("v1")
	metaBucket       = []byte("meta")
	runsBucket       = []byte("runs")
	byCreatedBucket  = []byte("by_created")
	eventsBucket     = []byte("events")
	patchesBucket    = []byte("patches")
	recordingsBucket = []byte("recordings")
	runOwnersBucket  = []byte("run_owners")
	blobGrantsBucket = []byte("blob_grants")
	schemaKey        = []byte("schema")
)

// schemaVersion is stored in meta/schema; bump it together with rootBucket.
const schemaVersion = "1"

// seqKey encodes an event or recording sequence number.
func seqKey(seq uint64) []byte {
	return binary.BigEndian.AppendUint64(make([]byte, 0, 8), seq)
}

// attemptKey encodes a patch attempt number.
func attemptKey(attempt int32) []byte {
	// Flip the sign bit so that negative attempts (never expected) still sort.
	return binary.BigEndian.AppendUint32(make([]byte, 0, 4), uint32(attempt)^(1<<31))
}

// createdKey builds the by_created index key: creation time then run id, so
// reverse key order is newest first and ties are broken by id.
func createdKey(created time.Time, runID string) []byte {
	k := make([]byte, 0, 8+len(runID))
	// Flipping the sign bit keeps pre-1970 times (negative) before later ones.
	k = binary.BigEndian.AppendUint64(k, uint64(created.UnixNano())^(1<<63))
	return append(k, runID...)
}

// createdKeyParts splits a by_created key; ok is false for a malformed key.
func createdKeyParts(k []byte) (created time.Time, runID string, ok bool) {
	if len(k) <= 8 {
		return time.Time{}, "", false
	}
	ns := int64(binary.BigEndian.Uint64(k[:8]) ^ (1 << 63))
	return time.Unix(0, ns), string(k[8:]), true
}

// statusValue encodes a status for the by_created index.
func statusValue(s int32) []byte {
	return binary.BigEndian.AppendUint32(make([]byte, 0, 4), uint32(s))
}

// statusOf decodes a by_created index value.
func statusOf(v []byte) int32 {
	if len(v) != 4 {
		return 0
	}
	return int32(binary.BigEndian.Uint32(v))
}

// decodeSeq reverses seqKey.
func decodeSeq(k []byte) uint64 {
	if len(k) != 8 {
		return 0
	}
	return binary.BigEndian.Uint64(k)
}
