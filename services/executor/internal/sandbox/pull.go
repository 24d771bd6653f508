package sandbox

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"
)

// Puller is a Runtime that can fetch an image from its registry. Only the
// Docker runtime is one; the executor pulls only when Config.PullMissing
// says so (upstream images), never greenlight's offline images, which no
// registry holds.
type Puller interface {
	Pull(ctx context.Context, ref string) error
}

// offlinePrefix names greenlight's offline images, which `make images`
// builds and no registry holds.
const offlinePrefix = "greenlight/sandbox-"

// pullTimeout bounds one image pull.
const pullTimeout = 10 * time.Minute

// unreachableRegistry matches a pull error that never reached the
// registry: a name that does not resolve, a connection that fails, a
// certificate that is not trusted.
var unreachableRegistry = regexp.MustCompile(`no such host|lookup \S+|Temporary failure in name resolution|` +
	`connection refused|network is unreachable|i/o timeout|TLS handshake timeout|x509:|proxyconnect`)

// pullMissing fetches ref when the configuration allows it, after the
// engine said it lacks the image. It returns nil when the image is now
// there, else an ErrImageNotFound error that says what happened and how
// to go back to the offline images.
func (rn *run) pullMissing(outer context.Context, ref string, notFound error) error {
	p, ok := rn.r.rt.(Puller)
	if !rn.r.cfg.PullMissing || !ok || strings.HasPrefix(ref, offlinePrefix) {
		return notFound
	}
	ctx, cancel := context.WithTimeout(outer, pullTimeout)
	defer cancel()
	err := p.Pull(ctx, ref)
	if err == nil {
		return nil
	}
	if outer.Err() != nil {
		return outer.Err()
	}
	back := "use the offline images instead: build them with `make images` and run with --images offline " +
		"(GREENLIGHT_IMAGES=offline; the standalone executor's and discovery's default)"
	if unreachableRegistry.MatchString(err.Error()) || errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("%w: image %s is not in the engine and its registry is unreachable (%v): %s", ErrImageNotFound, ref, err, back)
	}
	return fmt.Errorf("%w: image %s is not in the engine and pulling it failed (%v): %s", ErrImageNotFound, ref, err, back)
}
