package auth

import (
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
)

// MinTokenLength is the shortest token accepted: shorter secrets are too easy
// to guess for a door that may face a network.
const MinTokenLength = 16

// ErrTokenTooShort is returned by New for a token under MinTokenLength.
var ErrTokenTooShort = errors.New("token too short")

// ErrTokenInvalid is returned by New for a token with characters that cannot
// travel in a header (whitespace, control characters).
var ErrTokenInvalid = errors.New("token has characters that cannot be sent in a header")

// cookieLabel domain-separates the cookie value from the token, so a cookie
// read off a browser cannot be replayed as a bearer token on the gRPC API.
const cookieLabel = "greenlight-gateway http session v1"

// Token is the configured secret. The zero value and nil mean "no token":
// everything is allowed (loopback-only deployments).
type Token struct {
	digest [sha256.Size]byte
	cookie [sha256.Size]byte
	set    bool
}

// New returns the Token for secret; an empty secret gives a disabled Token.
func New(secret string) (*Token, error) {
	if secret == "" {
		return &Token{}, nil
	}
	if len(secret) < MinTokenLength {
		return nil, fmt.Errorf("%w: %d characters, want at least %d (e.g. `openssl rand -hex 32`)",
			ErrTokenTooShort, len(secret), MinTokenLength)
	}
	for _, r := range secret {
		if r <= ' ' || r == 0x7f {
			return nil, ErrTokenInvalid
		}
	}
	t := &Token{digest: sha256.Sum256([]byte(secret)), set: true}
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(cookieLabel))
	copy(t.cookie[:], mac.Sum(nil))
	return t, nil
}

// AnonymousIdentity is the identity of clients of a gateway without a token
// (which listens on loopback only).
const AnonymousIdentity = "anonymous@loopback"

// Identity names the clients that present this token: "token:" and the
// first 12 hex digits of the token's sha256 (a fingerprint that does not
// reveal the token), or AnonymousIdentity without a token. It is the owner
// the gateway asks the loop to run for, so dependency-cache entries are
// never shared across tokens.
func (t *Token) Identity() string {
	if !t.Enabled() {
		return AnonymousIdentity
	}
	return "token:" + t.fingerprint()
}

// Enabled reports whether requests must present the token.
func (t *Token) Enabled() bool { return t != nil && t.set }

// Check reports whether presented is the token, in constant time. A
// disabled Token accepts anything.
func (t *Token) Check(presented string) bool {
	if !t.Enabled() {
		return true
	}
	d := sha256.Sum256([]byte(presented))
	return subtle.ConstantTimeCompare(d[:], t.digest[:]) == 1
}

// CheckBearer checks an Authorization value of the form "Bearer <token>"
// (the scheme is case-insensitive).
func (t *Token) CheckBearer(header string) bool {
	if !t.Enabled() {
		return true
	}
	scheme, cred, ok := strings.Cut(strings.TrimSpace(header), " ")
	if !ok || !strings.EqualFold(scheme, "bearer") {
		return false
	}
	return t.Check(strings.TrimSpace(cred))
}

// CookieValue is the browser session cookie's value: an HMAC of a fixed
// label keyed by the token.
func (t *Token) CookieValue() string { return hex.EncodeToString(t.cookie[:]) }

// CheckCookie reports whether v is CookieValue, in constant time.
func (t *Token) CheckCookie(v string) bool {
	if !t.Enabled() {
		return true
	}
	got, err := hex.DecodeString(v)
	if err != nil || len(got) != sha256.Size {
		return false
	}
	return subtle.ConstantTimeCompare(got, t.cookie[:]) == 1
}
