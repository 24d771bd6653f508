package parse

// Outcome is one test's entry in a step's inventory: its id and how it
// ended. Unlike Test records, which are capped (Limits.MaxTests), the
// inventory lists every counted test up to Limits.MaxInventory, so two
// verifications can be compared test by test.
type Outcome struct {
	ID     string
	Status Status
	// Flaky: failed, then passed on re-run (counted as passed).
	Flaky bool
}

// Passed reports whether the test counts as passing (flaky ones did on
// re-run).
func (o Outcome) Passed() bool { return o.Status == StatusPassed || o.Flaky }

// Failing reports whether the test failed or errored (and was not flaky).
func (o Outcome) Failing() bool { return o.Status.failing() && !o.Flaky }

// note adds a counted test to the inventory while there is room.
func (s *testSet) note(id string, st Status) {
	if len(s.inv) >= s.lim.MaxInventory {
		s.invCut++
		return
	}
	s.inv = append(s.inv, Outcome{ID: id, Status: st})
}

// inventoryOf returns a set's inventory and whether it lists every test
// the set counted (a runner's summary may count tests it never named).
func inventoryOf(s *testSet) ([]Outcome, bool) {
	return s.inv, s.invCut == 0 && len(s.inv) >= s.final().Total()
}

// markInventoryFlaky sets Flaky on the inventory entries of ids.
func (r *StepReport) markInventoryFlaky(ids []string) {
	if len(ids) == 0 {
		return
	}
	set := make(map[string]bool, len(ids))
	for _, id := range ids {
		set[id] = true
	}
	for i := range r.Inventory {
		if set[r.Inventory[i].ID] && r.Inventory[i].Status.failing() {
			r.Inventory[i].Flaky = true
		}
	}
}
