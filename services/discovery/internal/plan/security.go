package plan

import (
	"fmt"
	"slices"
	"strings"

	"github.com/greenlight-dev/greenlight/services/discovery/internal/capability"
	"github.com/greenlight-dev/greenlight/services/discovery/internal/command"
	"github.com/greenlight-dev/greenlight/services/discovery/internal/repoconfig"
)

// SecurityMode is the security phase a verification asks for
// (VerifyOptions.security).
type SecurityMode int

const (
	// SecurityUnspecified takes greenlight.yaml's security mode, else
	// advisory; a request that selects its steps plans no scan.
	SecurityUnspecified SecurityMode = iota
	// SecurityAdvisory plans every scan as advisory: findings are
	// reported and scored, never in the verdict.
	SecurityAdvisory
	// SecurityRequired plans every scan as required: a finding fails the
	// verdict.
	SecurityRequired
	// SecurityOff plans none of greenlight's own scans; a scan
	// greenlight.yaml names still runs.
	SecurityOff
)

// securityMode is the mode this plan runs greenlight's scans in. A
// repository that requires them keeps them required whatever the request
// says (a caller never demotes what the repository requires); otherwise
// the request's explicit mode, then greenlight.yaml's, then advisory, the
// default of issue 27 (findings reported, the verdict untouched). A
// request that selects its steps (a model's choice, `verify --step`) gets
// only what it or the repository asks for: the default never adds steps
// to a selection.
func (p *planner) securityMode() (mode SecurityMode, byDefault bool) {
	repo := map[string]SecurityMode{
		repoconfig.SecurityAdvisory: SecurityAdvisory,
		repoconfig.SecurityRequired: SecurityRequired,
		repoconfig.SecurityOff:      SecurityOff,
	}[p.caps.Security]
	switch {
	case repo == SecurityRequired:
		return SecurityRequired, false
	case p.req.Security != SecurityUnspecified:
		return p.req.Security, false
	case repo != SecurityUnspecified:
		return repo, false
	case len(p.req.Selection) > 0:
		return SecurityOff, false
	}
	return SecurityAdvisory, true
}

// scanPlan is what security() learns while it walks the subprojects.
type scanPlan struct {
	mode      SecurityMode
	byDefault bool
	seen      map[string]bool
	scanned   map[string][]string // scan -> the roots it covers
	later     []string            // heavy scans left to their tier
	added     int
}

// security adds the security steps the plan's mode asks for, one set per
// subproject (command.Security). A scan greenlight.yaml already planned
// keeps its own mode unless the mode is required: the caller can add or
// require scans, never demote one the repository requires.
func (p *planner) security() {
	mode, byDefault := p.securityMode()
	if mode == SecurityOff {
		return
	}
	sp := &scanPlan{mode: mode, byDefault: byDefault, seen: map[string]bool{}, scanned: map[string][]string{}}
	// Enclosing roots first, so one scan at "." stands for every nested one.
	subs := slices.Clone(p.caps.Subprojects)
	slices.SortStableFunc(subs, func(a, b capability.Subproject) int { return len(a.Root) - len(b.Root) })
	for _, sub := range subs {
		for _, c := range command.Security(sub.Subproject) {
			p.planScan(sp, c, sub.Root)
		}
	}
	p.securityNotes(sp)
}

// planScan adds one scan of the subproject at root, unless an enclosing
// root's scan reads its files already or, by default, its tier is not
// selected; a scan already planned is required if the mode says so.
func (p *planner) planScan(sp *scanPlan, c command.Command, root string) {
	if sp.seen[c.Name] {
		return // a root shared by two runtimes (cpp and make)
	}
	sp.seen[c.Name] = true
	scan := c.Name[strings.LastIndex(c.Name, ":")+1:]
	if !command.ModuleScoped[scan] && covered(sp.scanned[scan], root) && p.stepIndex(c.Name) < 0 {
		return // the scan of an enclosing root reads these files already
	}
	sp.scanned[scan] = append(sp.scanned[scan], root)
	if w, ok := p.whitelisted(c.Name); ok {
		c = w // as greenlight.yaml's required or advisory list has it
	} else if sp.byDefault && c.Tier != command.TierUnspecified && !p.tiers[c.Tier] {
		sp.later = append(sp.later, c.Name)
		return // a heavy scan waits for its tier unless asked for
	}
	if c.Timeout == 0 {
		c.Timeout = p.caps.SecurityTimeout
	}
	required := &command.Source{Key: "security", Origin: command.OriginRequest}
	if i := p.stepIndex(c.Name); i >= 0 {
		if sp.mode == SecurityRequired && p.steps[i].Optional {
			p.steps[i].Optional, p.steps[i].RequiredBy = false, required
		}
		return
	}
	c.Optional = sp.mode == SecurityAdvisory
	c.ContinueOnFailure = true
	if sp.mode == SecurityRequired {
		c.RequiredBy = required
	}
	if p.add(c) {
		sp.added++
	}
}

// securityNotes says what the security phase planned and what it left to
// a later tier.
func (p *planner) securityNotes(sp *scanPlan) {
	if len(sp.later) > 0 {
		p.notes = append(p.notes, fmt.Sprintf("security scan(s) %s not planned: tier 1, not selected (--security advisory plans them anyway)", strings.Join(sp.later, ", ")))
	}
	if sp.added == 0 {
		return
	}
	word := map[SecurityMode]string{SecurityAdvisory: "advisory", SecurityRequired: "required"}[sp.mode]
	why := "asked for"
	if sp.byDefault {
		why = "by default (security: off in greenlight.yaml or --security off skips it)"
	}
	p.notes = append(p.notes, fmt.Sprintf("security phase %s: %d %s scan step(s) planned", why, sp.added, word))
}

// covered reports whether root lies inside one of roots (the scans are
// recursive: one at "." reads every subproject).
func covered(roots []string, root string) bool {
	for _, r := range roots {
		if r == "." || r == root || strings.HasPrefix(root, strings.TrimSuffix(r, "/")+"/") {
			return true
		}
	}
	return false
}

// whitelisted is the whitelist's command named name.
func (p *planner) whitelisted(name string) (command.Command, bool) {
	for _, c := range p.caps.Commands {
		if c.Name == name {
			return c, true
		}
	}
	return command.Command{}, false
}

// stepIndex is the index of the planned step named name, or -1.
func (p *planner) stepIndex(name string) int {
	for i := range p.steps {
		if p.steps[i].Name == name {
			return i
		}
	}
	return -1
}
