package image

import (
	"errors"
	"fmt"
	"strings"
)

// Sentinel errors; match them with errors.Is.
var (
	// ErrUnknownRuntime means no image is configured for a runtime.
	ErrUnknownRuntime = errors.New("no sandbox image for runtime")
	// ErrInvalidReference means an image reference is malformed.
	ErrInvalidReference = errors.New("invalid image reference")
	// ErrImageMissing means the engine does not have the image locally.
	ErrImageMissing = errors.New("sandbox image not found")
)

// unknownRuntime explains how to get an image for a runtime the table lacks.
func unknownRuntime(runtime string, t Table) error {
	known := "none"
	if rs := t.Runtimes(); len(rs) > 0 {
		known = strings.Join(rs, ", ")
	}
	hint := ""
	if up, ok := Upstream()[runtime]; ok {
		hint = fmt.Sprintf(" (e.g. %s)", up)
	}
	if off, ok := Defaults()[runtime]; ok {
		return fmt.Errorf("%w %q (configured: %s): set images.%s in greenlight.yaml to %s, built by `%s`, "+
			"or to another image you have%s", ErrUnknownRuntime, runtime, known, runtime, off, BuildCommand(runtime), hint)
	}
	return fmt.Errorf("%w %q (configured: %s): greenlight has no offline image for it (`make images` builds %s): "+
		"set images.%s in greenlight.yaml to an image you have%s", ErrUnknownRuntime, runtime, known,
		strings.Join(Defaults().Runtimes(), ", "), runtime, hint)
}

// Missing wraps [ErrImageMissing] with what the user must do to get ref's
// image: build it for an offline image, pull it or configure another one
// otherwise. The executor calls it when the engine says the image is absent.
func Missing(ref Ref) error {
	if rt, ok := OfflineRuntime(ref.Image); ok {
		return fmt.Errorf("%w: %s for runtime %q: build it with `%s` in a source checkout, or as root in a "+
			"release archive's directory (bash scripts/ensure-docker.sh && bash images/build.sh %s)", ErrImageMissing, ref.Image, ref.Runtime, BuildCommand(rt), rt)
	}
	alt := fmt.Sprintf("set images.%s to an image the engine has", ref.Runtime)
	if d, ok := Defaults()[ref.Runtime]; ok {
		alt += fmt.Sprintf(", such as %s (built by `%s`)", d, BuildCommand(ref.Runtime))
	}
	return fmt.Errorf("%w: %s for runtime %q: run `docker pull %s` where a registry is reachable, or %s",
		ErrImageMissing, ref.Image, ref.Runtime, ref.Image, alt)
}
