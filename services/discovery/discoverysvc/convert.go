package discoverysvc

import (
	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/discovery/internal/capability"
	"github.com/greenlight-dev/greenlight/services/discovery/internal/command"
	"github.com/greenlight-dev/greenlight/services/discovery/internal/plan"
	"github.com/greenlight-dev/greenlight/services/discovery/internal/repoconfig"
	"google.golang.org/protobuf/types/known/durationpb"
)

// The domain enums are numbered like the proto ones (pinned by a test), so
// conversion is a cast.

func capabilitiesProto(c *capability.Capabilities) *glv1.Capabilities {
	out := &glv1.Capabilities{
		MaxLevel:   glv1.Level(c.MaxLevel),
		Notes:      c.Notes,
		PatchAllow: c.PatchAllow,
	}
	if c.TimeBudget > 0 {
		out.TimeBudget = durationpb.New(c.TimeBudget)
	}
	for _, sp := range c.Subprojects {
		p := &glv1.Subproject{
			Root: sp.Root, Runtime: sp.Runtime, PackageManager: sp.PackageManager,
			TestFrameworks: sp.TestFrameworks, Linters: sp.Linters, Markers: sp.Markers,
			Image: sp.Image, HasTests: sp.HasTests,
		}
		for _, v := range sp.Versions {
			p.Versions = append(p.Versions, &glv1.VersionHint{Tool: v.Tool, Version: v.Version, Source: v.Source})
		}
		out.Subprojects = append(out.Subprojects, p)
	}
	for _, cmd := range c.Commands {
		out.Commands = append(out.Commands, stepProto(cmd))
	}
	for _, f := range c.Configs {
		out.Configs = append(out.Configs, &glv1.ConfigFile{Path: f.Path, Format: f.Format})
	}
	for _, t := range c.Triggers {
		out.RiskTriggers = append(out.RiskTriggers, &glv1.RiskTrigger{Name: t.Name, Patterns: t.Patterns, Tier: glv1.Tier(t.Tier)})
	}
	return out
}

func stepProto(c command.Command) *glv1.Step {
	s := &glv1.Step{
		Name: c.Name, Phase: glv1.Phase(c.Phase), Command: c.Command, DisplayCommand: c.Display, Workdir: c.Workdir,
		Env: c.Env, Network: c.Network, Tier: glv1.Tier(c.Tier), Level: glv1.Level(c.Level),
		ContinueOnFailure: c.ContinueOnFailure, Group: c.Group, Subproject: c.Subproject, FailureScope: c.FailureScope,
		Image: c.Image, CacheKeyFiles: c.CacheKeyFiles, CachePaths: c.CachePaths,
		Optional: c.Optional, ReportFiles: c.ReportFiles, ToolchainOnly: command.ToolchainOnly(c),
		Source: &glv1.CommandSource{File: c.Source.File, Key: c.Source.Key, Line: int32(c.Source.Line), Origin: c.Source.Origin},
	}
	if c.Timeout > 0 {
		s.Timeout = durationpb.New(c.Timeout)
	}
	if r := c.RequiredBy; r != nil {
		s.RequiredBy = &glv1.CommandSource{File: r.File, Key: r.Key, Line: int32(r.Line), Origin: r.Origin}
	}
	return s
}

func pipelineProto(p *plan.Pipeline) *glv1.Pipeline {
	out := &glv1.Pipeline{
		Runtime: p.Runtime, Image: p.Image, MaxLevel: glv1.Level(p.MaxLevel), Notes: p.Notes, CoverageScore: p.CoverageScore, CoverageOff: p.CoverageOff,
	}
	if p.TimeBudget > 0 {
		out.TimeBudget = durationpb.New(p.TimeBudget)
	}
	if l := p.Limits; l != (repoconfig.Limits{}) {
		out.Limits = &glv1.Limits{Cpus: l.CPUs, MemoryBytes: l.MemoryBytes, Pids: l.Pids}
		if l.RunTimeout > 0 {
			out.Limits.RunTimeout = durationpb.New(l.RunTimeout)
		}
	}
	for _, s := range p.Steps {
		out.Steps = append(out.Steps, stepProto(s))
	}
	for _, t := range p.Tiers {
		out.Tiers = append(out.Tiers, &glv1.TierSelection{Tier: glv1.Tier(t.Tier), Selected: t.Selected, Reasons: t.Reasons})
	}
	for _, c := range p.Plan {
		out.Plan = append(out.Plan, &glv1.PlanCommand{Block: c.Block, Command: c.Text, Line: int32(c.Line), Step: c.Step, Refused: c.Refused})
	}
	return out
}

func planRequest(r *glv1.PlanRequest) plan.Request {
	req := plan.Request{
		ChangedFiles: r.GetChangedFiles(), HighRisk: r.GetHighRisk(), MilestoneEnd: r.GetMilestoneEnd(),
		RunEnd: r.GetRunEnd(), Images: r.GetImages(), Plan: r.GetPlan(),
		Security: plan.SecurityMode(r.GetSecurity()),
	}
	for _, s := range r.GetSelection() {
		req.Selection = append(req.Selection, plan.Selection{Name: s.GetName(), Command: s.GetCommand(), Workdir: s.GetWorkdir()})
	}
	return req
}
