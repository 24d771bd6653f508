package transition

import (
	"github.com/greenlight-dev/greenlight/services/loop/internal/parse"
	"github.com/greenlight-dev/greenlight/services/loop/internal/score"
	"github.com/greenlight-dev/greenlight/services/loop/internal/verdict"
)

// Side is one verification seen test by test.
type Side struct {
	// Tests by key (step and id).
	Tests map[Key]parse.Outcome
	// Required lists the required steps in pipeline order with whether
	// they passed.
	Required []StepState
	// Complete: every test step that ran listed every test it counted.
	Complete bool
}

// Key identifies a test across verifications of one pinned pipeline.
type Key struct{ Step, ID string }

// StepState is a required step's outcome.
type StepState struct {
	Name   string
	Passed bool
}

// SideOf reads a verification's step outcomes. Optional steps are left
// out: they never decide a verdict, so they never decide a resolution.
func SideOf(steps []score.StepOutcome) *Side {
	s := &Side{Tests: map[Key]parse.Outcome{}, Complete: true}
	for _, o := range steps {
		if o.Optional() {
			continue
		}
		name := o.Step.GetName()
		s.Required = append(s.Required, StepState{Name: name, Passed: verdict.StepPassed(o)})
		r := o.Report
		if r == nil || !r.HasTests {
			continue
		}
		if !r.InventoryComplete {
			s.Complete = false
		}
		for _, t := range r.Inventory {
			k := Key{Step: name, ID: t.ID}
			if prev, dup := s.Tests[k]; dup && !prev.Passed() {
				continue // a repeated id (a matrix) keeps its failing run
			}
			s.Tests[k] = t
		}
	}
	return s
}
