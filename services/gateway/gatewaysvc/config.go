package gatewaysvc

import (
	"crypto/tls"
	"errors"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/greenlight-dev/greenlight/pkg/config"
	"github.com/greenlight-dev/greenlight/pkg/tlsconf"
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
	// which is allowed only when every listener is on loopback. Each
	// token is its own tenant: runs belong to the token that started them
	// and nobody else (operators aside) sees them.
	Token string
	// TokenFile holds the tenant tokens, one per line (surrounding
	// whitespace ignored, blank lines and # comments skipped); it wins
	// over Token. Validate sets Token to its first.
	TokenFile string
	// OperatorToken is a bearer token that sees every tenant's runs,
	// events, reports and blobs; OperatorTokenFile holds one or more (as
	// TokenFile) and wins over it.
	OperatorToken     string
	OperatorTokenFile string

	// tenants and operators are every configured token, set by Validate.
	tenants, operators []string

	// TLSCert and TLSKey (PEM files) make both listeners, gRPC and HTTP,
	// speak TLS; TLSClientCA also requires client certificates signed by
	// one of its CAs on both. Empty: plaintext, for loopback or behind a
	// TLS-terminating proxy.
	TLSCert, TLSKey, TLSClientCA string

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
	fs.String(&c.TokenFile, "token-file", "`file` holding the bearer token, or several, one per line, each its own tenant (wins over --token)")
	fs.String(&c.OperatorToken, "operator-token", "bearer `token` that sees every tenant's runs and blobs")
	fs.String(&c.OperatorTokenFile, "operator-token-file", "`file` holding the operator token(s), one per line (wins over --operator-token)")
	fs.String(&c.TLSCert, "tls-cert", "PEM `file` of the certificate (chain) both listeners serve TLS with (with --tls-key)")
	fs.String(&c.TLSKey, "tls-key", "PEM `file` of --tls-cert's private key")
	fs.String(&c.TLSClientCA, "tls-client-ca", "PEM `file` of the CAs whose client certificates both listeners require (mutual TLS)")
	fs.Bytes(&c.MaxUploadBytes, "max-upload-bytes", "largest BlobService.Write upload, a `size` such as 1GiB")
	fs.Int(&c.RateLimit, "rate-limit", "requests per second per client IP (0: unlimited)")
	fs.Int(&c.RateBurst, "rate-burst", "burst of requests per client IP")
	fs.Int(&c.WatchWindow, "watch-window", "events kept per watched run for late and slow watchers")
	fs.Bytes(&c.WatchWindowBytes, "watch-window-bytes", "bytes kept per watched run, a `size`")
	fs.Duration(&c.WatchStallTimeout, "watch-stall-timeout", "how long a stalled watcher may hold back others before it is dropped (a `duration`)")
	c.addrFlag = fs.Std().Lookup("addr")
}

// Validate checks the settings, loads the token files and refuses a
// listener off loopback without any token (auth.ErrTokenRequired).
func (c *Config) Validate() error {
	if c.addrFlag != nil {
		c.GRPCAddr = c.addrFlag.Value.String()
	}
	if c.HTTPAddr != "" {
		if err := config.ValidateAddr(c.HTTPAddr); err != nil {
			return fmt.Errorf("%w: http-addr: %w", ErrConfig, err)
		}
	}
	var err error
	if c.tenants, err = tokens("token-file", c.TokenFile, c.Token); err != nil {
		return err
	}
	if c.operators, err = tokens("operator-token-file", c.OperatorTokenFile, c.OperatorToken); err != nil {
		return err
	}
	if len(c.tenants) > 0 {
		c.Token = c.tenants[0]
	}
	if _, err := c.keys(); err != nil {
		return err
	}
	if _, err := c.serverTLS(); err != nil {
		return err
	}
	switch {
	case c.MaxUploadBytes <= 0:
		return fmt.Errorf("%w: max-upload-bytes must be positive", ErrConfig)
	case c.RateLimit < 0 || c.RateBurst < 0:
		return fmt.Errorf("%w: rate-limit and rate-burst must not be negative", ErrConfig)
	case c.WatchWindow <= 0 || c.WatchWindowBytes <= 0 || c.WatchStallTimeout <= 0:
		return fmt.Errorf("%w: watch-window, watch-window-bytes and watch-stall-timeout must be positive", ErrConfig)
	}
	if err := auth.RequireForExposure(len(c.tenants)+len(c.operators) > 0,
		auth.Listener{Flag: "addr", Addr: c.GRPCAddr}, auth.Listener{Flag: "http-addr", Addr: c.HTTPAddr}); err != nil {
		return fmt.Errorf("%w: %w", ErrConfig, err)
	}
	return nil
}

// serverTLS loads the TLS files: nil without any (plaintext). They are
// read where needed rather than kept, so that an embedding program that
// fills the fields and skips Validate gets the same checks.
func (c *Config) serverTLS() (*tls.Config, error) {
	cfg, err := tlsconf.ServerFiles{Cert: c.TLSCert, Key: c.TLSKey, ClientCA: c.TLSClientCA}.Config()
	if err != nil {
		return nil, fmt.Errorf("%w: tls-cert, tls-key, tls-client-ca: %w", ErrConfig, err)
	}
	return cfg, nil
}

// fanoutOptions is the fan-out's part of the configuration.
func (c *Config) fanoutOptions() fanout.Options {
	return fanout.Options{Window: c.WatchWindow, WindowBytes: int64(c.WatchWindowBytes), StallTimeout: c.WatchStallTimeout}
}

// tokens returns the tokens of file (one per line), else value's.
func tokens(flag, file, value string) ([]string, error) {
	if file == "" {
		if value == "" {
			return nil, nil
		}
		return []string{value}, nil
	}
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrConfig, flag, err)
	}
	toks := auth.ParseTokenFile(string(b))
	if len(toks) == 0 {
		return nil, fmt.Errorf("%w: %s %s is empty", ErrConfig, flag, file)
	}
	return toks, nil
}

// keys are the configured tokens. Before Validate (an embedding program
// that filled Token and OperatorToken itself) those two are used.
func (c *Config) keys() (*auth.Keys, error) {
	tenants, operators := c.tenants, c.operators
	if tenants == nil && c.Token != "" {
		tenants = []string{c.Token}
	}
	if operators == nil && c.OperatorToken != "" {
		operators = []string{c.OperatorToken}
	}
	k, err := auth.NewKeys(tenants, operators)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	return k, nil
}
