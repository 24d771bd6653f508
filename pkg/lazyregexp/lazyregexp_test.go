package lazyregexp

import (
	"strings"
	"testing"
)

// A Regexp behaves as the compiled expression; a bad pattern fails
// CompileAll (and would panic on first use, as regexp.MustCompile does).
func TestLazyRegexp(t *testing.T) {
	good := New(`^(\w+)=(\d+)$`)
	compiled := good.Regexp()
	cases := []struct {
		name string
		got  any
		want any
	}{
		{"match", good.MatchString("a=1"), true},
		{"no match", good.MatchString("a=x"), false},
		{"submatch", strings.Join(good.FindStringSubmatch("ab=12"), ","), "ab=12,ab,12"},
		{"bytes", string(good.ReplaceAll([]byte("k=7"), []byte("$2$1"))), "7k"},
		{"source", good.String(), `^(\w+)=(\d+)$`},
		{"compiled once", good.Regexp() == compiled, true},
	}
	for _, tc := range cases {
		if tc.got != tc.want {
			t.Errorf("%s: got %v, want %v", tc.name, tc.got, tc.want)
		}
	}
	if err := CompileAll(); err != nil {
		t.Fatalf("CompileAll with good patterns: %v", err)
	}
	New(`(unclosed`)
	if err := CompileAll(); err == nil {
		t.Error("CompileAll accepted a bad pattern")
	}
	all = all[:len(all)-1]
}
