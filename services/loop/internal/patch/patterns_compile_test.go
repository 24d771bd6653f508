package patch

import (
	"testing"

	"github.com/greenlight-dev/greenlight/pkg/lazyregexp"
)

// Every pattern of the package compiles: they are compiled on first use
// (lazyregexp), so a bad one would otherwise only panic in the first run
// that needs it.
func TestPatternsCompile(t *testing.T) {
	if err := lazyregexp.CompileAll(); err != nil {
		t.Fatal(err)
	}
	// The audit tables are built on first use too (regexp.MustCompile
	// panics here on a bad pattern).
	for _, l := range []auditLang{langPython, langGo, langJS} {
		if len(patternsFor(l)) == 0 {
			t.Errorf("language %d has no audit patterns", l)
		}
	}
}
