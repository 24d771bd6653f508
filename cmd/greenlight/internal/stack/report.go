package stack

import (
	"net"
	"strconv"
)

// reportPortOffset is the distance between the gateway's gRPC port and its
// HTTP port in the default layout (7070 → 7080), kept by docker-compose.yml
// and scripts that move both ports together.
const reportPortOffset = 10

// DeriveReportBase guesses the report server of a gateway at addr: same
// host, port plus ten ("" when addr has no numeric port), https when the
// gateway is reached over TLS (serve's --tls-cert covers both listeners).
// --report-url overrides the guess.
func DeriveReportBase(addr string, secure bool) string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return ""
	}
	p, err := strconv.Atoi(port)
	if err != nil || p <= 0 || p+reportPortOffset > 65535 {
		return ""
	}
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "127.0.0.1"
	}
	scheme := "http://"
	if secure {
		scheme = "https://"
	}
	return scheme + net.JoinHostPort(host, strconv.Itoa(p+reportPortOffset))
}
