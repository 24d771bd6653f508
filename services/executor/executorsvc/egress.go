package executorsvc

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/netip"
	"strings"
	"sync"
	"time"

	"go.uber.org/zap"

	"github.com/greenlight-dev/greenlight/services/executor/internal/egress"
	"github.com/greenlight-dev/greenlight/services/executor/internal/sandbox"
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
// wedged engine never blocks startup), then retries in the background;
// removal at shutdown is bounded too.
const (
	egressFirstTry = 3 * time.Second
	egressRetry    = 15 * time.Second
	egressRemove   = 10 * time.Second
)

// egressUses counts, per instance id, the services of this process using
// it (and the digest of its policy): services with the same policy share
// one instance, and the last one to close removes it.
var (
	egressMu   sync.Mutex
	egressUses = map[string]*egressUse{}
)

// egressUse is one instance as the services of this process share it.
type egressUse struct {
	refs   int
	policy string

	// mu serializes applying the instance. applied says it is in place,
	// or (fallback) that this host cannot filter and, in auto mode,
	// install steps get EgressNetwork instead; tried says an attempt was
	// made, which may have left parts of it for release to remove.
	mu                       sync.Mutex
	applied, fallback, tried bool
}

// egressSetup is one service's use of an egress instance.
type egressSetup struct {
	cfg  Config
	host egressHost
	self sandbox.Identity
	in   egress.Instance
	p    egress.Policy
	log  *zap.Logger
	use  *egressUse
}

// applyEgress installs the service's egress instance and returns the
// network install steps use and the instance's setup (nil when there is
// none), whose release removes it at shutdown; host (nil: no egress
// policy) applies it. When the engine does not answer, the instance's network is
// used all the same and set up by retry until stop is closed; install
// steps fail (never run unfiltered) until it exists. With
// EgressOnDemand nothing is created here: ensure does it for the first
// sandbox that needs the network (see egressRuntime).
func applyEgress(cfg Config, host egressHost, self sandbox.Identity, log *zap.Logger, stop <-chan struct{},
	wg *sync.WaitGroup) (string, *egressSetup, error) {
	if cfg.EgressPolicy == EgressOff || host == nil {
		return cfg.EgressNetwork, nil, nil
	}
	allow, err := cfg.egressAllow()
	if err != nil {
		return "", nil, err
	}
	e := &egressSetup{cfg: cfg, host: host, self: self, log: log,
		p: egress.Policy{Allow: allow, Resolvers: egress.Resolvers("/etc/resolv.conf")}}
	e.in = egress.Instance{ID: cfg.egressInstance(self, e.p)}
	egressMu.Lock()
	defer egressMu.Unlock()
	e.use = egressUses[e.in.ID]
	if e.use != nil && e.use.policy != e.p.Digest() {
		return "", nil, fmt.Errorf("egress policy: %w: instance %s is used by another service of this process "+
			"with another policy; give each executor its own --egress-instance", egress.ErrInUse, e.in.ID)
	}
	if e.use == nil {
		e.use = &egressUse{policy: e.p.Digest()}
	}
	if !cfg.EgressOnDemand {
		ctx, cancel := context.WithTimeout(context.Background(), egressFirstTry)
		network, err := e.ensure(ctx)
		cancel()
		switch {
		case err == nil && network != e.in.Network():
			return network, nil, nil // auto mode on a host that cannot filter
		case err == nil:
		case errors.Is(err, egress.ErrUnavailable), errors.Is(err, egress.ErrInUse):
			return "", nil, err
		default:
			log.Warn("egress policy not set up yet (engine not answering?); retrying", zap.Error(err))
			e.retry(stop, wg)
		}
	}
	e.use.refs++
	egressUses[e.in.ID] = e.use
	return e.in.Network(), e, nil
}

