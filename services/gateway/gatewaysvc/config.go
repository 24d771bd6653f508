package gatewaysvc

import (
	"github.com/greenlight-dev/greenlight/pkg/config"
)

// Config holds the gateway's own settings (the gRPC server's are in
// server.Config).
type Config struct {
	// LoopAddr is the loop service the gateway proxies to.
	LoopAddr string
	// HTTPAddr serves the human report pages.
	HTTPAddr string
}

// DefaultConfig returns the defaults: the local loop and the default report
// address.
func DefaultConfig() Config {
	return Config{
		LoopAddr: config.DefaultLoopAddr,
		HTTPAddr: config.DefaultGatewayHTTPAddr,
	}
}

// RegisterFlags binds loop-addr and http-addr.
func (c *Config) RegisterFlags(fs *config.FlagSet) {
	fs.Addr(&c.LoopAddr, "loop-addr", "loop service address `host:port`")
	fs.Addr(&c.HTTPAddr, "http-addr", "HTTP listen address for report pages `host:port`")
}

// Validate reports the first unusable setting. Addresses are already checked
// while parsing.
func (c *Config) Validate() error { return nil }
