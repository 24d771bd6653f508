package auth

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
)

// ErrDuplicateToken is returned by NewKeys when one secret is configured
// twice (it would not say whose it is).
var ErrDuplicateToken = errors.New("the same token is configured twice")

// Identity is who an authenticated request is for: the owner of the runs
// it starts and the only one, operators aside, who sees them.
type Identity struct {
	// Owner is "token:<fingerprint>" for a tenant token,
	// "operator:<fingerprint>" for an operator token, AnonymousIdentity
	// without any token.
	Owner string
	// Operator sees every owner's runs, events, results and blobs.
	Operator bool
}

// identityKey carries the Identity of an authenticated request.
type identityKey struct{}

// WithIdentity returns ctx carrying id.
func WithIdentity(ctx context.Context, id Identity) context.Context {
	return context.WithValue(ctx, identityKey{}, id)
}

// IdentityFrom returns the identity Keys attached to a request's context.
func IdentityFrom(ctx context.Context) (Identity, bool) {
	id, ok := ctx.Value(identityKey{}).(Identity)
	return id, ok
}

// key is one configured token and whose it is.
type key struct {
	tok *Token
	id  Identity
}

// Keys are the gateway's bearer tokens: tenant tokens, each its own owner,
// and operator tokens, which see everything. With none at all every
// request is AnonymousIdentity (a loopback-only gateway). A nil *Keys has
// no token.
type Keys struct {
	keys []key
}

// NewKeys checks every secret (see New) and returns the keys; empty
// strings are skipped.
func NewKeys(tenants, operators []string) (*Keys, error) {
	k := &Keys{}
	seen := map[string]bool{}
	add := func(secret string, operator bool) error {
		if secret == "" {
			return nil
		}
		if seen[secret] {
			return ErrDuplicateToken
		}
		seen[secret] = true
		tok, err := New(secret)
		if err != nil {
			return err
		}
		prefix := "token:"
		if operator {
			prefix = "operator:"
		}
		k.keys = append(k.keys, key{tok: tok, id: Identity{Owner: prefix + tok.fingerprint(), Operator: operator}})
		return nil
	}
	for _, s := range tenants {
		if err := add(s, false); err != nil {
			return nil, fmt.Errorf("token: %w", err)
		}
	}
	for _, s := range operators {
		if err := add(s, true); err != nil {
			return nil, fmt.Errorf("operator token: %w", err)
		}
	}
	return k, nil
}

// Enabled reports whether requests must present a token.
func (k *Keys) Enabled() bool { return k != nil && len(k.keys) > 0 }

// anonymous is the identity of every request when no token is configured.
var anonymous = Identity{Owner: AnonymousIdentity}

// match finds the key whose check accepts, looking at every key (so the
// time taken does not say which one matched, or how many there are before
// it). A disabled Keys accepts anything as anonymous.
func (k *Keys) match(check func(*Token) bool) (Identity, bool) {
	if !k.Enabled() {
		return anonymous, true
	}
	found := -1
	for i, e := range k.keys {
		if check(e.tok) {
			found = i
		}
	}
	if found < 0 {
		return Identity{}, false
	}
	return k.keys[found].id, true
}

// Bearer authenticates an Authorization value "Bearer <token>".
func (k *Keys) Bearer(header string) (Identity, bool) {
	return k.match(func(t *Token) bool { return t.CheckBearer(header) })
}

// Secret authenticates a bare token (the ?token= of a browser).
func (k *Keys) Secret(secret string) (Identity, bool) {
	return k.match(func(t *Token) bool { return t.Check(secret) })
}

// Cookie authenticates a session cookie value.
func (k *Keys) Cookie(v string) (Identity, bool) {
	return k.match(func(t *Token) bool { return t.CheckCookie(v) })
}

// cookieFor returns the session cookie value of the key whose identity is
// id.
func (k *Keys) cookieFor(id Identity) string {
	for _, e := range k.keys {
		if e.id == id {
			return e.tok.CookieValue()
		}
	}
	return ""
}

// Identities lists the configured identities (for logs: fingerprints
// only, never a secret).
func (k *Keys) Identities() []string {
	if !k.Enabled() {
		return []string{AnonymousIdentity}
	}
	out := make([]string, 0, len(k.keys))
	for _, e := range k.keys {
		out = append(out, e.id.Owner)
	}
	return out
}

// fingerprint is the first 12 hex digits of the token's sha256.
func (t *Token) fingerprint() string { return hex.EncodeToString(t.digest[:6]) }

// ParseTokenFile splits a token file into its tokens: one per line,
// surrounding whitespace ignored, blank lines and lines starting with #
// skipped.
func ParseTokenFile(content string) []string {
	var out []string
	for _, line := range strings.Split(content, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		out = append(out, line)
	}
	return out
}
