package stack

import "github.com/greenlight-dev/greenlight/pkg/config"

// Addrs are the listen addresses of the four services in `greenlight serve`.
type Addrs struct {
	Gateway, GatewayHTTP, Discovery, Executor, Loop string
}

// DefaultAddrs returns the default loopback addresses (pkg/config).
func DefaultAddrs() Addrs {
	return Addrs{
		Gateway:     config.DefaultGatewayAddr,
		GatewayHTTP: config.DefaultGatewayHTTPAddr,
		Discovery:   config.DefaultDiscoveryAddr,
		Executor:    config.DefaultExecutorAddr,
		Loop:        config.DefaultLoopAddr,
	}
}
