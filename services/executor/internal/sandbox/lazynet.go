package sandbox

import (
	"context"
	"fmt"
)

// restoresOnly says whether every step of batch may be served by the
// dependency cache, so its box need not be attached to its network before
// the steps start (boxFor's lazy): a step that then misses the cache
// attaches it itself (connectForStep) before its command runs.
func (rn *run) restoresOnly(batch []int) bool {
	if rn.r.cache == nil {
		return false
	}
	for _, i := range batch {
		if !rn.req.Steps[i].usesCache() {
			return false
		}
	}
	return true
}

// connectForStep attaches b to its network before step s runs its command,
// when s needs the network and the box was left without it (boxFor's
// lazy). Steps of one batch may call it at once; the first attaches.
func (rn *run) connectForStep(ctx context.Context, b *box, s *Step) error {
	if !s.Network || b.network == "" {
		return nil
	}
	return rn.setNetwork(ctx, b, true)
}

// setNetwork attaches b to its network or cuts it (after the install
// phase only loopback exists), unless it is so already.
func (rn *run) setNetwork(ctx context.Context, b *box, net bool) error {
	b.netMu.Lock()
	defer b.netMu.Unlock()
	if b.connected == net {
		return nil
	}
	var err error
	if net {
		err = rn.r.rt.Connect(ctx, b.id, b.network)
	} else {
		err = rn.r.rt.Disconnect(ctx, b.id, b.network)
	}
	if err != nil {
		return fmt.Errorf("switching the sandbox network: %w", err)
	}
	b.connected = net
	return nil
}
