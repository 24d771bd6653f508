package sandbox

import (
	"fmt"
	"strings"

	"github.com/greenlight-dev/greenlight/pkg/image"
)

// missingImage is the error for a step image the engine does not have. An
// offline image names the command that builds just it (`make images
// IMAGES=rust`), whatever runtime the pipeline is for: in a polyglot run the
// image, not the pipeline's runtime, says what is missing. Any other image
// is pulled or replaced in configuration.
func missingImage(ref, runtime string) error {
	if rt, ok := image.OfflineRuntime(ref); ok {
		return fmt.Errorf("%w: image %s (runtime %q) not found: build it with `%s` "+
			"(from a release archive's directory: `bash images/build.sh %s` as root), or configure images.%s",
			ErrImageNotFound, ref, rt, image.BuildCommand(rt), rt, rt)
	}
	if runtime == "" {
		runtime = "<runtime>"
	}
	if name, ok := strings.CutPrefix(ref, "greenlight/sandbox-"); ok {
		// An offline image name pkg/image does not know (a recipe added
		// under images/ later): the recipe directory is its name.
		name, _, _ = strings.Cut(name, ":")
		return fmt.Errorf("%w: image %s (runtime %q) not found: build it with `make images IMAGES=%s` "+
			"(or configure images.%s)", ErrImageNotFound, ref, runtime, name, image.Canonical(runtime))
	}
	return fmt.Errorf("%w: image %s not found: run `docker pull %s` where a registry is reachable, "+
		"or configure images.%s", ErrImageNotFound, ref, ref, image.Canonical(runtime))
}

// rebuildCommand is the command that rebuilds an image: `make images
// IMAGES=<runtime>` for an offline one, `make images` otherwise.
func rebuildCommand(ref string) string {
	if rt, ok := image.OfflineRuntime(ref); ok {
		return image.BuildCommand(rt)
	}
	return "make images"
}
