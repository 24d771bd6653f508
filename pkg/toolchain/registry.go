package toolchain

import "slices"

// Registry is an ordered set of packs. Services ask it instead of knowing
// toolchains by name.
type Registry struct {
	packs []Pack
}

// NewRegistry returns a registry of packs, in the order given.
func NewRegistry(packs ...Pack) *Registry {
	return &Registry{packs: slices.Clone(packs)}
}

// All returns the packs in registration order.
func (r *Registry) All() []Pack { return slices.Clone(r.packs) }

// Lookup returns the pack of a canonical runtime name or alias.
func (r *Registry) Lookup(name string) (Pack, bool) {
	for _, p := range r.packs {
		s := p.Spec()
		if s.Name == name || slices.Contains(s.Aliases, name) {
			return p, true
		}
	}
	return nil, false
}

// ByManifest returns the pack whose manifest base name is base.
func (r *Registry) ByManifest(base string) (Pack, bool) {
	for _, p := range r.packs {
		if slices.Contains(p.Spec().Manifests, base) {
			return p, true
		}
	}
	return nil, false
}

// Collect gathers one list field from every pack's spec, in order.
func (r *Registry) Collect(field func(*Spec) []string) []string {
	var out []string
	for _, p := range r.packs {
		out = append(out, field(p.Spec())...)
	}
	return out
}

// Set gathers one list field from every pack's spec as a set.
func (r *Registry) Set(field func(*Spec) []string) map[string]bool {
	out := map[string]bool{}
	for _, s := range r.Collect(field) {
		out[s] = true
	}
	return out
}
