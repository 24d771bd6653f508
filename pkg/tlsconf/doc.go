// Package tlsconf builds the TLS configurations of greenlight's public
// door from PEM files: the server side of `greenlight serve` and
// greenlight-gateway (certificate, key, optional client CA for mutual
// TLS) and the client side of the CLI (CA to trust, optional client
// certificate, server name). It also holds the rule of when a client uses
// TLS by default: for every host but loopback and unix sockets.
//
// Only crypto/tls and crypto/x509 are used: the standard library verifies
// chains and host names, and keeping it there leaves one place where a
// misconfiguration can be explained.
package tlsconf
