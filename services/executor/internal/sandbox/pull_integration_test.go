package sandbox_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/greenlight-dev/greenlight/services/executor/internal/sandbox"
)

// unpullable is an image whose registry never resolves (.invalid, RFC 2606),
// so the pull fails the same way on every machine, connected or not.
const unpullable = "registry.invalid/greenlight/upstream:1"

// TestPullMissingImage: with PullMissing (upstream images) the executor
// asks the real engine to pull an image it lacks, and a registry it cannot
// reach is said to be unreachable, with the way back to the offline
// images; without it nothing is pulled and the error says how to build
// the image.
func TestPullMissingImage(t *testing.T) {
	for _, pull := range []bool{true, false} {
		h := newHarness(t, func(c *sandbox.Config) { c.PullMissing = pull })
		req := h.request(nil, step("hello", "echo hello"))
		req.Image = unpullable
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		_, err := h.runner.Run(ctx, req, (&events{}).sink)
		cancel()
		t.Logf("pull=%v: %v", pull, err)
		if !errors.Is(err, sandbox.ErrImageNotFound) {
			t.Fatalf("pull=%v: Run = %v, want ErrImageNotFound", pull, err)
		}
		want := []string{"run `docker pull registry.invalid/greenlight/upstream:1`"}
		if pull {
			want = []string{"registry is unreachable", "registry.invalid", "--images offline", "GREENLIGHT_IMAGES=offline"}
		}
		for _, w := range want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("pull=%v: error lacks %q: %v", pull, w, err)
			}
		}
	}
}
