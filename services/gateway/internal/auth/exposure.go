package auth

import (
	"errors"
	"fmt"
	"net"
	"strings"
)

// ErrTokenRequired is returned by RequireForExposure when an address other
// than loopback is configured and there is no token.
var ErrTokenRequired = errors.New("a token is required")

// localPrefixes mark listeners that are not on the network at all: unix
// sockets and the in-memory listeners of the embedded mode.
var localPrefixes = []string{"unix:", "unix-abstract:", "bufconn:"}

// IsLoopback reports whether the listen address addr (host:port) binds only
// the loopback interface. An empty host, a wildcard (0.0.0.0, ::), any other
// IP and any host name but "localhost" count as exposed: the rule is about
// what was configured, not about what a name resolves to today. Unix and
// in-memory listeners ("unix:…", "bufconn:…") are local.
func IsLoopback(addr string) bool {
	for _, p := range localPrefixes {
		if strings.HasPrefix(addr, p) {
			return true
		}
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		host = addr
	}
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

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
