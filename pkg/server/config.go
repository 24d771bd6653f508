package server

import (
	"errors"
	"fmt"
	"time"

	"github.com/greenlight-dev/greenlight/pkg/config"
)

// Defaults for Config.
const (
	// DefaultMaxMsgBytes caps one gRPC message in either direction. Snapshot
	// and log bytes travel as chunked streams, so this bounds a single chunk
	// or a structured result, not a whole upload.
	DefaultMaxMsgBytes = 16 << 20
	// DefaultShutdownGrace is how long GracefulStop may wait for in-flight
	// RPCs before the server stops hard.
	DefaultShutdownGrace = 10 * time.Second
	// DefaultDrainDelay is how long the server keeps accepting RPCs after
	// health turned NOT_SERVING, so that health-checking clients move away
	// before connections are refused.
	DefaultDrainDelay = time.Second
)

// Log formats accepted by Config.LogFormat.
const (
	LogFormatAuto    = "auto"    // console on a terminal, JSON otherwise
	LogFormatJSON    = "json"    // one JSON object per line
	LogFormatConsole = "console" // human-readable, colored levels
)

// ErrConfig is wrapped by Config.Validate errors.
var ErrConfig = errors.New("invalid server configuration")

// Config holds the settings shared by every service's gRPC server.
type Config struct {
	// Name is the service name ("loop", "gateway", ...) used in logs.
	Name string
	// Addr is the listen address (host:port) for ListenAndServe.
	Addr string
	// MaxRecvMsgBytes and MaxSendMsgBytes cap one message; larger ones fail
	// with codes.ResourceExhausted.
	MaxRecvMsgBytes int
	MaxSendMsgBytes int
	// ShutdownGrace bounds GracefulStop; after it the server stops hard.
	ShutdownGrace time.Duration
	// DrainDelay is the pause between NOT_SERVING and GracefulStop (0 in tests).
	DrainDelay time.Duration
	// LogFormat is one of LogFormatAuto, LogFormatJSON, LogFormatConsole.
	LogFormat string
	// LogLevel is a zap level name: debug, info, warn, error.
	LogLevel string

	// ServiceToken is the shared secret of greenlight's internal services.
	// An internal listener requires it on every RPC but health, and it is
	// mandatory when Addr is not loopback; clients built from this config
	// send it. Empty: no token.
	ServiceToken string
	// ServiceTokenFile holds ServiceToken (surrounding whitespace ignored);
	// it wins over ServiceToken.
	ServiceTokenFile string
	// Public marks greenlight's public door (the gateway): its listener
	// authenticates clients its own way, so the service token is neither
	// required nor checked on it, only sent to the services it calls.
	Public bool
}

// DefaultConfig returns the defaults for a service listening on addr.
func DefaultConfig(name, addr string) Config {
	return Config{
		Name:            name,
		Addr:            addr,
		MaxRecvMsgBytes: DefaultMaxMsgBytes,
		MaxSendMsgBytes: DefaultMaxMsgBytes,
		ShutdownGrace:   DefaultShutdownGrace,
		DrainDelay:      DefaultDrainDelay,
		LogFormat:       LogFormatAuto,
		LogLevel:        "info",
	}
}

// RegisterFlags binds the fields to flags (and so to GREENLIGHT_<SERVICE>_*
// environment variables and config file keys): addr, max-recv-msg-bytes,
// max-send-msg-bytes, shutdown-grace, drain-delay, log-format, log-level.
func (c *Config) RegisterFlags(fs *config.FlagSet) {
	fs.Addr(&c.Addr, "addr", "gRPC listen address `host:port`")
	fs.Bytes(&c.MaxRecvMsgBytes, "max-recv-msg-bytes", "largest gRPC message accepted, a `size` such as 16MiB")
	fs.Bytes(&c.MaxSendMsgBytes, "max-send-msg-bytes", "largest gRPC message sent, a `size` such as 16MiB")
	fs.Duration(&c.ShutdownGrace, "shutdown-grace", "how long in-flight RPCs may run after shutdown starts (a `duration`)")
	fs.Duration(&c.DrainDelay, "drain-delay", "pause between health NOT_SERVING and refusing new RPCs (a `duration`)")
	fs.Enum(&c.LogFormat, "log-format", []string{LogFormatAuto, LogFormatJSON, LogFormatConsole}, "log encoding `format`")
	fs.Enum(&c.LogLevel, "log-level", []string{"debug", "info", "warn", "error"}, "minimum log `level`")
	use := "shared `secret` of greenlight's internal services: required by this listener (health excepted; mandatory when --addr is not loopback) and sent to the services this one calls"
	if c.Public {
		use = "shared `secret` of greenlight's internal services, sent to the loop (clients use --token)"
	}
	fs.String(&c.ServiceToken, "service-token", use)
	fs.String(&c.ServiceTokenFile, "service-token-file", "`file` holding the service token (wins over --service-token)")
}

// loadServiceTokenFile reads ServiceTokenFile into ServiceToken.
func (c *Config) loadServiceTokenFile() error {
	if c.ServiceTokenFile == "" {
		return nil
	}
	tok, err := ReadServiceTokenFile(c.ServiceTokenFile)
	if err != nil {
		return fmt.Errorf("%w: service-token-file: %w", ErrConfig, err)
	}
	c.ServiceToken = tok
	return nil
}

// validateServiceToken checks the token and refuses an internal listener
// off loopback without one: it would serve the Docker-holding executor or
// the run store to anyone on the network.
func (c Config) validateServiceToken() error {
	if err := ValidateServiceToken(c.ServiceToken); err != nil {
		return fmt.Errorf("%w: service-token: %w", ErrConfig, err)
	}
	if c.Public || c.ServiceToken != "" || config.IsLoopback(c.Addr) {
		return nil
	}
	return fmt.Errorf("%w: --addr %s is not a loopback address, so this internal service requires the shared service token: set --service-token, --service-token-file or %s",
		ErrConfig, c.Addr, config.NewFlagSet(c.Name).EnvVar("service-token"))
}

// Validate reports the first unusable setting, wrapping ErrConfig.
func (c Config) Validate() error {
	switch {
	case c.Name == "":
		return fmt.Errorf("%w: empty service name", ErrConfig)
	case config.ValidateAddr(c.Addr) != nil:
		return fmt.Errorf("%w: addr: %w", ErrConfig, config.ValidateAddr(c.Addr))
	case c.MaxRecvMsgBytes <= 0 || c.MaxSendMsgBytes <= 0:
		return fmt.Errorf("%w: message size limits must be positive", ErrConfig)
	case c.ShutdownGrace < 0 || c.DrainDelay < 0:
		return fmt.Errorf("%w: negative shutdown durations", ErrConfig)
	}
	if err := c.validateServiceToken(); err != nil {
		return err
	}
	if _, err := parseLevel(c.LogLevel); err != nil {
		return fmt.Errorf("%w: log-level: %w", ErrConfig, err)
	}
	if _, err := resolveFormat(c.LogFormat, nil); err != nil {
		return fmt.Errorf("%w: log-format: %w", ErrConfig, err)
	}
	return nil
}
