package cli

import (
	"crypto/tls"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/greenlight-dev/greenlight/pkg/tlsconf"
)

// clientTLS are the global flags that choose the transport to a gateway
// (--addr): TLS by default off loopback, plaintext on it.
type clientTLS struct {
	on, plaintext bool
	files         tlsconf.ClientFiles
	// envErr is an unreadable GREENLIGHT_TLS or GREENLIGHT_PLAINTEXT,
	// reported when a remote connection needs them.
	envErr error
}

// register binds the flags, global to root, and their environment
// variables.
func (c *clientTLS) register(root *cobra.Command, getenv func(string) string) {
	pf := root.PersistentFlags()
	pf.BoolVar(&c.on, "tls", c.envBool(getenv, "GREENLIGHT_TLS"),
		"use TLS to --addr even on loopback (env GREENLIGHT_TLS; default: TLS for every host but loopback and unix sockets)")
	pf.BoolVar(&c.plaintext, "plaintext", c.envBool(getenv, "GREENLIGHT_PLAINTEXT"),
		"no TLS to --addr, for a trusted network path (env GREENLIGHT_PLAINTEXT); a --token is still never sent in clear off loopback")
	pf.StringVar(&c.files.CA, "ca-file", getenv("GREENLIGHT_CA_FILE"),
		"PEM `file` of the CA(s) the gateway's certificate is checked against instead of the system's (env GREENLIGHT_CA_FILE; implies --tls)")
	pf.StringVar(&c.files.Cert, "cert", getenv("GREENLIGHT_CERT"),
		"PEM `file` of a client certificate for a gateway that requires one (env GREENLIGHT_CERT; with --key; implies --tls)")
	pf.StringVar(&c.files.Key, "key", getenv("GREENLIGHT_KEY"), "PEM `file` of --cert's private key (env GREENLIGHT_KEY)")
	pf.StringVar(&c.files.ServerName, "server-name", getenv("GREENLIGHT_SERVER_NAME"),
		"`name` the gateway's certificate must carry when it is not --addr's host (env GREENLIGHT_SERVER_NAME; implies --tls)")
}

// envBool reads a boolean variable ("", 1, true, 0, false ...).
func (c *clientTLS) envBool(getenv func(string) string, name string) bool {
	v := getenv(name)
	if v == "" {
		return false
	}
	b, err := strconv.ParseBool(v)
	if err != nil && c.envErr == nil {
		c.envErr = usagef("%s=%q: want true or false", name, v)
	}
	return b
}

// config decides the transport to addr: a TLS configuration, or nil for
// plaintext. Contradicting flags, files that do not load and a token that
// would travel in clear off loopback are usage errors (exit 2).
func (c *clientTLS) config(addr string, withToken bool) (*tls.Config, error) {
	if c.envErr != nil {
		return nil, c.envErr
	}
	mode := tlsconf.Auto
	switch {
	case c.on && c.plaintext:
		return nil, usagef("--tls and --plaintext exclude each other")
	case c.plaintext && c.files.Set():
		return nil, usagef("--plaintext excludes --ca-file, --cert, --key and --server-name, which are TLS settings")
	case c.on || c.files.Set():
		mode = tlsconf.TLS
	case c.plaintext:
		mode = tlsconf.Plaintext
	}
	use, err := tlsconf.UseTLS(addr, mode, withToken)
	if err != nil {
		return nil, usagef("--plaintext: %v: drop --plaintext to use TLS (--ca-file PEM for a private CA), "+
			"or reach the gateway over loopback (ssh -L 7070:127.0.0.1:7070 HOST, then --addr 127.0.0.1:7070)", err)
	}
	if !use {
		return nil, nil
	}
	cfg, err := c.files.Config()
	if err != nil {
		return nil, usagef("--ca-file, --cert, --key: %v", err)
	}
	return cfg, nil
}

// remoteTLS is the transport to --addr.
func (a *app) remoteTLS() (*tls.Config, error) { return a.tls.config(a.addr, a.token != "") }
