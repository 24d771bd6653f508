package packs

import (
	"regexp"
	"testing"
)

// TestEveryPackIsComplete is what a new pack must pass: a unique name, an
// offline image, manifests no other pack claims, a parser format when it
// has a parser, and a definition pattern that compiles.
func TestEveryPackIsComplete(t *testing.T) {
	names, manifests := map[string]bool{}, map[string]string{}
	for _, p := range Registry.All() {
		s := p.Spec()
		if s.Name == "" || names[s.Name] {
			t.Fatalf("pack name %q empty or registered twice", s.Name)
		}
		names[s.Name] = true
		if s.Image.Offline == "" || len(s.Manifests) == 0 {
			t.Errorf("%s: needs an offline image and at least one manifest", s.Name)
		}
		for _, m := range s.Manifests {
			if other, ok := manifests[m]; ok {
				t.Errorf("%s: manifest %s already belongs to %s", s.Name, m, other)
			}
			manifests[m] = s.Name
		}
		if p.NewParser(nil) != nil && s.Format == "" {
			t.Errorf("%s: a parser needs a Format name", s.Name)
		}
		if s.DefinitionPattern != "" {
			if _, err := regexp.Compile(s.DefinitionPattern); err != nil {
				t.Errorf("%s: DefinitionPattern: %v", s.Name, err)
			}
		}
		if got, ok := Registry.Lookup(s.Name); !ok || got.Spec() != s {
			t.Errorf("%s: Lookup by name fails", s.Name)
		}
		for _, a := range s.Aliases {
			if got, ok := Registry.Lookup(a); !ok || got.Spec() != s {
				t.Errorf("%s: Lookup by alias %q fails", s.Name, a)
			}
		}
	}
	if len(names) == 0 {
		t.Fatal("no pack registered")
	}
}
