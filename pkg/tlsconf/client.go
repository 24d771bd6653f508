package tlsconf

import (
	"crypto/tls"
	"fmt"
)

// ClientFiles are what a TLS client is built from.
type ClientFiles struct {
	// CA is a PEM file of the CAs to trust instead of the system's roots
	// (a private CA, a proxy's). Empty: the system's roots.
	CA string
	// Cert and Key are an optional client certificate and its key, for a
	// server that requires mutual TLS.
	Cert, Key string
	// ServerName is the name checked against the server's certificate when
	// it differs from the address's host (an IP address, a tunnel).
	ServerName string
}

// Config loads the files into a client configuration.
func (f ClientFiles) Config() (*tls.Config, error) {
	cfg := &tls.Config{MinVersion: tls.VersionTLS12, ServerName: f.ServerName}
	if f.CA != "" {
		pool, err := loadPool(f.CA)
		if err != nil {
			return nil, err
		}
		cfg.RootCAs = pool
	}
	if (f.Cert == "") != (f.Key == "") {
		return nil, fmt.Errorf("%w: a client certificate and its key are both needed (got cert %q, key %q)", ErrFiles, f.Cert, f.Key)
	}
	if f.Cert != "" {
		pair, err := tls.LoadX509KeyPair(f.Cert, f.Key)
		if err != nil {
			return nil, fmt.Errorf("%w: client certificate %s with key %s: %w", ErrFiles, f.Cert, f.Key, err)
		}
		cfg.Certificates = []tls.Certificate{pair}
	}
	return cfg, nil
}

// Set reports whether any setting is given (they imply TLS).
func (f ClientFiles) Set() bool {
	return f.CA != "" || f.Cert != "" || f.Key != "" || f.ServerName != ""
}
