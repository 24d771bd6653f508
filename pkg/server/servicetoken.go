package server

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"strings"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
)

// ServiceTokenKey is the gRPC metadata key that carries the shared service
// token between greenlight's own services. It is not "authorization", so
// the gateway's public bearer token and the internal secret never mix.
const ServiceTokenKey = "x-greenlight-service-token"

// MinServiceTokenLength is the shortest service token accepted.
const MinServiceTokenLength = 16

// Errors of NewServiceToken.
var (
	ErrServiceTokenTooShort = errors.New("service token too short")
	ErrServiceTokenInvalid  = errors.New("service token has characters that cannot be sent in gRPC metadata")
)

// errServiceUnauthenticated is the one answer a refused internal RPC gets,
// whether the token was missing or wrong.
var errServiceUnauthenticated = status.Error(codes.Unauthenticated,
	"unauthenticated: this greenlight service accepts only other greenlight services; "+
		"give the caller the shared service token (--service-token, --service-token-file or GREENLIGHT_<SERVICE>_SERVICE_TOKEN)")

// ServiceToken is the shared secret of greenlight's internal services
// (discovery, executor, loop). A nil *ServiceToken checks nothing.
type ServiceToken struct {
	digest [sha256.Size]byte
}

// NewServiceToken checks secret and returns its ServiceToken; "" gives nil
// (no token). A token must have MinServiceTokenLength printable,
// non-space ASCII characters.
func NewServiceToken(secret string) (*ServiceToken, error) {
	if err := ValidateServiceToken(secret); err != nil || secret == "" {
		return nil, err
	}
	return &ServiceToken{digest: sha256.Sum256([]byte(secret))}, nil
}

// ValidateServiceToken reports why secret cannot be a service token ("" is
// fine: no token).
func ValidateServiceToken(secret string) error {
	if secret == "" {
		return nil
	}
	if len(secret) < MinServiceTokenLength {
		return fmt.Errorf("%w: %d characters, want at least %d (e.g. `openssl rand -hex 32`)",
			ErrServiceTokenTooShort, len(secret), MinServiceTokenLength)
	}
	for _, r := range secret {
		if r <= ' ' || r >= 0x7f {
			return ErrServiceTokenInvalid
		}
	}
	return nil
}

// RandomServiceToken returns a fresh 256-bit token, for a process that runs
// every service itself (the embedded `greenlight serve`).
func RandomServiceToken() string {
	var b [32]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails on supported platforms
	return hex.EncodeToString(b[:])
}

// ReadServiceTokenFile returns the token held in path, surrounding
// whitespace removed; an empty file is an error.
func ReadServiceTokenFile(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	tok := strings.TrimSpace(string(b))
	if tok == "" {
		return "", fmt.Errorf("%s is empty", path)
	}
	return tok, nil
}

// check compares the presented token with the configured one in constant
// time over SHA-256 digests, so neither content nor length leaks. Exactly
// one value must be present.
func (t *ServiceToken) check(md metadata.MD) bool {
	if t == nil {
		return true
	}
	vals := md.Get(ServiceTokenKey)
	if len(vals) != 1 {
		return false
	}
	d := sha256.Sum256([]byte(vals[0]))
	return subtle.ConstantTimeCompare(d[:], t.digest[:]) == 1
}

// healthPrefix names the RPCs open without the token: probes (compose
// health checks, load balancers) need no secret, and health says nothing
// but "serving". Reflection is not open: it describes the API to whoever
// asks.
const healthPrefix = "/grpc.health.v1.Health/"

func serviceAuthExempt(method string) bool { return strings.HasPrefix(method, healthPrefix) }

// Gate refuses every RPC but health without the token, from the call's
// headers, before its request is read.
func (t *ServiceToken) Gate() Gate {
	return func(ctx context.Context, method string, md metadata.MD) (context.Context, error) {
		if !serviceAuthExempt(method) && !t.check(md) {
			return nil, errServiceUnauthenticated
		}
		return ctx, nil
	}
}

// WithServiceToken makes the server require t on every RPC but health.
// Its check is the first gate (see Gate): it runs when the call's headers
// arrive, before its request is read or decoded, so an unauthenticated
// call reaches nothing else. A nil t changes nothing.
func WithServiceToken(t *ServiceToken) Option {
	return func(o *options) { o.serviceToken = t }
}

// DialServiceToken returns a dial option that sends secret as the service
// token on every call of the connection, unary and streaming ("" sends
// nothing).
func DialServiceToken(secret string) grpc.DialOption {
	if secret == "" {
		return grpc.EmptyDialOption{}
	}
	return grpc.WithPerRPCCredentials(serviceCreds(secret))
}

// serviceCreds are per-RPC credentials that do not demand transport
// security: greenlight's internal connections are plaintext (loopback, a
// compose network or in memory), and the token is what authenticates them.
type serviceCreds string

func (c serviceCreds) GetRequestMetadata(context.Context, ...string) (map[string]string, error) {
	return map[string]string{ServiceTokenKey: string(c)}, nil
}

func (serviceCreds) RequireTransportSecurity() bool { return false }
