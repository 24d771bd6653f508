package image

import "fmt"

// Source tells where a resolved image reference came from.
type Source string

const (
	// SourceDefault means the built-in offline table chose the image.
	SourceDefault Source = "default"
	// SourceOverride means configuration or the request chose the image.
	SourceOverride Source = "override"
)

// Ref is the image chosen for a runtime.
type Ref struct {
	// Runtime is the canonical runtime name.
	Runtime string
	// Image is the image reference, e.g. "greenlight/sandbox-go:latest".
	Image string
	// Source says whether it is the default or an override.
	Source Source
}

// String returns the image reference.
func (r Ref) String() string { return r.Image }

// Offline reports whether the reference is one of greenlight's offline
// images, which `make images` can build.
func (r Ref) Offline() bool {
	return r.Image == Defaults()[r.Runtime]
}

// Resolve picks the image for a runtime: the last override table that names
// it wins, else [Defaults]. The reference is validated. Errors wrap
// [ErrUnknownRuntime] or [ErrInvalidReference].
func Resolve(runtime string, overrides ...Table) (Ref, error) {
	r := Canonical(runtime)
	merged := Defaults().Merge(overrides...)
	img, err := merged.Lookup(r)
	if err != nil {
		return Ref{}, err
	}
	if err := ValidateReference(img); err != nil {
		return Ref{}, fmt.Errorf("images.%s: %w", r, err)
	}
	src := SourceDefault
	if overridden(r, overrides) {
		src = SourceOverride
	}
	return Ref{Runtime: r, Image: img, Source: src}, nil
}

// overridden reports whether any override table names the runtime.
func overridden(runtime string, overrides []Table) bool {
	for _, o := range overrides {
		for k, v := range o {
			if v != "" && Canonical(k) == runtime {
				return true
			}
		}
	}
	return false
}
