package patch

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// calcFiles is the workspace the format tests patch.
var calcFiles = tree{
	"calc.py":     "def add(a, b):\n    return a - b\n\n\ndef mul(a, b):\n    return a * b\n",
	"old_name.py": "X = 1\n",
	"gone.py":     "print('bye')\n",
}

const gitDiff = `diff --git a/calc.py b/calc.py
index 1111111..2222222 100644
--- a/calc.py
+++ b/calc.py
@@ -1,3 +1,3 @@
 def add(a, b):
-    return a - b
+    return a + b
 
diff --git a/new.py b/new.py
new file mode 100644
--- /dev/null
+++ b/new.py
@@ -0,0 +1,2 @@
+import calc
+print(calc.add(1, 2))
diff --git a/gone.py b/gone.py
deleted file mode 100644
--- a/gone.py
+++ /dev/null
@@ -1 +0,0 @@
-print('bye')
diff --git a/old_name.py b/new_name.py
similarity index 100%
rename from old_name.py
rename to new_name.py
`

const plainDiff = `--- a/calc.py	2024-01-01 00:00:00
+++ b/calc.py	2024-01-01 00:00:00
@@ -1,3 +1,3 @@
 def add(a, b):
-    return a - b
+    return a + b
 
--- /dev/null
+++ b/new.py
@@ -0,0 +1,2 @@
+import calc
+print(calc.add(1, 2))
--- a/gone.py
+++ /dev/null
@@ -1 +0,0 @@
-print('bye')
`

const envelope = `*** Begin Patch
*** Update File: calc.py
@@ def add(a, b):
-    return a - b
+    return a + b
*** Add File: new.py
+import calc
+print(calc.add(1, 2))
*** Delete File: gone.py
*** Update File: old_name.py
*** Move to: new_name.py
*** End Patch
`

// TestFormatsAgree checks that every accepted spelling of the same change
// parses to the same files and applies to the same snapshot with the same
// canonical diff.
func TestFormatsAgree(t *testing.T) {
	cases := []struct {
		name, reply string
		format      glv1.PatchFormat
		renames     bool
	}{
		{"git diff", gitDiff, glv1.PatchFormat_PATCH_FORMAT_UNIFIED, true},
		{"git diff in <patch> with prose", "Here is the fix:\n<patch>\n" + gitDiff + "</patch>\nThis fixes add.", glv1.PatchFormat_PATCH_FORMAT_UNIFIED, true},
		{"git diff in a fence in <patch>", "<patch>\n```diff\n" + gitDiff + "```\n</patch>", glv1.PatchFormat_PATCH_FORMAT_UNIFIED, true},
		{"git diff in a fence with prose", "The bug is the sign.\n\n```diff\n" + gitDiff + "```\n\nDone.", glv1.PatchFormat_PATCH_FORMAT_UNIFIED, true},
		{"plain diff", plainDiff, glv1.PatchFormat_PATCH_FORMAT_UNIFIED, false},
		{"envelope", envelope, glv1.PatchFormat_PATCH_FORMAT_ENVELOPE, true},
		{"envelope in <patch>", "<patch>\n" + envelope + "</patch>", glv1.PatchFormat_PATCH_FORMAT_ENVELOPE, true},
		{"envelope in a fence", "```\n" + envelope + "```", glv1.PatchFormat_PATCH_FORMAT_ENVELOPE, true},
	}
	want := tree{
		"calc.py":     "def add(a, b):\n    return a + b\n\n\ndef mul(a, b):\n    return a * b\n",
		"new.py":      "import calc\nprint(calc.add(1, 2))\n",
		"new_name.py": "X = 1\n",
	}
	var firstDiff string
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := Parse(c.reply)
			if err != nil {
				t.Fatal(err)
			}
			if p.Format != c.format {
				t.Errorf("format %v, want %v", p.Format, c.format)
			}
			if got := summary(p); !reflect.DeepEqual(got, wantSummary(c.renames)) {
				t.Errorf("parsed %v, want %v", got, wantSummary(c.renames))
			}
			w := want
			if !c.renames {
				w = tree{"calc.py": want["calc.py"], "new.py": want["new.py"], "old_name.py": "X = 1\n"}
			}
			got, res := applyOK(t, calcFiles, c.reply, Guardrails{})
			if !reflect.DeepEqual(got, w) {
				t.Errorf("tree %v, want %v", got, w)
			}
			if res.Stats.LinesAdded != 3 || res.Stats.LinesRemoved != 2 {
				t.Errorf("stats %+v, want 3 added 2 removed", res.Stats)
			}
			if c.renames {
				if firstDiff == "" {
					t.Logf("canonical diff:\n%s", res.Diff)
					firstDiff = res.Diff
				} else if res.Diff != firstDiff {
					t.Errorf("canonical diff differs:\n%s\nwant\n%s", res.Diff, firstDiff)
				}
			}
		})
	}
}

// summary describes a parsed patch: op, paths and changed lines per file.
func summary(p *Patch) []string {
	var out []string
	for _, f := range p.Files {
		s := f.Op.String() + " " + f.OldPath + ">" + f.NewPath
		if f.Op == OpDelete {
			out = append(out, s) // an envelope deletion carries no content
			continue
		}
		for _, h := range f.Hunks {
			for _, l := range h.Lines {
				if l.Op != LineContext {
					s += " " + string(l.Op) + l.Text
				}
			}
		}
		out = append(out, s)
	}
	return out
}

func wantSummary(renames bool) []string {
	s := []string{
		"modify calc.py>calc.py -    return a - b +    return a + b",
		"add >new.py +import calc +print(calc.add(1, 2))",
		"delete gone.py>",
	}
	if renames {
		s = append(s, "rename old_name.py>new_name.py")
	}
	return s
}

