package enginetest

import (
	"context"
	"sync"

	"google.golang.org/protobuf/proto"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// Discovery is a DiscoveryService that plans a fixed pipeline: the steps
// of the selected tiers (tier0 always, tier1 with high_risk, milestone_end
// or any changed file, tier2 with run_end), only the named ones when the
// request selects steps by name.
type Discovery struct {
	glv1.UnimplementedDiscoveryServiceServer

	mu    sync.Mutex
	steps []*glv1.Step
	caps  *glv1.Capabilities
	err   error
	plans []*glv1.PlanRequest
	// limits are the planned pipeline's limits (greenlight.yaml's).
	limits *glv1.Limits
}

// NewDiscovery plans steps.
func NewDiscovery(steps ...*glv1.Step) *Discovery {
	return &Discovery{steps: steps, caps: &glv1.Capabilities{Commands: steps}}
}

// SetError makes every Plan and Discover fail with err.
func (d *Discovery) SetError(err error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.err = err
}

// SetPatchAllow sets the capabilities' patch allow-list.
func (d *Discovery) SetPatchAllow(globs ...string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.caps.PatchAllow = globs
}

// SetLimits sets the limits of every planned pipeline, as a repository's
// greenlight.yaml limits and time_budget would.
func (d *Discovery) SetLimits(l *glv1.Limits) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.limits = l
}

// Plans returns the requests received so far.
func (d *Discovery) Plans() []*glv1.PlanRequest {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]*glv1.PlanRequest(nil), d.plans...)
}

// Plan returns the selected tiers' steps in the configured order.
func (d *Discovery) Plan(_ context.Context, req *glv1.PlanRequest) (*glv1.PlanResponse, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.plans = append(d.plans, req)
	if d.err != nil {
		return nil, d.err
	}
	t1 := req.GetHighRisk() || req.GetMilestoneEnd() || len(req.GetChangedFiles()) > 0
	selected := map[glv1.Tier]bool{glv1.Tier_TIER_0: true, glv1.Tier_TIER_UNSPECIFIED: true, glv1.Tier_TIER_1: t1, glv1.Tier_TIER_2: req.GetRunEnd()}
	p := &glv1.Pipeline{Runtime: "python", Image: "greenlight/sandbox-python:latest", Tiers: []*glv1.TierSelection{
		{Tier: glv1.Tier_TIER_0, Selected: true, Reasons: []string{"tier0 is always selected"}},
		{Tier: glv1.Tier_TIER_1, Selected: t1},
		{Tier: glv1.Tier_TIER_2, Selected: req.GetRunEnd()},
	}}
	if d.limits != nil {
		p.Limits = proto.Clone(d.limits).(*glv1.Limits)
	}
	// A selection by name plans the named steps alone.
	named := map[string]bool{}
	for _, sel := range req.GetSelection() {
		named[sel.GetName()] = true
	}
	for _, s := range d.steps {
		if len(named) > 0 && !named[s.GetName()] {
			continue
		}
		if selected[s.GetTier()] {
			p.Steps = append(p.Steps, proto.Clone(s).(*glv1.Step))
		}
	}
	return &glv1.PlanResponse{Pipeline: p, Capabilities: proto.Clone(d.caps).(*glv1.Capabilities)}, nil
}

// Discover returns the capabilities.
func (d *Discovery) Discover(context.Context, *glv1.DiscoverRequest) (*glv1.DiscoverResponse, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.err != nil {
		return nil, d.err
	}
	return &glv1.DiscoverResponse{Capabilities: proto.Clone(d.caps).(*glv1.Capabilities)}, nil
}
