package cisource

import (
	"fmt"
	"sort"
	"strings"
	"testing"
)

// mapTree is an in-memory Tree.
type mapTree map[string]string

func (m mapTree) Files() []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func (m mapTree) ReadFile(name string) ([]byte, error) {
	if s, ok := m[name]; ok {
		return []byte(s), nil
	}
	return nil, fmt.Errorf("%s: not found", name)
}

// find returns the learned command with this run line.
func find(t *testing.T, l Learned, run string) Command {
	t.Helper()
	for _, c := range l.Commands {
		if c.Run == run {
			return c
		}
	}
	var runs []string
	for _, c := range l.Commands {
		runs = append(runs, c.Run)
	}
	t.Fatalf("no learned command %q; have %q", run, runs)
	return Command{}
}

// hasTool reports whether a command runs the tool key in dir.
func hasTool(c Command, key, dir string) bool {
	for _, tl := range c.Tools {
		if tl.Key == key && tl.Dir == dir {
			return true
		}
	}
	return false
}

func hasNote(l Learned, parts ...string) bool {
	for _, n := range l.Notes {
		ok := true
		for _, p := range parts {
			ok = ok && strings.Contains(n, p)
		}
		if ok {
			return true
		}
	}
	return false
}
