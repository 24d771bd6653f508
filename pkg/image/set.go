package image

import "fmt"

// Image sets a server may run every runtime in. A set is server (or CLI)
// configuration, never a repository's: greenlight.yaml may only pick
// single images from the allow-list.
const (
	// SetOffline is [Defaults]: the images `make images` builds, no
	// registry needed.
	SetOffline = "offline"
	// SetUpstream is [Upstream] over [Defaults]: the public images, pulled
	// from their registry when the engine lacks them; a runtime without
	// one keeps its offline image.
	SetUpstream = "upstream"
)

// Set returns the table of an image set by name ("" is offline). An
// unknown name is an error that lists the sets.
func Set(name string) (Table, error) {
	switch name {
	case "", SetOffline:
		return Defaults(), nil
	case SetUpstream:
		// A runtime without a public image keeps its offline one.
		return Defaults().Merge(Upstream()), nil
	}
	return nil, fmt.Errorf("unknown image set %q: want %s (the images `make images` builds, no registry needed) "+
		"or %s (public images such as %s, pulled from their registry)", name, SetOffline, SetUpstream, Upstream()[Node])
}
