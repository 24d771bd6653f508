package executorsvc

import (
	"context"
	"fmt"
	"net/netip"
	"strings"
	"sync"
	"time"

	"go.uber.org/zap"

	"github.com/greenlight-dev/greenlight/services/executor/internal/egress"
)

// Egress policies (Config.EgressPolicy).
const (
	// EgressAuto filters install steps' egress when the host allows it and
	// warns (leaving the plain bridge) when it does not.
	EgressAuto = "auto"
	// EgressIptables requires the filter: the executor does not start
	// without it.
	EgressIptables = "iptables"
	// EgressOff attaches install steps to EgressNetwork unfiltered.
	EgressOff = "off"
)

// applied remembers the policies this process installed: the rules are
// host-wide, once is enough.
var applied sync.Map

// applyEgress installs the egress policy and returns the network install
// steps use.
func applyEgress(cfg Config, nets egress.Networks, log *zap.Logger) (string, error) {
	if cfg.EgressPolicy == EgressOff || nets == nil {
		return cfg.EgressNetwork, nil
	}
	allow, err := cfg.egressAllow()
	if err != nil {
		return "", err
	}
	p := egress.Policy{Allow: allow, Resolvers: egress.Resolvers("/etc/resolv.conf")}
	key := fmt.Sprint(p)
	if _, ok := applied.Load(key); ok {
		return egress.NetworkName, nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := egress.Apply(ctx, nets, egress.SystemIptables, p); err != nil {
		if cfg.EgressPolicy == EgressIptables {
			return "", fmt.Errorf("egress policy: %w", err)
		}
		log.Warn("egress policy not applied: install steps reach the network unfiltered", zap.Error(err),
			zap.String("network", cfg.EgressNetwork))
		return cfg.EgressNetwork, nil
	}
	applied.Store(key, true)
	log.Info("egress policy applied", zap.String("network", egress.NetworkName), zap.Int("allowed", len(allow)))
	return egress.NetworkName, nil
}

// egressAllow parses EgressAllow.
func (c *Config) egressAllow() ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, s := range c.EgressAllow {
		if !strings.Contains(s, "/") {
			s += "/32"
		}
		p, err := netip.ParsePrefix(s)
		if err != nil || !p.Addr().Is4() {
			return nil, fmt.Errorf("egress-allow: %q is not an IPv4 address or CIDR", s)
		}
		out = append(out, p)
	}
	return out, nil
}
