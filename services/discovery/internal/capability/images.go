package capability

import (
	"fmt"
	"maps"
	"slices"

	"github.com/greenlight-dev/greenlight/pkg/image"
	"github.com/greenlight-dev/greenlight/services/discovery/internal/repoconfig"
)

// DefaultImages is the runtime -> sandbox image table used when nothing
// overrides it: pkg/image's offline defaults (Go, Python, Node, Rust, Java,
// C/C++ and generic; TypeScript resolves to Node).
func DefaultImages() map[string]string {
	return image.Defaults()
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

// Resolve returns the image for a runtime and a note when there is none.
func (t Images) Resolve(runtime string) (string, string) {
	img, err := image.Table(t).Lookup(runtime)
	if err != nil {
		return "", fmt.Sprintf("no sandbox image configured for runtime %q: set images.%s in greenlight.yaml or the server's --images", runtime, image.Canonical(runtime))
	}
	return img, ""
}

// checkConfigImages refuses an image a repository's configuration selects
// that is not on the server's allow-list, naming the file, line and key:
// a repository must not run its steps in any image the engine happens to
// hold (another service's, say).
func checkConfigImages(cfg *repoconfig.Config, allowed image.AllowList) error {
	for _, rt := range slices.Sorted(maps.Keys(cfg.Images)) {
		if err := allowed.Check(cfg.Images[rt]); err != nil {
			at := cfg.ImageAt[rt]
			return &repoconfig.Error{File: at.File, Line: at.Line, Key: at.Key, Msg: err.Error()}
		}
	}
	return nil
}
