package limit

import (
	"math"
	"net/http"
	"slices"
	"strconv"
)

// Middleware limits requests per remote IP; a refused request gets 429 and
// Retry-After in whole seconds (at least 1). open lists paths never limited.
func (l *Limiter) Middleware(next http.Handler, open ...string) http.Handler {
	if l == nil {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if slices.Contains(open, r.URL.Path) {
			next.ServeHTTP(w, r)
			return
		}
		ok, wait := l.Allow(hostOf(r.RemoteAddr))
		if ok {
			next.ServeHTTP(w, r)
			return
		}
		w.Header().Set("Retry-After", strconv.Itoa(int(math.Ceil(wait.Seconds()))))
		http.Error(w, "rate limit exceeded", http.StatusTooManyRequests)
	})
}
