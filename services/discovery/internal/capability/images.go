package capability

import (
	"fmt"
	"maps"
	"sort"
)

// DefaultImages is the runtime -> sandbox image table used when nothing
// overrides it: the offline images `make images` builds for Go, Python and
// Node, and upstream names for runtimes without an offline image.
// (pkg/image, when it lands, should become the single source of this table.)
func DefaultImages() map[string]string {
	return map[string]string{
		"go":         "greenlight/sandbox-go:latest",
		"python":     "greenlight/sandbox-python:latest",
		"node":       "greenlight/sandbox-node:latest",
		"typescript": "greenlight/sandbox-node:latest",
		"rust":       "rust:1-slim",
		"java":       "maven:3-eclipse-temurin-21",
	}
}

// offline lists the runtimes whose default image `make images` builds.
var offline = map[string]bool{"go": true, "python": true, "node": true, "typescript": true}

// Images resolves runtime names to sandbox images.
type Images map[string]string

// Layer returns a copy of t with the entries of each override applied in
// order (later wins).
func (t Images) Layer(overrides ...map[string]string) Images {
	out := maps.Clone(t)
	if out == nil {
		out = Images{}
	}
	for _, o := range overrides {
		for k, v := range o {
			if v != "" {
				out[k] = v
			}
		}
	}
	return out
}

// Resolve returns the image for a runtime ("typescript" falls back to
// "node"), and a note when the image is an upstream default that no offline
// recipe builds, or when there is none.
func (t Images) Resolve(runtime string) (string, string) {
	img, ok := t[runtime]
	if !ok && runtime == "typescript" {
		img, ok = t["node"]
	}
	if !ok || img == "" {
		return "", fmt.Sprintf("no sandbox image configured for runtime %q: set images.%s in greenlight.yaml or the server's image table", runtime, runtime)
	}
	if def, isDefault := DefaultImages()[runtime]; isDefault && def == img && !offline[runtime] {
		return img, fmt.Sprintf("runtime %q uses the upstream image %s: `make images` builds no offline equivalent, so it must already be present in the engine", runtime, img)
	}
	return img, ""
}

// Sorted returns the table's runtimes in order, for stable output.
func (t Images) Sorted() []string {
	keys := make([]string, 0, len(t))
	for k := range t {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
