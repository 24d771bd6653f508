// Package locate ranks likely fault locations from parsed failures and cuts
// numbered code windows around them for the repair loop.
//
// Ranking uses only what execution printed: the project frames of each
// failure (stack traces, tracebacks, compiler positions), nearest the
// failure first. Frames in the standard library, site-packages,
// node_modules, GOROOT or the module cache were already marked non-project
// by the parser and are ignored here.
package locate

import (
	"sort"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/loop/internal/parse"
)

// Location is one candidate fault location.
type Location struct {
	// File is relative to the workspace root.
	File string
	Line int
	// Score orders locations; higher is more likely.
	Score float64
	// Test is the failing test that pointed here first ("" for build/lint errors).
	Test string
	// Kind is the kind of the first failure that pointed here.
	Kind glv1.FailureKind
	// Definition marks the definition of a function a failing test calls
	// (its window shows the body, not the lines around).
	Definition bool
	// Whole marks a small source file shown whole (the test file's
	// sibling by naming convention).
	Whole bool
}

// kindWeight says how directly a failure kind points at the faulty code.
func kindWeight(k glv1.FailureKind) float64 {
	switch k {
	case glv1.FailureKind_FAILURE_KIND_COMPILE, glv1.FailureKind_FAILURE_KIND_TYPECHECK:
		return 1.2 // the compiler names the line
	case glv1.FailureKind_FAILURE_KIND_CRASH, glv1.FailureKind_FAILURE_KIND_TEST_ERROR, glv1.FailureKind_FAILURE_KIND_TIMEOUT:
		return 1.0
	case glv1.FailureKind_FAILURE_KIND_TEST_ASSERTION:
		return 0.9
	case glv1.FailureKind_FAILURE_KIND_LINT:
		return 0.5
	}
	return 0.3
}

// Rank scores the project frames of the failures: a frame's score is the
// failure's kind weight divided by (1 + its distance from the failure
// point) and by (1 + 0.1 × the failure's position), summed over failures
// that point at the same line. Flaky failures are skipped: they passed on
// re-run, and chasing them wastes a repair round.
func Rank(failures []parse.Failure) []Location {
	byKey := map[string]*Location{}
	var order []*Location
	for i, f := range failures {
		if f.Flaky {
			continue
		}
		frames := projectFrames(f)
		w := kindWeight(f.Kind) / (1 + 0.1*float64(i))
		for d, fr := range frames {
			key := fr.File + ":" + itoa(fr.Line)
			l, ok := byKey[key]
			if !ok {
				l = &Location{File: fr.File, Line: fr.Line, Test: f.Test, Kind: f.Kind}
				byKey[key] = l
				order = append(order, l)
			}
			l.Score += w / float64(1+d)
		}
	}
	sort.SliceStable(order, func(a, b int) bool { return order[a].Score > order[b].Score })
	out := make([]Location, len(order))
	for i, l := range order {
		out[i] = *l
	}
	return out
}

// projectFrames returns a failure's project frames innermost first, or its
// own position when it has no frames.
func projectFrames(f parse.Failure) []parse.Frame {
	var out []parse.Frame
	for _, fr := range f.Frames {
		if fr.Project && fr.File != "" && fr.Line > 0 {
			out = append(out, fr)
		}
	}
	if len(out) == 0 && f.File != "" && f.Line > 0 {
		out = append(out, parse.Frame{File: f.File, Line: f.Line, Project: true})
	}
	return out
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	neg := n < 0
	if neg {
		n = -n
	}
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	if neg {
		i--
		b[i] = '-'
	}
	return string(b[i:])
}
