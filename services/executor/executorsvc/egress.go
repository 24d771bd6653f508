package executorsvc

import (
	"context"
	"errors"
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

// Egress setup timing: one quick attempt while the service starts (so a
// wedged engine never blocks startup), then retries in the background.
const (
	egressFirstTry = 3 * time.Second
	egressRetry    = 15 * time.Second
)

// applied remembers the policies this process installed: the rules are
// host-wide, once is enough.
var applied sync.Map

// applyEgress installs the egress policy and returns the network install
// steps use. When the engine does not answer, the policy's network is used
// all the same and set up by retry until stop is closed; install steps fail
// (never run unfiltered) until it exists.
func applyEgress(cfg Config, nets egress.Networks, log *zap.Logger, stop <-chan struct{}, wg *sync.WaitGroup) (string, error) {
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
	try := func(d time.Duration) error {
		ctx, cancel := context.WithTimeout(context.Background(), d)
		defer cancel()
		err := egress.Apply(ctx, nets, egress.SystemIptables, p)
		if err == nil {
			applied.Store(key, true)
			log.Info("egress policy applied", zap.String("network", egress.NetworkName), zap.Int("allowed", len(allow)))
		}
		return err
	}
	err = try(egressFirstTry)
	switch {
	case err == nil:
	case errors.Is(err, egress.ErrUnavailable) && cfg.EgressPolicy == EgressAuto:
		log.Warn("egress policy not applied: install steps reach the network unfiltered", zap.Error(err),
			zap.String("network", cfg.EgressNetwork))
		return cfg.EgressNetwork, nil
	case errors.Is(err, egress.ErrUnavailable):
		return "", fmt.Errorf("egress policy: %w", err)
	default:
		log.Warn("egress policy not set up yet (engine not answering?); retrying", zap.Error(err))
		wg.Add(1)
		go func() {
			defer wg.Done()
			t := time.NewTicker(egressRetry)
			defer t.Stop()
			for {
				select {
				case <-stop:
					return
				case <-t.C:
					if try(egressRetry) == nil {
						return
					}
				}
			}
		}()
	}
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
