package patch

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// numbered returns n lines "line 1" … "line n".
func numbered(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	return b.String()
}

// TestApplyFileOps checks adds, deletes, renames, mode changes and
// newline-at-end handling on a real snapshot.
func TestApplyFileOps(t *testing.T) {
	cases := []struct {
		name  string
		files tree
		reply string
		want  tree
		added int
		rem   int
	}{
		{"add in new directory", tree{"a.txt": "a\n"},
			"--- /dev/null\n+++ b/deep/dir/new.txt\n@@ -0,0 +1,2 @@\n+x\n+y\n",
			tree{"a.txt": "a\n", "deep/dir/new.txt": "x\ny\n"}, 2, 0},
		{"add executable", tree{"a.txt": "a\n"},
			"diff --git a/run.sh b/run.sh\nnew file mode 100755\n--- /dev/null\n+++ b/run.sh\n@@ -0,0 +1 @@\n+echo hi\n",
			tree{"a.txt": "a\n", "run.sh*": "echo hi\n"}, 1, 0},
		{"add empty file", tree{"a.txt": "a\n"},
			"diff --git a/empty b/empty\nnew file mode 100644\n",
			tree{"a.txt": "a\n", "empty": ""}, 0, 0},
		{"delete prunes empty directory", tree{"a.txt": "a\n", "d/e/f.txt": "f\ng\n"},
			"*** Begin Patch\n*** Delete File: d/e/f.txt\n*** End Patch\n",
			tree{"a.txt": "a\n"}, 0, 2},
		{"rename with edit", tree{"src/a.py": "x = 1\ny = 2\n"},
			"diff --git a/src/a.py b/lib/b.py\nsimilarity index 50%\nrename from src/a.py\nrename to lib/b.py\n--- a/src/a.py\n+++ b/lib/b.py\n@@ -1,2 +1,2 @@\n x = 1\n-y = 2\n+y = 3\n",
			tree{"lib/b.py": "x = 1\ny = 3\n"}, 1, 1},
		{"mode change only", tree{"run.sh": "echo\n"},
			"diff --git a/run.sh b/run.sh\nold mode 100644\nnew mode 100755\n",
			tree{"run.sh*": "echo\n"}, 0, 0},
		{"edit keeps executable bit", tree{"run.sh*": "echo a\n"},
			"--- a/run.sh\n+++ b/run.sh\n@@ -1 +1 @@\n-echo a\n+echo b\n",
			tree{"run.sh*": "echo b\n"}, 1, 1},
		{"remove newline at end", tree{"a.txt": "a\nb\n"},
			"--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n a\n-b\n+b\n\\ No newline at end of file\n",
			tree{"a.txt": "a\nb"}, 1, 1},
		{"add newline at end", tree{"a.txt": "a\nb"},
			"--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n",
			tree{"a.txt": "a\nb\n"}, 1, 1},
		{"append to file without final newline", tree{"a.txt": "a\nb"},
			"*** Begin Patch\n*** Update File: a.txt\n@@\n a\n-b\n+c\n*** End Patch\n",
			tree{"a.txt": "a\nc"}, 1, 1},
		{"--- a/x with -0,0 creates x", tree{"a.txt": "a\n"},
			"--- a/new.txt\n+++ b/new.txt\n@@ -0,0 +1 @@\n+n\n",
			tree{"a.txt": "a\n", "new.txt": "n\n"}, 1, 0},
		{"two hunks", tree{"n.txt": numbered(20)},
			"--- a/n.txt\n+++ b/n.txt\n@@ -2,3 +2,3 @@\n line 2\n-line 3\n+LINE 3\n line 4\n@@ -17,3 +17,4 @@\n line 17\n line 18\n+inserted\n line 19\n",
			tree{"n.txt": strings.Replace(strings.Replace(numbered(20), "line 3\n", "LINE 3\n", 1), "line 18\n", "line 18\ninserted\n", 1)}, 2, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, res := applyOK(t, c.files, c.reply, Guardrails{})
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("tree %q, want %q", got, c.want)
			}
			if res.Stats.LinesAdded != c.added || res.Stats.LinesRemoved != c.rem {
				t.Errorf("stats %+v, want +%d -%d", res.Stats, c.added, c.rem)
			}
			if res.Digest.Hash == "" || res.Digest.Size == 0 {
				t.Errorf("no digest: %+v", res.Digest)
			}
		})
	}
}

// TestOffsetTolerance checks that hunks whose numbers are off still apply
// where their context matches exactly, nearest to the stated line, and
// that later hunks follow the offset found.
func TestOffsetTolerance(t *testing.T) {
	files := tree{"n.txt": "header\nextra\nextra\n" + numbered(30)}
	// Numbers as if the three header lines were not there.
	reply := "--- a/n.txt\n+++ b/n.txt\n@@ -4,3 +4,3 @@\n line 4\n-line 5\n+LINE 5\n line 6\n@@ -20,3 +20,3 @@\n line 20\n-line 21\n+LINE 21\n line 22\n"
	got, res := applyOK(t, files, reply, Guardrails{})
	want := strings.NewReplacer("line 5\n", "LINE 5\n", "line 21\n", "LINE 21\n").Replace(files["n.txt"])
	if got["n.txt"] != want {
		t.Fatalf("n.txt =\n%s", got["n.txt"])
	}
	// The canonical diff states where the hunks really applied.
	if !strings.Contains(res.Diff, "@@ -5,7 +5,7 @@") || !strings.Contains(res.Diff, "@@ -21,7 +21,7 @@") {
		t.Errorf("canonical diff has the wrong positions:\n%s", res.Diff)
	}

	// With the same context twice, the occurrence nearest the stated line wins.
	dup := tree{"d.txt": "a\nx\nb\n" + numbered(10) + "a\nx\nb\n"}
	got, _ = applyOK(t, dup, "--- a/d.txt\n+++ b/d.txt\n@@ -13,3 +13,3 @@\n a\n-x\n+Y\n b\n", Guardrails{})
	if got["d.txt"] != "a\nx\nb\n"+numbered(10)+"a\nY\nb\n" {
		t.Errorf("nearest match not chosen:\n%s", got["d.txt"])
	}
}

