package executorsvc

import (
	"context"
	"errors"

	"github.com/greenlight-dev/greenlight/services/executor/internal/sandbox"
)

// egressRuntime is the runtime of an executor whose egress instance is
// created on demand (Config.EgressOnDemand): the first container created
// on, or connected to, the instance's network has it applied first, so
// an install step never runs on a network without its filter (a failure
// fails that sandbox instead). In auto mode on a host that cannot filter,
// the network is EgressNetwork, as an executor applying it at start would
// have said.
type egressRuntime struct {
	sandbox.Runtime
	e *egressSetup
}

// Create applies the instance before the first container on its network.
func (r egressRuntime) Create(ctx context.Context, spec sandbox.ContainerSpec) (string, error) {
	if spec.Network == r.e.in.Network() {
		network, err := r.network(ctx)
		if err != nil {
			return "", err
		}
		if network != spec.Network && network == "host" {
			spec.Sysctls = nil // the engine refuses net.* sysctls in the host's namespace (loopbackIPv6)
		}
		spec.Network = network
	}
	return r.Runtime.Create(ctx, spec)
}

// Connect applies the instance before a container joins its network.
func (r egressRuntime) Connect(ctx context.Context, id, network string) error {
	if network == r.e.in.Network() {
		var err error
		if network, err = r.network(ctx); err != nil {
			return err
		}
	}
	return r.Runtime.Connect(ctx, id, network)
}

// Pull forwards to the wrapped runtime: the wrapper must not hide that it
// can fetch images (sandbox.Puller; --images upstream pulls what the
// engine lacks).
func (r egressRuntime) Pull(ctx context.Context, ref string) error {
	p, ok := r.Runtime.(sandbox.Puller)
	if !ok {
		return errors.New("this container runtime cannot pull images")
	}
	return p.Pull(ctx, ref)
}

// Disconnect detaches from the network Create or Connect really used.
func (r egressRuntime) Disconnect(ctx context.Context, id, network string) error {
	if network == r.e.in.Network() {
		network = r.e.inUse()
	}
	return r.Runtime.Disconnect(ctx, id, network)
}

// network applies the instance, within the caller's context and at most
// egressRetry, and returns the network to use.
func (r egressRuntime) network(ctx context.Context) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, egressRetry)
	defer cancel()
	return r.e.ensure(ctx)
}
