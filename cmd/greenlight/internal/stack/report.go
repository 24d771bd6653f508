package stack

import (
	"net"
	"strconv"

	"github.com/greenlight-dev/greenlight/pkg/config"
)

// DeriveReportBase guesses the report server of a gateway at addr: the
// default layout puts HTTP on the gRPC port plus ten (7070 → 7080). Other
// ports give "" (no guess: pass --report-url).
func DeriveReportBase(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return ""
	}
	_, defPort, _ := net.SplitHostPort(config.DefaultGatewayAddr)
	_, defHTTP, _ := net.SplitHostPort(config.DefaultGatewayHTTPAddr)
	if port != defPort {
		return ""
	}
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "127.0.0.1"
	}
	p, _ := strconv.Atoi(defHTTP)
	return "http://" + net.JoinHostPort(host, strconv.Itoa(p))
}
