package tlsconf

import (
	"crypto/tls"
	"errors"
	"fmt"
)

// ErrFiles is wrapped by every error about the PEM files given.
var ErrFiles = errors.New("tls")

// ServerFiles are the PEM files a TLS listener is built from.
type ServerFiles struct {
	// Cert is the certificate chain (leaf first) and Key its private key.
	Cert, Key string
	// ClientCA, when set, makes the listener require a client certificate
	// signed by one of the CAs in this file (mutual TLS).
	ClientCA string
}

// Enabled reports whether any file is set: the listener is to use TLS.
func (f ServerFiles) Enabled() bool { return f.Cert != "" || f.Key != "" || f.ClientCA != "" }

// Config loads the files. It returns nil (plaintext) when none is set and
// an error when the set is incomplete or a file does not load: a TLS
// listener never silently falls back to plaintext.
func (f ServerFiles) Config() (*tls.Config, error) {
	if !f.Enabled() {
		return nil, nil
	}
	if f.Cert == "" || f.Key == "" {
		return nil, fmt.Errorf("%w: a certificate and its key are both needed (got cert %q, key %q)", ErrFiles, f.Cert, f.Key)
	}
	pair, err := tls.LoadX509KeyPair(f.Cert, f.Key)
	if err != nil {
		return nil, fmt.Errorf("%w: certificate %s with key %s: %w", ErrFiles, f.Cert, f.Key, err)
	}
	cfg := &tls.Config{MinVersion: tls.VersionTLS12, Certificates: []tls.Certificate{pair}}
	if f.ClientCA != "" {
		pool, err := loadPool(f.ClientCA)
		if err != nil {
			return nil, err
		}
		cfg.ClientCAs, cfg.ClientAuth = pool, tls.RequireAndVerifyClientCert
	}
	return cfg, nil
}

// ForHTTP returns a copy of cfg for an HTTP server on a TLS listener: it
// offers HTTP/2 and HTTP/1.1 (net/http serves HTTP/2 only when "h2" is
// negotiated). nil stays nil.
func ForHTTP(cfg *tls.Config) *tls.Config {
	if cfg == nil {
		return nil
	}
	c := cfg.Clone()
	c.NextProtos = []string{"h2", "http/1.1"}
	return c
}
