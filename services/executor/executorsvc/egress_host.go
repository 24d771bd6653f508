package executorsvc

import (
	"context"

	"github.com/greenlight-dev/greenlight/services/executor/internal/egress"
)

// egressHost applies, removes and sweeps egress instances on the engine's
// host: hostEgress (engine networks and the host's iptables) for a real
// executor, an in-memory fake in the tests that run without an engine or
// root.
type egressHost interface {
	// Apply creates the instance's network and installs its rules
	// (egress.Apply).
	Apply(ctx context.Context, in egress.Instance, p egress.Policy, owner egress.Owner) error
	// Remove deletes the instance (egress.Remove).
	Remove(ctx context.Context, in egress.Instance) error
	// Sweep removes the instances whose owner died and returns their ids
	// (egress.Sweep).
	Sweep(ctx context.Context, isStale func(labels map[string]string) bool) ([]string, error)
}

// hostEgress is egressHost on an engine's networks and the iptables
// binary of this host.
type hostEgress struct{ nets egress.Networks }

var _ egressHost = hostEgress{}

func (h hostEgress) Apply(ctx context.Context, in egress.Instance, p egress.Policy, owner egress.Owner) error {
	return egress.Apply(ctx, h.nets, egress.SystemIptables, in, p, owner)
}

func (h hostEgress) Remove(ctx context.Context, in egress.Instance) error {
	return egress.Remove(ctx, h.nets, egress.SystemIptables, in)
}

func (h hostEgress) Sweep(ctx context.Context, isStale func(labels map[string]string) bool) ([]string, error) {
	return egress.Sweep(ctx, h.nets, egress.SystemIptables, isStale)
}
