// Package plan turns capabilities into the pipeline of one verification:
// it selects tiers, enforces the whitelist on a model's selection, adds the
// install steps and the hard-failure step a pipeline needs, orders the
// steps and names each step's sandbox image.
package plan

import (
	"errors"
	"fmt"
	"maps"
	"path"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/greenlight-dev/greenlight/services/discovery/internal/capability"
	"github.com/greenlight-dev/greenlight/services/discovery/internal/command"
	"github.com/greenlight-dev/greenlight/services/discovery/internal/detect"
	"github.com/greenlight-dev/greenlight/services/discovery/internal/repoconfig"
)

// Sentinel errors.
var (
	// ErrNotWhitelisted refuses a selected command that discovery neither
	// found nor read from configuration.
	ErrNotWhitelisted = errors.New("command not in the whitelist")
	// ErrBadSelection marks a selection that names nothing or is ambiguous.
	ErrBadSelection = errors.New("invalid command selection")
)

// Selection is one command chosen by a model.
type Selection struct {
	Name    string
	Command string
	Workdir string
}

// Request is what a verification asks for.
type Request struct {
	ChangedFiles []string
	HighRisk     bool
	MilestoneEnd bool
	RunEnd       bool
	Selection    []Selection
	// Plan is a plan document whose command blocks name whitelisted
	// steps to run first (see document.go); empty for none.
	Plan string
	// Images overrides the capabilities' runtime -> image table.
	Images map[string]string
	// Security asks for the security phase (security.go).
	Security SecurityMode
}

// Pipeline is the planned verification.
type Pipeline struct {
	Runtime    string
	Image      string
	Steps      []command.Command
	Tiers      []TierSelection
	MaxLevel   command.Level
	Notes      []string
	TimeBudget time.Duration
	// Limits are the sandbox resources the repository asked for.
	Limits repoconfig.Limits
	// Plan is every command of the request's plan document with the step
	// it runs as or the reason it was refused.
	Plan []PlanCommand
	// CoverageScore is greenlight.yaml's coverage.score.
	CoverageScore bool
	// CoverageOff is greenlight.yaml's coverage.measure: false.
	CoverageOff bool
}

// planner carries one planning.
type planner struct {
	caps  *capability.Capabilities
	req   Request
	tiers map[command.Tier]bool
	steps []command.Command
	have  map[string]bool
	notes []string
	// first orders the steps a plan document names, which run first in
	// their phase; plan is what became of each plan command.
	first map[string]int
	plan  []PlanCommand
}

// Make plans a pipeline.
func Make(caps *capability.Capabilities, req Request) (*Pipeline, error) {
	if err := checkRequestImages(caps, req); err != nil {
		return nil, err
	}
	p := &planner{caps: caps, req: req, tiers: map[command.Tier]bool{}, have: map[string]bool{}}
	sel := SelectTiers(req, caps.Triggers)
	for _, t := range sel {
		p.tiers[t.Tier] = t.Selected
	}
	if len(req.Selection) > 0 {
		if err := p.selection(); err != nil {
			return nil, err
		}
	} else {
		p.defaults(func(t command.Tier) bool { return p.tiers[t] })
	}
	if p.req.Plan != "" {
		if err := p.document(); err != nil {
			return nil, err
		}
	}
	p.security()
	p.installs()
	p.hardFailure()
	p.advisory()
	p.order()
	p.scopes()
	out := &Pipeline{Tiers: sel, TimeBudget: caps.TimeBudget, Limits: caps.Limits, Plan: p.plan, CoverageScore: caps.CoverageScore, CoverageOff: caps.CoverageOff}
	p.images(out)
	out.Steps = p.steps
	for _, s := range p.steps {
		out.MaxLevel = max(out.MaxLevel, s.Level)
	}
	p.configNotes()
	out.Notes = p.notes
	return out, nil
}

