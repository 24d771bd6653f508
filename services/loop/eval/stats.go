package eval

import (
	"math"
	"sort"
	"time"

	"google.golang.org/protobuf/types/known/durationpb"
)

// PassAtK is the unbiased pass@k estimator for n samples of which c
// passed: 1 − C(n−c, k)/C(n, k), computed as a product to stay exact for
// large n. It is 0 when k > n (not estimable) or n == 0.
func PassAtK(n, c, k int) float64 {
	if n <= 0 || k <= 0 || k > n {
		return 0
	}
	if n-c < k {
		return 1
	}
	p := 1.0
	for i := n - c + 1; i <= n; i++ {
		p *= 1 - float64(k)/float64(i)
	}
	return 1 - p
}

// median returns the median of xs (0 for none).
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	m := len(s) / 2
	if len(s)%2 == 1 {
		return s[m]
	}
	return (s[m-1] + s[m]) / 2
}

// round3 keeps reports readable.
func round3(x float64) float64 { return math.Round(x*1000) / 1000 }

func durationProto(d time.Duration) *durationpb.Duration { return durationpb.New(d) }
