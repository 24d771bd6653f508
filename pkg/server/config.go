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
	if _, err := parseLevel(c.LogLevel); err != nil {
		return fmt.Errorf("%w: log-level: %w", ErrConfig, err)
	}
	if _, err := resolveFormat(c.LogFormat, nil); err != nil {
		return fmt.Errorf("%w: log-format: %w", ErrConfig, err)
	}
	return nil
}
