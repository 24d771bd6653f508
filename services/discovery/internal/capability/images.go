package capability

import (
	"fmt"

	"github.com/greenlight-dev/greenlight/pkg/image"
)

// Upstream images for runtimes without an offline recipe: `make images`
// builds none for them, so they must already be in the engine.
const (
	RustImage = "rust:1-slim"
	JavaImage = "maven:3-eclipse-temurin-21"
)

// DefaultImages is the runtime -> sandbox image table used when nothing
// overrides it: pkg/image's offline defaults (Go, Python, Node; TypeScript
// resolves to Node) plus upstream names for Rust and Java.
func DefaultImages() map[string]string {
	t := image.Defaults()
	t["rust"] = RustImage
	t["java"] = JavaImage
	return t
}

// Images resolves runtime names to sandbox images.
type Images map[string]string

// Layer returns a copy of t with the entries of each override applied in
// order (later wins); runtime names are canonicalised by pkg/image, so
// "golang" overrides "go".
func (t Images) Layer(overrides ...map[string]string) Images {
	tables := make([]image.Table, len(overrides))
	for i, o := range overrides {
		tables[i] = image.Table(o)
	}
	return Images(image.Table(t).Merge(tables...))
}

// Resolve returns the image for a runtime and a note when it is an upstream
// default no offline recipe builds, or when there is none.
func (t Images) Resolve(runtime string) (string, string) {
	img, err := image.Table(t).Lookup(runtime)
	if err != nil {
		return "", fmt.Sprintf("no sandbox image configured for runtime %q: set images.%s in greenlight.yaml or the server's --images", runtime, image.Canonical(runtime))
	}
	if img == RustImage || img == JavaImage {
		return img, fmt.Sprintf("runtime %q uses the upstream image %s: `make images` builds no offline equivalent, so it must already be present in the engine", runtime, img)
	}
	return img, ""
}
