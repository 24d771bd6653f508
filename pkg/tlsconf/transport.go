package tlsconf

import (
	"errors"
	"fmt"

	"github.com/greenlight-dev/greenlight/pkg/config"
)

// Mode is a client's choice of transport.
type Mode int

const (
	// Auto uses TLS for every host but loopback and unix sockets.
	Auto Mode = iota
	// TLS always uses TLS (--tls, or any TLS file given).
	TLS
	// Plaintext never does (--plaintext): for a gateway on a trusted
	// network path; a token is still refused off loopback.
	Plaintext
)

// ErrTokenInClear is returned by UseTLS for a plaintext connection that
// would carry a bearer token off loopback, where anyone on the path could
// read it.
var ErrTokenInClear = errors.New("refusing to send the token in clear")

// UseTLS decides whether a client dialing addr uses TLS. Loopback (and
// unix sockets) default to plaintext because that is how `greenlight
// serve` listens by default and nobody else sees those bytes; any other
// host defaults to TLS, since a token must not cross a network in clear.
// What counts as loopback is config.IsLoopback: the literal host, never
// what a name resolves to.
func UseTLS(addr string, mode Mode, withToken bool) (bool, error) {
	local := config.IsLoopback(addr)
	switch mode {
	case TLS:
		return true, nil
	case Plaintext:
		if withToken && !local {
			return false, fmt.Errorf("%w to %s, which is not loopback", ErrTokenInClear, addr)
		}
		return false, nil
	}
	return !local, nil
}
