package transition

import "github.com/greenlight-dev/greenlight/services/loop/internal/verdict"

// Named returns the keys of the tests a target id names in s, by the rules
// FixTargets ids follow (see goal.match): the ids it matches, else the
// tests it is a parent of (subtests, parametrized cases). None: the id
// names no test of s (a missing target).
func (s *Side) Named(id string) []Key {
	var exact, children []Key
	for k := range s.Tests {
		switch {
		case matches(k.ID, id):
			exact = append(exact, k)
		case parentOf(k.ID, id):
			children = append(children, k)
		}
	}
	if len(exact) > 0 {
		return exact
	}
	return children
}

// Passing reports whether the test of key k ran in s and passed (a flaky
// one passed on re-run).
func (s *Side) Passing(k Key) bool {
	o, ok := s.Tests[k]
	return verdict.StateOf(o, ok) == verdict.Passing
}
