package executorsvc

import (
	"context"
	"slices"
	"sync"

	"github.com/greenlight-dev/greenlight/services/executor/internal/egress"
	"github.com/greenlight-dev/greenlight/services/executor/internal/enginefake"
)

// fakeEgress is an egressHost in memory: Apply records the instance and
// creates its network on eng (when set), Remove records it, Sweep offers
// the networks in nets and forgets those it removes. Errors set with fail are returned by Apply.
type fakeEgress struct {
	eng *enginefake.Engine

	mu       sync.Mutex
	applyErr error
	applied  []egress.Instance
	policies []egress.Policy
	owners   []egress.Owner
	removed  []egress.Instance
	nets     []map[string]string
	sweeps   int
	swept    []string
	sweepErr error
}

var _ egressHost = (*fakeEgress)(nil)

func (f *fakeEgress) Apply(_ context.Context, in egress.Instance, p egress.Policy, owner egress.Owner) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.applied, f.policies, f.owners = append(f.applied, in), append(f.policies, p), append(f.owners, owner)
	if f.applyErr != nil {
		return f.applyErr
	}
	if f.eng != nil {
		f.eng.AddNetwork(in.Network())
	}
	return nil
}

func (f *fakeEgress) Remove(_ context.Context, in egress.Instance) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.removed = append(f.removed, in)
	return nil
}

func (f *fakeEgress) Sweep(_ context.Context, isStale func(map[string]string) bool) ([]string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.sweeps++
	var out []string
	var kept []map[string]string
	for _, l := range f.nets {
		if isStale(l) {
			out = append(out, l[egress.LabelInstance])
		} else {
			kept = append(kept, l)
		}
	}
	f.nets, f.swept = kept, append(f.swept, out...)
	return out, f.sweepErr
}

// fail makes the next Apply calls return err (nil: succeed).
func (f *fakeEgress) fail(err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.applyErr = err
}

// record returns copies of what Apply and Remove were called with.
func (f *fakeEgress) record() (applied []egress.Instance, policies []egress.Policy, owners []egress.Owner, removed []egress.Instance) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.applied), slices.Clone(f.policies), slices.Clone(f.owners), slices.Clone(f.removed)
}

// counts returns how many instances were applied and removed.
func (f *fakeEgress) counts() (applied, removed int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.applied), len(f.removed)
}

// sweepCount returns the number of sweeps so far and the instances they
// removed.
func (f *fakeEgress) sweepCount() (int, []string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.sweeps, slices.Clone(f.swept)
}
