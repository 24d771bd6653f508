package store

import (
	"crypto/rand"
	"time"
)

// idAlphabet is lowercase RFC 4648 base32: unambiguous in logs and URLs.
const idAlphabet = "abcdefghijklmnopqrstuvwxyz234567"

// NewRunID returns a new run id such as "r_20261122T042015_k3q9x7ma": the UTC
// creation second makes ids sort by time and readable at a glance; 40 random
// bits make collisions within one second negligible (CreateRun still refuses
// a duplicate with ErrAlreadyExists).
func NewRunID(now time.Time) string {
	var raw [8]byte
	_, _ = rand.Read(raw[:]) // crypto/rand.Read never fails on supported platforms.
	b := make([]byte, 0, 2+15+1+8)
	b = append(b, "r_"...)
	b = now.UTC().AppendFormat(b, "20060102T150405")
	b = append(b, '_')
	for _, r := range raw {
		b = append(b, idAlphabet[r&31])
	}
	return string(b)
}
