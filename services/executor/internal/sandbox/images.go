package sandbox

import (
	"fmt"
	"strings"
)

// offlineImagePrefix starts the names of the images `make images` builds.
const offlineImagePrefix = "greenlight/sandbox-"

// missingImage says what to do about an image the engine lacks: build an
// offline one with `make images IMAGES=<runtime>`, else pull it or
// configure another image for the runtime.
func missingImage(ref, runtime string) string {
	rt := runtime
	if rt == "" {
		rt = "<runtime>"
	}
	if strings.HasPrefix(ref, offlineImagePrefix) {
		name := strings.TrimPrefix(ref, offlineImagePrefix)
		name, _, _ = strings.Cut(name, ":")
		return fmt.Sprintf("sandbox image %s for runtime %q is not in the engine: build it with `make images IMAGES=%s`", ref, rt, name)
	}
	return fmt.Sprintf("sandbox image %s for runtime %q is not in the engine: run `docker pull %s` where a registry is reachable, "+
		"or configure images.%s (greenlight.yaml or the server's --images) to an image the engine has", ref, rt, ref, rt)
}

// runtimeOf is the runtime a step's image serves.
func (r *Request) runtimeOf(s *Step) string {
	if s.Runtime != "" {
		return s.Runtime
	}
	return r.Runtime
}