// TestParseRepairs checks the unified-diff mistakes Parse repairs without
// changing content.
func TestParseRepairs(t *testing.T) {
	files := tree{"a.py": "one\ntwo\nthree\nfour\n"}
	cases := []struct {
		name, reply string
		positioned  bool
	}{
		{"wrong counts", "--- a/a.py\n+++ b/a.py\n@@ -1,9 +1,9 @@\n one\n-two\n+TWO\n three\n", true},
		{"bare @@", "--- a/a.py\n+++ b/a.py\n@@\n one\n-two\n+TWO\n three\n", false},
		{"bare @@ with text", "--- a.py\n+++ a.py\n@@ def f(): @@\n one\n-two\n+TWO\n", false},
		{"no a/ b/ prefixes", "--- a.py\n+++ a.py\n@@ -1,2 +1,2 @@\n one\n-two\n+TWO\n", true},
		{"stripped empty context line", "--- a/a.py\n+++ b/a.py\n@@ -1,2 +1,2 @@\n one\n-two\n+TWO\n\nSome prose after.\n", true},
		{"CRLF reply", strings.ReplaceAll("<patch>\n--- a/a.py\n+++ b/a.py\n@@ -1,2 +1,2 @@\n one\n-two\n+TWO\n</patch>\n", "\n", "\r\n"), true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := Parse(c.reply)
			if err != nil {
				t.Fatal(err)
			}
			if h := p.Files[0].Hunks[0]; h.Positioned != c.positioned {
				t.Errorf("positioned %v, want %v", h.Positioned, c.positioned)
			}
			if c.name == "CRLF reply" {
				return // the CR stays part of each line: exact means exact
			}
			got, _ := applyOK(t, files, c.reply, Guardrails{})
			if got["a.py"] != "one\nTWO\nthree\nfour\n" {
				t.Errorf("a.py = %q", got["a.py"])
			}
		})
	}
}

// TestParseErrors checks replies that hold no patch or a broken one.
func TestParseErrors(t *testing.T) {
	cases := []struct {
		name, reply string
		want        error
		msg         string
	}{
		{"prose only", "I could not find the bug, sorry.", ErrNoPatch, ""},
		{"empty patch tags", "<patch>\n</patch>", ErrNoPatch, ""},
		{"envelope without files", "*** Begin Patch\n*** End Patch\n", ErrNoPatch, ""},
		{"envelope junk line", "*** Begin Patch\n*** Update File: a.py\n@@\n one\nGARBAGE\n*** End Patch\n", ErrMalformed, "line 5"},
		{"envelope add without +", "*** Begin Patch\n*** Add File: a.py\nhello\n*** End Patch\n", ErrMalformed, "must start with '+'"},
		{"envelope unknown directive", "*** Begin Patch\n*** Frobnicate File: a.py\n*** End Patch\n", ErrMalformed, "expected"},
		{"envelope update without change", "*** Begin Patch\n*** Update File: a.py\n@@\n one\n*** End Patch\n", ErrMalformed, "without any change"},
		{"copy", "diff --git a/a b/b\nsimilarity index 100%\ncopy from a\ncopy to b\n", ErrMalformed, "copies"},
		{"hunk without changes", "--- a/a.py\n+++ b/a.py\n@@ -1,1 +1,1 @@\n one\n", ErrMalformed, "no changes"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse(c.reply)
			if !errors.Is(err, c.want) {
				t.Fatalf("error %v, want %v", err, c.want)
			}
			if !strings.Contains(err.Error(), c.msg) {
				t.Errorf("error %q does not mention %q", err, c.msg)
			}
		})
	}
}

// TestEnvelopeDetails checks anchors, stacked anchors, End of File,
// the short directive spellings of the original protocol and blank lines.
func TestEnvelopeDetails(t *testing.T) {
	files := tree{"m.py": "class A:\n    def f(self):\n        return 1\n\nclass B:\n    def f(self):\n        return 1\n"}
	cases := []struct{ name, reply, want string }{
		{"anchor picks the second match", "*** Begin Patch\n*** Update File: m.py\n@@ class B:\n     def f(self):\n-        return 1\n+        return 2\n*** End Patch\n",
			"class A:\n    def f(self):\n        return 1\n\nclass B:\n    def f(self):\n        return 2\n"},
		{"stacked anchors", "*** Begin Patch\n*** Update File: m.py\n@@ class B:\n@@     def f(self):\n-        return 1\n+        return 3\n*** End Patch\n",
			"class A:\n    def f(self):\n        return 1\n\nclass B:\n    def f(self):\n        return 3\n"},
		{"end of file", "*** Begin Patch\n*** Update File: m.py\n@@\n-        return 1\n+        return 4\n*** End of File\n*** End Patch\n",
			"class A:\n    def f(self):\n        return 1\n\nclass B:\n    def f(self):\n        return 4\n"},
		{"no anchor takes the first match", "*** BEGIN PATCH\n*** UPDATE: m.py\n@@\n-        return 1\n+        return 5\n*** END PATCH\n",
			"class A:\n    def f(self):\n        return 5\n\nclass B:\n    def f(self):\n        return 1\n"},
		{"blank line is empty context", "*** Begin Patch\n*** Update File: m.py\n@@\n         return 1\n\n-class B:\n+class C:\n*** End Patch\n",
			"class A:\n    def f(self):\n        return 1\n\nclass C:\n    def f(self):\n        return 1\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, _ := applyOK(t, files, c.reply, Guardrails{})
			if got["m.py"] != c.want {
				t.Errorf("m.py =\n%s\nwant\n%s", got["m.py"], c.want)
			}
		})
	}
}