// add appends a whitelisted command once.
func (p *planner) add(c command.Command) bool {
	if p.have[c.Name] {
		return false
	}
	p.have[c.Name] = true
	p.steps = append(p.steps, c.Clone())
	return true
}

// defaults adds the default commands of the accepted tiers.
func (p *planner) defaults(accept func(command.Tier) bool) int {
	n := 0
	for _, c := range p.caps.Commands {
		if p.caps.Default[c.Name] && accept(c.Tier) && p.add(c) {
			n++
		}
	}
	return n
}

// selection resolves a model's choice against the whitelist, then lets
// tier escalation add to it: the verifier may override the model.
func (p *planner) selection() error {
	var refused []string
	for i, s := range p.req.Selection {
		c, err := p.resolve(s)
		if errors.Is(err, ErrNotWhitelisted) {
			refused = append(refused, describe(s))
			continue
		}
		if err != nil {
			return fmt.Errorf("selection[%d]: %w", i, err)
		}
		p.add(c)
	}
	if len(refused) > 0 {
		return fmt.Errorf("%w: %s; only discovered or configured commands may run; the steps are: %s", ErrNotWhitelisted,
			strings.Join(refused, ", "), strings.Join(p.stepNames(), ", "))
	}
	for _, t := range []command.Tier{command.Tier1, command.Tier2} {
		if !p.tiers[t] {
			continue
		}
		if n := p.defaults(func(ct command.Tier) bool { return ct == t }); n > 0 {
			p.notes = append(p.notes, fmt.Sprintf("%s is selected: added its %d default step(s) to the selection", t, n))
		}
	}
	return nil
}

// stepNames are the names a selection may use: every discovered or
// configured command but the installs (they come with what needs them).
func (p *planner) stepNames() []string {
	var out []string
	for _, c := range p.caps.Commands {
		if c.Phase != command.PhaseInstall && !slices.Contains(out, c.Name) {
			out = append(out, c.Name)
		}
	}
	return out
}

