package parse

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
}
