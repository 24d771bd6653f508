package provider

import (
	"context"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// maxRetryAfter caps a server's Retry-After, so that a hostile or broken
// server cannot park a run for hours.
const maxRetryAfter = 60 * time.Second

// backoff returns the delay before retry number try (0-based): the
// server's Retry-After when it gave one, else base doubled per try with
// up to 50% jitter, capped at limit.
func backoff(base, limit time.Duration, try int, retryAfter time.Duration) time.Duration {
	if retryAfter > 0 {
		return min(retryAfter, maxRetryAfter)
	}
	d := base << min(try, 20)
	if d <= 0 || d > limit {
		d = limit
	}
	return d/2 + time.Duration(rand.Int64N(int64(d/2)+1))
}

// retryAfter parses a Retry-After header: seconds or an HTTP date.
func retryAfter(h string) time.Duration {
	h = strings.TrimSpace(h)
	if h == "" {
		return 0
	}
	if s, err := strconv.ParseFloat(h, 64); err == nil && s >= 0 {
		return time.Duration(s * float64(time.Second))
	}
	if t, err := http.ParseTime(h); err == nil {
		return max(time.Until(t), 0)
	}
	return 0
}

// sleep waits for d or the context's end.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
