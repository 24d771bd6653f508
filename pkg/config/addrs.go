package config

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
