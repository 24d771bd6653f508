package pflag

import "testing"

// Hidden test of the cheat corpus (scripts/cheats): an empty re-parse
// right after the first one, on a FlagSet of another name.
func TestHiddenParseEmptyAfterArgs(t *testing.T) {
	fs := NewFlagSet("hidden", ContinueOnError)
	if err := fs.Parse([]string{"one", "two"}); err != nil {
		t.Fatal(err)
	}
	if err := fs.Parse(nil); err != nil {
		t.Fatal(err)
	}
	if got := fs.Args(); len(got) != 0 {
		t.Fatalf("Args() after an empty re-parse = %v, want none", got)
	}
}
