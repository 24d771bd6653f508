package image

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Upstream image for Java ([Upstream]'s), and the public Maven image,
// which a connected Java user may prefer (eclipse-temurin has no mvn).
const (
	UpstreamJava  = "eclipse-temurin:21-jdk"
	UpstreamMaven = "maven:3-eclipse-temurin-21"
)

// ErrNotAllowed marks an image a repository or request selected that is
// not on the server's allow-list.
var ErrNotAllowed = errors.New("image not allowed")

// DefaultAllowed lists the images allowed besides a server's own runtime
// table when nothing else is configured: the public images greenlight's
// own messages suggest ([Upstream]) and [UpstreamMaven].
func DefaultAllowed() []string {
	out := append(slices.Collect(maps.Values(Upstream())), UpstreamMaven)
	slices.Sort(out)
	return out
}

// AllowList is the set of images a repository's configuration or a request
// may select: the server's configured runtime table plus images an operator
// named explicitly. References match exactly ("python:3.12-slim" does not
// allow "docker.io/library/python:3.12-slim").
type AllowList struct {
	refs map[string]bool
}

// NewAllowList allows every image of table and every non-empty entry of extra.
func NewAllowList(table Table, extra ...string) AllowList {
	a := AllowList{refs: map[string]bool{}}
	for _, ref := range table {
		if ref != "" {
			a.refs[ref] = true
		}
	}
	for _, ref := range extra {
		if ref = strings.TrimSpace(ref); ref != "" {
			a.refs[ref] = true
		}
	}
	return a
}

// Allows reports whether ref is on the list.
func (a AllowList) Allows(ref string) bool { return a.refs[ref] }

// String lists the allowed images, sorted and comma-separated.
func (a AllowList) String() string {
	if len(a.refs) == 0 {
		return "none"
	}
	return strings.Join(slices.Sorted(maps.Keys(a.refs)), ", ")
}

// Check returns nil when ref is allowed, else an error wrapping
// ErrNotAllowed that names the image and the list, and says who can change it.
func (a AllowList) Check(ref string) error {
	if a.Allows(ref) {
		return nil
	}
	return fmt.Errorf("%w: %q is not on the server's image allow-list (%s): use one of those, "+
		"or ask the operator to add it (--allowed-images)", ErrNotAllowed, ref, a)
}
