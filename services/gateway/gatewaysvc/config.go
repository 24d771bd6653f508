package gatewaysvc

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/greenlight-dev/greenlight/pkg/config"
	"github.com/greenlight-dev/greenlight/services/gateway/internal/auth"
	"github.com/greenlight-dev/greenlight/services/gateway/internal/fanout"
)

// ErrConfig is wrapped by Config.Validate errors.
var ErrConfig = errors.New("invalid gateway configuration")

// Defaults for Config.
const (
	// DefaultMaxUploadBytes caps one BlobService.Write stream at the gateway
	// (the loop's blob store has its own, larger cap).
	DefaultMaxUploadBytes = 1 << 30
	// DefaultRateLimit is the sustained requests per second per client IP.
	DefaultRateLimit = 50
	// DefaultRateBurst is the burst per client IP.
	DefaultRateBurst = 200
)

// Config holds the gateway's own settings (the gRPC server's are in
// server.Config).
type Config struct {
	// LoopAddr is the loop service the gateway proxies to.
	LoopAddr string
	// HTTPAddr serves the human report pages; empty turns HTTP off.
	HTTPAddr string
	// GRPCAddr is the gRPC listen address, used only for the token rule.
	// The binary fills it from --addr; an embedding program sets it.
	GRPCAddr string

	// Token is the bearer token clients must present; empty means none,
	// which is allowed only when every listener is on loopback.
	Token string
	// TokenFile holds the token (surrounding whitespace ignored); it wins
	// over Token.
	TokenFile string

	// MaxUploadBytes caps the bytes of one BlobService.Write stream.
	MaxUploadBytes int
	// RateLimit is requests per second per client IP (0 turns limiting
	// off); RateBurst is the bucket size.
	RateLimit int
	RateBurst int

	// WatchWindow, WatchWindowBytes and WatchStallTimeout tune the event
	// fan-out (see package fanout).
	WatchWindow       int
	WatchWindowBytes  int
	WatchStallTimeout time.Duration

	// addrFlag is the server's --addr flag, read by Validate.
	addrFlag *flag.Flag
}

// DefaultConfig returns the defaults: the local loop, the default report
// address, no token (loopback only), 1 GiB uploads, 50 req/s per client.
func DefaultConfig() Config {
	return Config{
		LoopAddr:          config.DefaultLoopAddr,
		HTTPAddr:          config.DefaultGatewayHTTPAddr,
		GRPCAddr:          config.DefaultGatewayAddr,
		MaxUploadBytes:    DefaultMaxUploadBytes,
		RateLimit:         DefaultRateLimit,
		RateBurst:         DefaultRateBurst,
		WatchWindow:       fanout.DefaultWindow,
		WatchWindowBytes:  fanout.DefaultWindowBytes,
		WatchStallTimeout: fanout.DefaultStallTimeout,
	}
}

// RegisterFlags binds the settings (GREENLIGHT_GATEWAY_* variables, config
// file keys). Register the server's flags first: Validate reads --addr.
func (c *Config) RegisterFlags(fs *config.FlagSet) {
	fs.Addr(&c.LoopAddr, "loop-addr", "loop service address `host:port`")
	fs.String(&c.HTTPAddr, "http-addr", "HTTP listen address for report pages `host:port` (empty: no HTTP)")
	fs.String(&c.Token, "token", "bearer `token` clients must send; required unless every listener is on loopback")
	fs.String(&c.TokenFile, "token-file", "`file` holding the bearer token (wins over --token)")
	fs.Bytes(&c.MaxUploadBytes, "max-upload-bytes", "largest BlobService.Write upload, a `size` such as 1GiB")
	fs.Int(&c.RateLimit, "rate-limit", "requests per second per client IP (0: unlimited)")
	fs.Int(&c.RateBurst, "rate-burst", "burst of requests per client IP")
	fs.Int(&c.WatchWindow, "watch-window", "events kept per watched run for late and slow watchers")
	fs.Bytes(&c.WatchWindowBytes, "watch-window-bytes", "bytes kept per watched run, a `size`")
	fs.Duration(&c.WatchStallTimeout, "watch-stall-timeout", "how long a stalled watcher may hold back others before it is dropped (a `duration`)")
	c.addrFlag = fs.Std().Lookup("addr")
}

// Validate checks the settings, loads TokenFile into Token and refuses a
// listener off loopback without a token (auth.ErrTokenRequired).
func (c *Config) Validate() error {
	if c.addrFlag != nil {
		c.GRPCAddr = c.addrFlag.Value.String()
	}
	if c.HTTPAddr != "" {
		if err := config.ValidateAddr(c.HTTPAddr); err != nil {
			return fmt.Errorf("%w: http-addr: %w", ErrConfig, err)
		}
	}
	if c.TokenFile != "" {
		b, err := os.ReadFile(c.TokenFile)
		if err != nil {
			return fmt.Errorf("%w: token-file: %w", ErrConfig, err)
		}
		if c.Token = strings.TrimSpace(string(b)); c.Token == "" {
			return fmt.Errorf("%w: token-file %s is empty", ErrConfig, c.TokenFile)
		}
	}
	if _, err := auth.New(c.Token); err != nil {
		return fmt.Errorf("%w: token: %w", ErrConfig, err)
	}
	switch {
	case c.MaxUploadBytes <= 0:
		return fmt.Errorf("%w: max-upload-bytes must be positive", ErrConfig)
	case c.RateLimit < 0 || c.RateBurst < 0:
		return fmt.Errorf("%w: rate-limit and rate-burst must not be negative", ErrConfig)
	case c.WatchWindow <= 0 || c.WatchWindowBytes <= 0 || c.WatchStallTimeout <= 0:
		return fmt.Errorf("%w: watch-window, watch-window-bytes and watch-stall-timeout must be positive", ErrConfig)
	}
	if err := auth.RequireForExposure(c.Token != "",
		auth.Listener{Flag: "addr", Addr: c.GRPCAddr}, auth.Listener{Flag: "http-addr", Addr: c.HTTPAddr}); err != nil {
		return fmt.Errorf("%w: %w", ErrConfig, err)
	}
	return nil
}

// fanoutOptions is the fan-out's part of the configuration.
func (c *Config) fanoutOptions() fanout.Options {
	return fanout.Options{Window: c.WatchWindow, WindowBytes: int64(c.WatchWindowBytes), StallTimeout: c.WatchStallTimeout}
}
