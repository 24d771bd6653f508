package transition

import glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"

// Probed lists how the tests a fail-fast probe ran moved from base: only
// those tests (keyed by the steps the probe narrowed), since nothing else
// ran. The result is never complete and never graded (resolution
// UNSPECIFIED): the patched code was not verified as a whole.
func Probed(base, probed *Side) *glv1.Transitions {
	out := &glv1.Transitions{}
	keys := unionKeys(&Side{}, probed)
	list(out, base, probed, keys, func(Key) bool { return false })
	return out
}