// TestDoesNotApply checks that a hunk whose context is not in the file is
// reported with the file, the hunk number and the nearest mismatch.
func TestDoesNotApply(t *testing.T) {
	files := tree{"a.py": "def f():\n    return 1\n\n\ndef g():\n    return 2\n", "b.py": "b\n"}
	cases := []struct {
		name, reply, path string
		hunk              int
		msg               string
	}{
		{"context mismatch in second hunk", "--- a/a.py\n+++ b/a.py\n@@ -1,2 +1,2 @@\n def f():\n-    return 1\n+    return 10\n@@ -5,2 +5,2 @@\n def g():\n-    return 3\n+    return 30\n",
			"a.py", 2, `line 6 is "    return 2" but the hunk expects "    return 3"`},
		{"whitespace differs", "--- a/a.py\n+++ b/a.py\n@@ -1,2 +1,2 @@\n def f():\n-  return 1\n+  return 10\n",
			"a.py", 1, "differ only in white space"},
		{"no fuzz on a changed line", "*** Begin Patch\n*** Update File: a.py\n@@\n def f():\n-    return 7\n+    return 8\n*** End Patch\n",
			"a.py", 1, "closest at line 1"},
		{"missing file", "--- a/nope.py\n+++ b/nope.py\n@@ -1 +1 @@\n-a\n+b\n", "nope.py", 0, "does not exist"},
		{"add over existing file", "--- /dev/null\n+++ b/b.py\n@@ -0,0 +1 @@\n+x\n", "b.py", 0, "already exists"},
		{"rename onto existing file", "*** Begin Patch\n*** Update File: a.py\n*** Move to: b.py\n@@\n-def f():\n+def h():\n*** End Patch\n", "b.py", 0, "already exists"},
		{"partial delete", "--- a/a.py\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-def f():\n-    return 1\n", "a.py", 0, "leaves 4 line(s)"},
		{"anchor not found", "*** Begin Patch\n*** Update File: a.py\n@@ class Nope:\n-    return 1\n+    return 2\n*** End Patch\n", "a.py", 1, `"class Nope:"`},
		{"hunk without context or numbers", "*** Begin Patch\n*** Update File: a.py\n@@\n+# header\n*** End Patch\n", "a.py", 1, "no context lines"},
		{"end of file mismatch", "*** Begin Patch\n*** Update File: a.py\n@@\n-    return 1\n+    return 5\n*** End of File\n*** End Patch\n", "a.py", 1, "does not end with"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := applyErr(t, files, c.reply, Guardrails{})
			var ae *ApplyError
			if !errors.As(err, &ae) || !errors.Is(err, ErrDoesNotApply) {
				t.Fatalf("error %v, want an ApplyError", err)
			}
			if ae.Path != c.path || ae.Hunk != c.hunk {
				t.Errorf("error names %s hunk %d, want %s hunk %d", ae.Path, ae.Hunk, c.path, c.hunk)
			}
			if !strings.Contains(err.Error(), c.msg) {
				t.Errorf("error %q does not say %q", err, c.msg)
			}
		})
	}
}

// TestSnapshotErrors checks that an unusable snapshot is ErrSnapshot.
func TestSnapshotErrors(t *testing.T) {
	p, err := Parse("--- /dev/null\n+++ b/x\n@@ -0,0 +1 @@\n+x\n")
	must(t, err)
	err = applyParsedErr(t, []byte("this is not a tar archive at all, just text that is long enough to be read as a header block"), p, Guardrails{})
	if !errors.Is(err, ErrSnapshot) {
		t.Fatalf("error %v, want ErrSnapshot", err)
	}
}

// TestRepackKeepsIgnoredFiles checks that a snapshot holding a file a
// directory walk would leave out (a .gitignore'd file packed from git)
// keeps it after a patch: the patched tree is re-packed verbatim.
func TestRepackKeepsIgnoredFiles(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, tree{".gitignore": "*.log\n", "keep.log": "tracked anyway\n", "a.txt": "a\n"})
	run(t, dir, "git", "-c", "init.defaultBranch=main", "init", "-q")
	run(t, dir, "git", "add", "-f", ".gitignore", "keep.log", "a.txt")
	snap := packGit(t, dir)
	if _, ok := readTar(t, strings.NewReader(string(snap)))["keep.log"]; !ok {
		t.Fatal("setup: git pack did not keep the tracked ignored file")
	}
	p, err := Parse("--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-a\n+b\n")
	must(t, err)
	res, err := Apply(context.Background(), strings.NewReader(string(snap)), p, Options{TempDir: t.TempDir()})
	must(t, err)
	defer res.Close()
	rc, err := res.Open()
	must(t, err)
	defer rc.Close()
	files := readTar(t, rc)
	if files["keep.log"] != "tracked anyway\n" || files["a.txt"] != "b\n" {
		t.Fatalf("patched snapshot = %v, want keep.log kept and a.txt patched", files)
	}
}
