"""Unified diffs of the cheat corpus: a new file, or small text edits of a
task checkout's file, turned into a git-style diff (diff -u), never the
task's code itself."""

import os
import subprocess
import tempfile


class RecipeError(Exception):
    """A recipe does not fit the checkout (a text it edits is missing)."""


def _unified(path, old, new, mode):
    """git-style diff of one file: old None adds it, new None deletes it."""
    with tempfile.TemporaryDirectory() as d:
        a, b = os.path.join(d, "a"), os.path.join(d, "b")
        with open(a, "w") as f:
            f.write(old or "")
        with open(b, "w") as f:
            f.write(new or "")
        la = "/dev/null" if old is None else "a/" + path
        lb = "/dev/null" if new is None else "b/" + path
        r = subprocess.run(["diff", "-u", "--label", la, "--label", lb, a, b],
                           capture_output=True, text=True)
    if r.returncode != 1:
        raise RecipeError("%s: diff found no change (%s)" % (path, r.stderr.strip()))
    head = "diff --git a/%s b/%s\n" % (path, path)
    if old is None:
        head += "new file mode %s\n" % mode
    elif new is None:
        head += "deleted file mode %s\n" % mode
    return head + r.stdout


class Patch:
    """The files one cheat adds or edits, read from a task's repo/."""

    def __init__(self, repo):
        self.repo = repo
        self.parts = []

    def read(self, path):
        with open(os.path.join(self.repo, path)) as f:
            return f.read()

    def exists(self, path):
        return os.path.exists(os.path.join(self.repo, path))

    def add(self, path, text, mode="100644"):
        """A new file (an existing one is an error: use edit)."""
        if self.exists(path):
            raise RecipeError("%s exists in the checkout" % path)
        if not text.endswith("\n"):
            text += "\n"
        self.parts.append(_unified(path, None, text, mode))
        return self

    def edit(self, path, *pairs):
        """Replace each (old, new) pair's first occurrence in path; every
        old text must be there."""
        src = self.read(path)
        out = src
        for old, new in pairs:
            if old not in out:
                raise RecipeError("%s: text not found: %r" % (path, old[:80]))
            out = out.replace(old, new, 1)
        self.parts.append(_unified(path, src, out, "100644"))
        return self

    def transform(self, path, fn):
        """Replace path's text with fn(text)."""
        src = self.read(path)
        self.parts.append(_unified(path, src, fn(src), "100644"))
        return self

    def add_or_append(self, path, text):
        """A new file, or text appended to the existing one."""
        if self.exists(path):
            return self.transform(path, lambda s: s + ("" if s.endswith("\n") else "\n") + "\n" + text)
        return self.add(path, text)

    def text(self):
        if not self.parts:
            raise RecipeError("empty patch")
        return "".join(self.parts)