func describe(s Selection) string {
	parts := []string{}
	if s.Name != "" {
		parts = append(parts, fmt.Sprintf("name %q", s.Name))
	}
	if s.Command != "" {
		parts = append(parts, fmt.Sprintf("command %q", s.Command))
	}
	if s.Workdir != "" {
		parts = append(parts, fmt.Sprintf("workdir %q", s.Workdir))
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// resolve finds the whitelisted command a selection means. Command text is
// compared with runs of spaces collapsed; nothing else is normalized, so a
// selection cannot smuggle extra arguments in.
func (p *planner) resolve(s Selection) (command.Command, error) {
	if s.Name == "" && s.Command == "" {
		return command.Command{}, fmt.Errorf("%w: an entry needs a name or a command", ErrBadSelection)
	}
	wd := ""
	if s.Workdir != "" {
		wd = path.Clean(s.Workdir)
	}
	var matches []command.Command
	for _, c := range p.caps.Commands {
		if s.Name != "" && c.Name != s.Name {
			continue
		}
		// The display matches too: it is the command a model was shown
		// (`python3 -m pytest` for the launcher that runs pytest).
		if s.Command != "" && squash(c.Command) != squash(s.Command) && (c.Display == "" || squash(c.Display) != squash(s.Command)) {
			continue
		}
		if wd != "" && path.Clean(c.Workdir) != wd {
			continue
		}
		matches = append(matches, c)
	}
	switch len(matches) {
	case 0:
		return command.Command{}, ErrNotWhitelisted
	case 1:
		return matches[0], nil
	}
	names := make([]string, len(matches))
	for i, m := range matches {
		names[i] = m.Name
	}
	return command.Command{}, fmt.Errorf("%w: %s matches several commands (%s); select by name", ErrBadSelection, describe(s), strings.Join(names, ", "))
}

func squash(s string) string { return strings.Join(strings.Fields(s), " ") }

// installs adds the install step of every subproject that has steps. A
// step's own kind of install comes first (a configured pipeline gets its
// configured install); when a configured pipeline installs nothing for a
// subproject whose dependencies discovery found, the discovered install is
// added, because the sandbox starts without dependencies.
func (p *planner) installs() {
	type key struct {
		root       string
		configured bool
	}
	need := map[key]bool{}
	for _, s := range p.steps {
		if s.Phase != command.PhaseInstall {
			need[key{s.Subproject, configuredOrigin(s)}] = true
			// A workspace member (or a package under a lockfile above
			// it) is installed by that root's install step.
			if n := p.nodeInfo(s.Subproject); n != nil && n.InstallRoot != "" {
				need[key{n.InstallRoot, configuredOrigin(s)}] = true
			}
		}
	}
	eligible := func(c command.Command) bool { return p.caps.Default[c.Name] || len(p.req.Selection) > 0 }
	covered := map[string]bool{}
	var added []string
	for _, c := range p.caps.Commands {
		if c.Phase == command.PhaseInstall && need[key{c.Subproject, configuredOrigin(c)}] && eligible(c) {
			covered[c.Subproject] = true
			if p.add(c) {
				added = append(added, c.Name)
			}
		}
	}
	for _, c := range p.caps.Commands {
		if c.Phase == command.PhaseInstall && !configuredOrigin(c) && need[key{c.Subproject, true}] && !covered[c.Subproject] && p.add(c) {
			p.notes = append(p.notes, fmt.Sprintf("the configured steps install nothing for %s; added the discovered install step %q (%s)", c.Subproject, c.Name, c.Command))
		}
	}
	if len(added) > 0 && len(p.req.Selection) > 0 {
		p.notes = append(p.notes, fmt.Sprintf("added install step(s) %s for the selected commands", strings.Join(added, ", ")))
	}
}

func configuredOrigin(c command.Command) bool {
	return c.Source.Origin != command.OriginDiscovered && c.Source.Origin != command.OriginDefault
}

// hardFailure makes sure a step can fail at L3 or above; when none can, it
// says so instead of pretending.
func (p *planner) hardFailure() {
	for _, s := range p.steps {
		if s.Level.Hard() {
			return
		}
	}
	var best *command.Command
	// Prefer a command of a subproject already in the pipeline, then the
	// strongest level, then a default command of a selected tier.
	score := func(c command.Command) int {
		s := int(c.Level) * 10
		if p.caps.Default[c.Name] {
			s += 4
		}
		if p.tiers[c.Tier] {
			s += 2
		}
		if slices.ContainsFunc(p.steps, func(st command.Command) bool { return st.Subproject == c.Subproject }) {
			s += 100
		}
		return s
	}
	for i, c := range p.caps.Commands {
		if c.Phase == command.PhaseInstall || !c.Level.Hard() || c.Optional {
			continue
		}
		if best == nil || score(c) > score(*best) {
			best = &p.caps.Commands[i]
		}
	}
	if best == nil {
		p.notes = append(p.notes, "L3 not reachable: no build, compile, startup or test command was found or configured, so this pipeline cannot fail hard; add a build or test step to greenlight.yaml")
		return
	}
	p.add(*best)
	why := "the selection has no hard-failure step (L3+)"
	if len(p.req.Selection) == 0 {
		why = "the selected tiers have no hard-failure step (L3+)"
	}
	p.notes = append(p.notes, fmt.Sprintf("%s: added %q (%s, %s)", why, best.Name, best.Level, best.Phase))
	p.installs()
}

// advisory lets the pipeline go on after an advisory (optional) step: its
// failure must never keep a required step from running.
func (p *planner) advisory() {
	for i := range p.steps {
		if p.steps[i].Optional {
			p.steps[i].ContinueOnFailure = true
		}
	}
}

// order puts installs first (network can be dropped after them), then, for
// discovered pipelines, phase by phase; a configured pipeline keeps the
// order its file gives.
func (p *planner) order() {
	index := map[string]int{}
	for i, c := range p.caps.Commands {
		index[c.Name] = i
	}
	configured := p.caps.Configured && len(p.req.Selection) == 0
	rank := func(c command.Command) int {
		switch {
		case c.Phase == command.PhaseInstall:
			return 0
		case c.Phase == command.PhaseSecurity:
			// Scans come right after the installs: a failing build or
			// test further on skips its scope's later steps, and a fix
			// run's baseline needs its findings to tell a patch's new ones.
			return 1
		case configured:
			return 1
		case c.Phase == command.PhaseUnspecified:
			return 100
		}
		return 1 + int(c.Phase)
	}
	sort.SliceStable(p.steps, func(i, j int) bool {
		ri, rj := rank(p.steps[i]), rank(p.steps[j])
		if ri != rj {
			return ri < rj
		}
		fi, iok := p.first[p.steps[i].Name]
		fj, jok := p.first[p.steps[j].Name]
		if iok != jok {
			return iok
		}
		if iok {
			return fi < fj
		}
		return index[p.steps[i].Name] < index[p.steps[j].Name]
	})
}

// images names each step's image and the pipeline's default image.
func (p *planner) images(out *Pipeline) {
	table := p.caps.Images.Layer(p.req.Images)
	noted := map[string]bool{}
	for i := range p.steps {
		s := &p.steps[i]
		runtime := s.Runtime
		if sp, ok := p.caps.SubprojectOf(*s); ok {
			runtime = sp.ImageRuntime
		}
		if runtime == "" {
			// A configured step outside every detected subproject (an
			// agent.yaml of shell steps) runs in the plain-shell image.
			runtime = detect.RuntimeGeneric
			if !noted["shell"] {
				noted["shell"] = true
				p.notes = append(p.notes, fmt.Sprintf("step %q belongs to no detected subproject: it runs in the %s image (images.%s)",
					s.Name, detect.RuntimeGeneric, detect.RuntimeGeneric))
			}
		}
		if rt, why := byNeed(*s, runtime, table); rt != "" {
			runtime = rt
			p.notes = append(p.notes, why)
		}
		img, note := table.Resolve(runtime)
		s.Image = img
		if note != "" && !noted[runtime] {
			noted[runtime] = true
			p.notes = append(p.notes, note)
		}
	}
	for _, sp := range p.caps.Subprojects {
		used := slices.ContainsFunc(p.steps, func(s command.Command) bool { return s.Subproject == sp.Root && s.Runtime == sp.Runtime })
		if used || len(p.steps) == 0 {
			out.Runtime = sp.Runtime
			out.Image, _ = table.Resolve(sp.ImageRuntime)
			break
		}
	}
	if out.Image == "" && len(p.steps) > 0 {
		out.Image = p.steps[0].Image
	}
	if out.Runtime == "" && len(p.steps) > 0 {
		out.Runtime = detect.RuntimeGeneric
	}
	if len(p.steps) == 0 {
		p.notes = append(p.notes, "nothing to run: no command was discovered or configured for this workspace")
	}
}

// configNotes flags a change that edits the file defining its own
// verification.
func (p *planner) configNotes() {
	for _, f := range p.req.ChangedFiles {
		for _, cf := range p.caps.Configs {
			if path.Clean(f) == cf.Path {
				p.notes = append(p.notes, fmt.Sprintf("%s is modified by this change: the verification configuration itself changed, review it", cf.Path))
			}
		}
	}
}

// checkRequestImages refuses a request image outside the server's
// allow-list (the error wraps image.ErrNotAllowed and names the list).
func checkRequestImages(caps *capability.Capabilities, req Request) error {
	for _, rt := range slices.Sorted(maps.Keys(req.Images)) {
		if err := caps.Allowed.Check(req.Images[rt]); err != nil {
			return fmt.Errorf("request images.%s: %w", rt, err)
		}
	}
	return nil
}
