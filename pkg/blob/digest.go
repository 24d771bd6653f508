package blob

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// hashLen is the length of a lowercase hex sha256.
const hashLen = 2 * sha256.Size

// digestPrefix starts the text form of a Digest.
const digestPrefix = "sha256:"

// Digest names a blob: the lowercase hex sha256 of its bytes and their count.
type Digest struct {
	// Hash is the lowercase hex sha256 of the content (64 characters).
	Hash string
	// Size is the exact size of the content in bytes.
	Size int64
}

// DigestOf computes the digest of b.
func DigestOf(b []byte) Digest {
	sum := sha256.Sum256(b)
	return Digest{Hash: hex.EncodeToString(sum[:]), Size: int64(len(b))}
}

// Validate reports an ErrInvalidDigest that names the problem when d cannot
// name a blob.
func (d Digest) Validate() error {
	if len(d.Hash) != hashLen {
		return fmt.Errorf("%w: hash must be %d lowercase hex characters, got %d characters %q",
			ErrInvalidDigest, hashLen, len(d.Hash), abbreviate(d.Hash))
	}
	for i := 0; i < len(d.Hash); i++ {
		if !isLowerHex(d.Hash[i]) {
			return fmt.Errorf("%w: hash must be lowercase hex, got %q at position %d",
				ErrInvalidDigest, d.Hash[i], i)
		}
	}
	if d.Size < 0 {
		return fmt.Errorf("%w: size must not be negative, got %d", ErrInvalidDigest, d.Size)
	}
	return nil
}

// String renders d as "sha256:<hex>/<size>", the form ParseDigest reads.
func (d Digest) String() string {
	return digestPrefix + d.Hash + "/" + strconv.FormatInt(d.Size, 10)
}

// ParseDigest reads the "sha256:<hex>/<size>" form written by String.
func ParseDigest(s string) (Digest, error) {
	rest, ok := strings.CutPrefix(s, digestPrefix)
	if !ok {
		return Digest{}, fmt.Errorf("%w: %q does not start with %q", ErrInvalidDigest, abbreviate(s), digestPrefix)
	}
	hash, sizeText, ok := strings.Cut(rest, "/")
	if !ok {
		return Digest{}, fmt.Errorf("%w: %q lacks the /<size> suffix", ErrInvalidDigest, abbreviate(s))
	}
	size, err := strconv.ParseInt(sizeText, 10, 64)
	if err != nil {
		return Digest{}, fmt.Errorf("%w: size %q is not a number", ErrInvalidDigest, sizeText)
	}
	d := Digest{Hash: hash, Size: size}
	return d, d.Validate()
}

// Proto converts d to its protobuf form.
func (d Digest) Proto() *glv1.Digest {
	return &glv1.Digest{Hash: d.Hash, SizeBytes: d.Size}
}

// DigestFromProto converts and validates a protobuf digest; nil is an
// ErrInvalidDigest.
func DigestFromProto(p *glv1.Digest) (Digest, error) {
	if p == nil {
		return Digest{}, fmt.Errorf("%w: digest is missing", ErrInvalidDigest)
	}
	d := Digest{Hash: p.GetHash(), Size: p.GetSizeBytes()}
	return d, d.Validate()
}

func isLowerHex(c byte) bool {
	return ('0' <= c && c <= '9') || ('a' <= c && c <= 'f')
}

// abbreviate keeps error messages readable when a client sends garbage.
func abbreviate(s string) string {
	const maxLen = 80
	if len(s) <= maxLen {
		return s
	}
	return s[:maxLen] + "…"
}
