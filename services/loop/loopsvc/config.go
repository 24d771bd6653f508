package loopsvc

import (
	"errors"
	"fmt"

	"github.com/greenlight-dev/greenlight/pkg/config"
)

// ErrConfig is wrapped by Config.Validate errors.
var ErrConfig = errors.New("invalid loop configuration")

// Config holds the loop's own settings (the gRPC server's are in
// server.Config).
type Config struct {
	// DataDir holds the run database and the blob store.
	DataDir string
	// DiscoveryAddr and ExecutorAddr are the services the loop calls.
	DiscoveryAddr string
	ExecutorAddr  string
}

// DefaultConfig returns the defaults: the user's data directory and the
// default local addresses of discovery and executor.
func DefaultConfig() Config {
	return Config{
		DataDir:       config.DefaultDataDir(),
		DiscoveryAddr: config.DefaultDiscoveryAddr,
		ExecutorAddr:  config.DefaultExecutorAddr,
	}
}

// RegisterFlags binds data-dir, discovery-addr and executor-addr.
func (c *Config) RegisterFlags(fs *config.FlagSet) {
	fs.String(&c.DataDir, "data-dir", "`directory` for the run database and blob store")
	fs.Addr(&c.DiscoveryAddr, "discovery-addr", "discovery service address `host:port`")
	fs.Addr(&c.ExecutorAddr, "executor-addr", "executor service address `host:port`")
}

// Validate reports the first unusable setting.
func (c *Config) Validate() error {
	if c.DataDir == "" {
		return fmt.Errorf("%w: data-dir is empty", ErrConfig)
	}
	return nil
}
