package patch

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// randomText returns up to n lines drawn from a small vocabulary, so that
// repeated lines make hunk placement ambiguous, sometimes without a final
// newline.
func randomText(r *rand.Rand, n int) string {
	words := []string{"x = 1", "", "return x", "}", "def f():", "    pass", "foo", "bar"}
	var lines []string
	for range r.IntN(n + 1) {
		lines = append(lines, words[r.IntN(len(words))])
	}
	if len(lines) == 0 {
		return ""
	}
	s := strings.Join(lines, "\n")
	if r.IntN(5) > 0 {
		s += "\n"
	}
	return s
}

// mutate applies a few random line edits to s.
func mutate(r *rand.Rand, s string) string {
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	if s == "" {
		lines = nil
	}
	for range 1 + r.IntN(4) {
		i := r.IntN(len(lines) + 1)
		switch r.IntN(3) {
		case 0:
			lines = append(lines[:i], append([]string{fmt.Sprintf("new %d", r.IntN(100))}, lines[i:]...)...)
		case 1:
			if i < len(lines) {
				lines = append(lines[:i], lines[i+1:]...)
			}
		default:
			if i < len(lines) {
				lines[i] = fmt.Sprintf("changed %d", r.IntN(100))
			}
		}
	}
	if len(lines) == 0 {
		return ""
	}
	out := strings.Join(lines, "\n")
	if r.IntN(5) > 0 {
		out += "\n"
	}
	return out
}

// randomPair returns two trees that differ: edited, added and deleted files.
func randomPair(r *rand.Rand) (tree, tree) {
	a, b := tree{}, tree{}
	for i := range 3 {
		name := fmt.Sprintf("dir%d/f%d.txt", i%2, i)
		switch r.IntN(6) {
		case 0: // added
			b[name] = randomText(r, 10) + "added\n"
		case 1: // deleted
			a[name] = randomText(r, 10) + "deleted\n"
		default:
			a[name] = randomText(r, 40)
			b[name] = mutate(r, a[name])
		}
	}
	if reflect.DeepEqual(a, b) {
		b["extra.txt"] = "extra\n"
	}
	return a, b
}

// TestApplyRealDiffs is the property apply(diff(a, b), a) == b, with diffs
// written by the real `diff -ruN` and `git diff --no-index`, and the
// cross-check that the canonical diff Apply renders is accepted by the
// real `git apply --check` and `patch --dry-run` and gives b there too.
func TestApplyRealDiffs(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 40 {
		a, b := randomPair(r)
		for _, gen := range []string{"diff", "git"} {
			t.Run(fmt.Sprintf("%d/%s", i, gen), func(t *testing.T) {
				work := t.TempDir()
				writeTree(t, filepath.Join(work, "a"), a)
				writeTree(t, filepath.Join(work, "b"), b)
				var d string
				if gen == "diff" {
					d = run(t, work, "diff", "-ruN", "a", "b")
				} else {
					d = run(t, work, "git", "diff", "--no-index", "--no-prefix", "a", "b")
				}
				got, res := applyOK(t, a, d, Guardrails{MaxChangedLines: -1})
				if !reflect.DeepEqual(got, b) {
					t.Fatalf("apply(diff(a,b), a) != b\ndiff:\n%s\ngot %q\nwant %q", d, got, b)
				}
				crossCheck(t, a, b, res.Diff)
			})
		}
	}
}

// crossCheck applies the canonical diff with the real git and patch
// binaries to a copy of a and compares with b.
func crossCheck(t *testing.T, a, b tree, diff string) {
	t.Helper()
	for _, tool := range []string{"git", "patch"} {
		dir := t.TempDir()
		writeTree(t, dir, a)
		pf := filepath.Join(t.TempDir(), "canonical.diff")
		must(t, os.WriteFile(pf, []byte(diff), 0o644))
		if tool == "git" {
			run(t, dir, "git", "apply", "--check", pf)
			run(t, dir, "git", "apply", pf)
		} else {
			run(t, dir, "patch", "-p1", "--dry-run", "-s", "-i", pf)
			run(t, dir, "patch", "-p1", "-s", "-E", "-i", pf)
		}
		got := readDir(t, dir)
		if !reflect.DeepEqual(got, b) {
			t.Fatalf("%s applied the canonical diff differently:\n%s\ngot %q\nwant %q", tool, diff, got, b)
		}
	}
}

// readDir reads a directory's regular files into a tree.
func readDir(t *testing.T, dir string) tree {
	t.Helper()
	out := tree{}
	must(t, filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		b, err := os.ReadFile(p)
		out[filepath.ToSlash(rel)] = string(b)
		return err
	}))
	return out
}
