package tlsconf

import (
	"crypto/x509"
	"fmt"
	"os"
)

// loadPool reads a PEM file of CA certificates; a file without any is an
// error (a typo'd path to a key or an empty file would otherwise trust
// nothing and fail every handshake with a vaguer message).
func loadPool(file string) (*x509.CertPool, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("%w: CA file: %w", ErrFiles, err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(b) {
		return nil, fmt.Errorf("%w: CA file %s holds no PEM certificate", ErrFiles, file)
	}
	return pool, nil
}