// ensure applies the instance unless it is in place and returns the
// network install steps get: the instance's, or EgressNetwork when the
// host cannot filter and the policy is auto (said once, as a warning). A
// failure leaves it to the next call (or retry) to try again.
func (e *egressSetup) ensure(ctx context.Context) (string, error) {
	u := e.use
	u.mu.Lock()
	defer u.mu.Unlock()
	if !u.applied {
		u.tried = true
		err := e.try(ctx)
		switch {
		case err == nil:
		case errors.Is(err, egress.ErrUnavailable) && e.cfg.EgressPolicy == EgressAuto:
			e.log.Warn("egress policy not applied: install steps reach the network unfiltered", zap.Error(err),
				zap.String("network", e.cfg.EgressNetwork))
			u.fallback = true
		default:
			return "", fmt.Errorf("egress policy: %w", err)
		}
		u.applied = true
	}
	if u.fallback {
		return e.cfg.EgressNetwork, nil
	}
	return e.in.Network(), nil
}

// inUse is the network install steps were given: EgressNetwork once
// ensure fell back to it, else the instance's.
func (e *egressSetup) inUse() string {
	e.use.mu.Lock()
	defer e.use.mu.Unlock()
	if e.use.fallback {
		return e.cfg.EgressNetwork
	}
	return e.in.Network()
}

// try sweeps what dead executors left and applies the instance.
func (e *egressSetup) try(ctx context.Context) error {
	e.sweep(ctx)
	owner := egress.Owner{Labels: e.self.Labels(), Alive: func(l map[string]string) bool {
		return !sandbox.IdentityOf(l).GoneFrom(e.self)
	}}
	if err := e.host.Apply(ctx, e.in, e.p, owner); err != nil {
		return err
	}
	e.log.Info("egress policy applied", zap.String("network", e.in.Network()), zap.String("chain", e.in.ChainOut()),
		zap.Int("allowed", len(e.p.Allow)))
	return nil
}

// sweep removes the egress instances of dead executors on this host (a
// network their containers still use is retried at the next sweep, after
// the reaper has removed them).
func (e *egressSetup) sweep(ctx context.Context) {
	if e == nil {
		return
	}
	swept, err := e.host.Sweep(ctx, func(l map[string]string) bool {
		return sandbox.IdentityOf(l).GoneFrom(e.self)
	})
	if err != nil && ctx.Err() == nil {
		e.log.Warn("sweeping stale egress instances failed", zap.Error(err))
	}
	for _, id := range swept {
		e.log.Info("removed the egress instance of a dead executor", zap.String("instance", id))
	}
}

// retry applies the instance in the background until it works or stop is
// closed.
func (e *egressSetup) retry(stop <-chan struct{}, wg *sync.WaitGroup) {
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
				ctx, cancel := context.WithTimeout(context.Background(), egressRetry)
				_, err := e.ensure(ctx)
				cancel()
				if err == nil {
					return
				}
			}
		}
	}()
}

// release drops the service's use of the instance; the last user removes
// its chains and network, unless nothing was ever created (an on-demand
// instance no install step needed).
func (e *egressSetup) release() {
	if e == nil {
		return
	}
	egressMu.Lock()
	defer egressMu.Unlock()
	if u := egressUses[e.in.ID]; u != nil {
		if u.refs--; u.refs > 0 {
			return
		}
	}
	delete(egressUses, e.in.ID)
	e.use.mu.Lock()
	tried, fallback := e.use.tried, e.use.fallback
	e.use.mu.Unlock()
	if !tried || fallback {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), egressRemove)
	defer cancel()
	if err := e.host.Remove(ctx, e.in); err != nil {
		e.log.Warn("removing the egress instance failed; the next executor on this host sweeps it",
			zap.String("instance", e.in.ID), zap.Error(err))
	}
}

// egressInstance is the configured instance id, else one derived from this
// process and the policy: every executor process has its own chains and
// network, and services of one process with the same policy share them.
func (c *Config) egressInstance(self sandbox.Identity, p egress.Policy) string {
	if c.EgressInstance != "" {
		return c.EgressInstance
	}
	sum := sha256.Sum256(fmt.Appendf(nil, "%s\x00%d\x00%s\x00%s", self.Host, self.PID, self.PIDStart, p.Digest()))
	return "e" + hex.EncodeToString(sum[:])[:10]
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
