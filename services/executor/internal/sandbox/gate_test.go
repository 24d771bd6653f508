package sandbox

import (
	"strings"
	"testing"
)

func TestGatedWriterDropsAfterClose(t *testing.T) {
	var b strings.Builder
	g := &GatedWriter{W: &b}
	if n, err := g.Write([]byte("kept")); n != 4 || err != nil {
		t.Fatalf("Write = %d, %v", n, err)
	}
	g.Close()
	if n, err := g.Write([]byte("dropped")); n != 7 || err != nil {
		t.Fatalf("Write after Close = %d, %v; want all reported written", n, err)
	}
	if b.String() != "kept" {
		t.Errorf("writer got %q, want only what came before Close", b.String())
	}
	if n, err := (&GatedWriter{}).Write([]byte("x")); n != 1 || err != nil {
		t.Errorf("nil writer: %d, %v", n, err)
	}
}
