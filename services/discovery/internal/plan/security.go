package plan

import (
	"fmt"

	"github.com/greenlight-dev/greenlight/services/discovery/internal/command"
)

// SecurityMode is the security phase a verification asks for
// (VerifyOptions.security).
type SecurityMode int

const (
	// SecurityUnspecified plans only the scans greenlight.yaml names.
	SecurityUnspecified SecurityMode = iota
	// SecurityAdvisory plans every scan as advisory: findings are
	// reported and scored, never in the verdict.
	SecurityAdvisory
	// SecurityRequired plans every scan as required: a finding fails the
	// verdict.
	SecurityRequired
)

// security adds the security steps the request asks for, one set per
// subproject (command.Security). A scan greenlight.yaml already planned
// keeps its own mode unless the request requires it: the caller can add
// or require scans, never demote one the repository requires.
func (p *planner) security() {
	mode := p.req.Security
	if mode == SecurityUnspecified {
		return
	}
	seen := map[string]bool{}
	n := 0
	for _, sp := range p.caps.Subprojects {
		for _, c := range command.Security(sp.Subproject) {
			if seen[c.Name] {
				continue // a root shared by two runtimes (cpp and make)
			}
			seen[c.Name] = true
			if i := p.stepIndex(c.Name); i >= 0 {
				if mode == SecurityRequired && p.steps[i].Optional {
					p.steps[i].Optional = false
					p.steps[i].RequiredBy = &command.Source{Key: "security", Origin: command.OriginRequest}
				}
				continue
			}
			c.Optional = mode == SecurityAdvisory
			c.ContinueOnFailure = true
			if mode == SecurityRequired {
				c.RequiredBy = &command.Source{Key: "security", Origin: command.OriginRequest}
			}
			if p.add(c) {
				n++
			}
		}
	}
	if n > 0 {
		word := map[SecurityMode]string{SecurityAdvisory: "advisory", SecurityRequired: "required"}[mode]
		p.notes = append(p.notes, fmt.Sprintf("security phase asked for: %d %s scan step(s) planned", n, word))
	}
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
