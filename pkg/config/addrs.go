package config

import (
	"net"
	"strings"
)

// Default listen addresses. Loopback only: binding a public interface is an
// explicit decision (and makes the gateway require a bearer token).
const (
	// DefaultGatewayAddr is the gateway's public gRPC address.
	DefaultGatewayAddr = "127.0.0.1:7070"
	// DefaultGatewayHTTPAddr is the gateway's HTTP address for report pages.
	DefaultGatewayHTTPAddr = "127.0.0.1:7080"
	// DefaultDiscoveryAddr is the discovery service's gRPC address.
	DefaultDiscoveryAddr = "127.0.0.1:7071"
	// DefaultExecutorAddr is the executor service's gRPC address.
	DefaultExecutorAddr = "127.0.0.1:7072"
	// DefaultLoopAddr is the loop service's gRPC address.
	DefaultLoopAddr = "127.0.0.1:7073"
)

// EnvPrefix starts every greenlight environment variable.
const EnvPrefix = "GREENLIGHT"

// ConfigFlag is the flag (and, via the environment, GREENLIGHT_<SERVICE>_CONFIG)
// that names an optional YAML configuration file.
const ConfigFlag = "config"

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
