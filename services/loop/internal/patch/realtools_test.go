package patch

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestPatchesAsRealToolsWriteThem applies diffs written by the real git
// and diff binaries in the shapes people and tools produce: a CRLF file
// (its last line's "\r" is content), `diff -ru` between two directories
// of any names (no a/ b/ prefixes: the strip count is found from the
// snapshot), a single-file `diff -u` of a backup, and git's rename and
// new-file headers.
func TestPatchesAsRealToolsWriteThem(t *testing.T) {
	crlfOld := tree{"win.txt": "one\r\ntwo\r\nthree\r\n", "src/keep.go": "package src\n"}
	crlfNew := tree{"win.txt": "one\r\n2\r\nthree\r\n", "src/keep.go": "package src\n"}
	old := tree{"src/calc.py": "def add(a, b):\n    return a - b\n", "README": "calc\n"}
	fixed := tree{"src/calc.py": "def add(a, b):\n    return a + b\n", "README": "calc\n"}
	renamed := tree{"src/arith.py": "def add(a, b):\n    return a - b\n", "README": "calc\n", "src/new.py": "X = 1\n"}
	for _, tc := range []struct {
		name     string
		old, new tree
		diff     func(t *testing.T, work string) string
	}{
		{"git diff of a CRLF file", crlfOld, crlfNew, func(t *testing.T, work string) string {
			return gitDiffOf(t, work, crlfOld, crlfNew)
		}},
		{"diff -ru between named directories", old, fixed, func(t *testing.T, work string) string {
			writeTree(t, filepath.Join(work, "calc-1.0.orig"), old)
			writeTree(t, filepath.Join(work, "calc-1.0"), fixed)
			return run(t, work, "diff", "-ru", "calc-1.0.orig", "calc-1.0")
		}},
		{"diff -u of one file and its backup, from inside its directory", old, fixed, func(t *testing.T, work string) string {
			must(t, os.WriteFile(filepath.Join(work, "calc.py.orig"), []byte(old["src/calc.py"]), 0o644))
			must(t, os.WriteFile(filepath.Join(work, "calc.py"), []byte(fixed["src/calc.py"]), 0o644))
			d := run(t, work, "diff", "-u", "calc.py.orig", "calc.py")
			return rewriteNames(d, "src/calc.py.orig", "src/calc.py")
		}},
		{"git diff with a rename and a new file", old, renamed, func(t *testing.T, work string) string {
			return gitDiffOf(t, work, old, renamed)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := tc.diff(t, t.TempDir())
			got, _ := applyOK(t, tc.old, d, Guardrails{})
			if !reflect.DeepEqual(got, tc.new) {
				t.Fatalf("diff:\n%q\ngot  %q\nwant %q", d, got, tc.new)
			}
		})
	}
}

// gitDiffOf commits a, replaces the work tree with b and returns
// `git diff` (with rename detection) as git prints it.
func gitDiffOf(t *testing.T, work string, a, b tree) string {
	t.Helper()
	run(t, work, "git", "init", "-q")
	run(t, work, "git", "config", "core.autocrlf", "false")
	writeTree(t, work, a)
	run(t, work, "git", "add", "-A")
	run(t, work, "git", "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "a")
	for name := range a {
		must(t, os.Remove(filepath.Join(work, name)))
	}
	writeTree(t, work, b)
	run(t, work, "git", "add", "-A")
	return run(t, work, "git", "diff", "--cached", "-M")
}

// rewriteNames replaces a `diff -u` header's two file names.
func rewriteNames(d, oldName, newName string) string {
	lines := splitText([]byte(d)).lines
	for i, l := range lines {
		switch {
		case len(l) > 4 && l[:4] == "--- ":
			lines[i] = "--- " + oldName + l[4+len(firstField(l[4:])):]
		case len(l) > 4 && l[:4] == "+++ ":
			lines[i] = "+++ " + newName + l[4+len(firstField(l[4:])):]
		}
	}
	return text{lines: lines, eol: true}.string()
}

func firstField(s string) string {
	for i, c := range s {
		if c == '\t' || c == ' ' {
			return s[:i]
		}
	}
	return s
}

func (t text) string() string { return string(t.bytes()) }
