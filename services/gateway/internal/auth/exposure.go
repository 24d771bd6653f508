package auth

import (
	"errors"
	"fmt"

	"github.com/greenlight-dev/greenlight/pkg/config"
)

// ErrTokenRequired is returned by RequireForExposure when an address other
// than loopback is configured and there is no token.
var ErrTokenRequired = errors.New("a token is required")

// IsLoopback reports whether the listen address addr binds only the
// loopback interface (or is a unix or in-memory listener); see
// config.IsLoopback, which every greenlight listener rule shares.
func IsLoopback(addr string) bool { return config.IsLoopback(addr) }

// Listener is one configured listen address and the flag that set it.
type Listener struct {
	Flag string
	Addr string
}

// RequireForExposure returns ErrTokenRequired, naming the first listener
// that is not loopback, when hasToken is false. Listeners with an empty
// address are off and skipped.
func RequireForExposure(hasToken bool, listeners ...Listener) error {
	if hasToken {
		return nil
	}
	for _, l := range listeners {
		if l.Addr == "" || IsLoopback(l.Addr) {
			continue
		}
		return fmt.Errorf("%w: --%s %s is not a loopback address; set --token, --token-file or GREENLIGHT_GATEWAY_TOKEN",
			ErrTokenRequired, l.Flag, l.Addr)
	}
	return nil
}
