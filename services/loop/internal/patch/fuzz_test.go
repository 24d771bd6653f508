package patch

import (
	"errors"
	"testing"
)

// FuzzParse feeds arbitrary replies through Parse, Check and the hunk
// applier: none may panic, and every error must be one of the package's.
func FuzzParse(f *testing.F) {
	for _, seed := range []string{gitDiff, plainDiff, envelope, "<patch>\n" + gitDiff + "</patch>",
		"--- a/a\n+++ b/a\n@@\n-x\n+y\n", "*** Begin Patch\n*** Update File: a\n@@ x\n-x\n+y\n*** End of File\n",
		"--- a/a\n+++ b/a\n@@ -1,2 +1 @@\n-x\n\\ No newline at end of file\n+y\n"} {
		f.Add(seed)
	}
	old := splitText([]byte("x\ny\nz\nx\n"))
	f.Fuzz(func(t *testing.T, reply string) {
		p, err := Parse(reply)
		if err != nil {
			if !errors.Is(err, ErrNoPatch) && !errors.Is(err, ErrMalformed) {
				t.Fatalf("unexpected error %v", err)
			}
			return
		}
		if err := Check(p, Guardrails{}); err != nil && !errors.Is(err, ErrRefused) {
			t.Fatalf("unexpected check error %v", err)
		}
		for _, file := range p.Files {
			ap, err := applyHunks(file.Path(), old, file.Hunks)
			if err != nil {
				if !errors.Is(err, ErrDoesNotApply) {
					t.Fatalf("unexpected apply error %v", err)
				}
				continue
			}
			_ = render([]change{{file: file, ops: wholeFile(old, file.Hunks, ap.at), oldEOL: old.eol, newEOL: ap.result.eol}})
		}
	})
}
