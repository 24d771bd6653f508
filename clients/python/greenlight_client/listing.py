"""Which paths of a directory go into a snapshot.

This mirrors the Go packer (pkg/workspace) so that the server sees the same
tree from this client as from the greenlight CLI: in a git work tree the
files git would commit (tracked, plus untracked and not ignored, as listed
by the git binary); elsewhere a walk that leaves out VCS metadata,
dependency trees, caches, virtualenvs and build outputs. Symlinks are kept
only when they cannot resolve outside the directory; sockets, devices and
fifos are skipped; nothing is ever followed.

Unlike the Go packer, a walk outside git does not read .gitignore files.
"""

from __future__ import annotations

import os
import stat
import subprocess
from dataclasses import dataclass, field
from typing import Dict, List, Tuple

from .errors import PackError

KIND_DIR = "dir"
KIND_FILE = "file"
KIND_SYMLINK = "symlink"

SOURCE_GIT = "git"
SOURCE_WALK = "walk"

# Directory names never packed outside git (pkg/workspace/exclude.go).
ALWAYS_EXCLUDED: Dict[str, str] = {
    ".git": "git metadata",
    "node_modules": "npm dependencies",
    ".venv": "Python virtualenv",
    "venv": "Python virtualenv",
    "__pycache__": "Python bytecode cache",
    ".pytest_cache": "pytest cache",
    ".mypy_cache": "mypy cache",
    ".tox": "tox environments",
    ".next": "Next.js build output",
    ".gradle": "Gradle cache",
}

# Build-output directory names, excluded only next to a manifest of a tool
# that writes them there: "build" and "dist" are also source directory names.
BUILD_OUTPUTS: Dict[str, Tuple[str, ...]] = {
    "target": ("Cargo.toml", "pom.xml", "build.sbt"),
    "dist": ("package.json", "pyproject.toml", "setup.py", "setup.cfg"),
    "build": ("package.json", "pyproject.toml", "setup.py", "setup.cfg", "build.gradle",
              "build.gradle.kts", "settings.gradle", "settings.gradle.kts", "CMakeLists.txt"),
}

# Files that mark a directory as generated whatever its name.
MARKER_FILES: Dict[str, str] = {
    "pyvenv.cfg": "Python virtualenv",
    "CACHEDIR.TAG": "cache directory (CACHEDIR.TAG)",
    "CMakeCache.txt": "CMake build directory",
}


@dataclass(frozen=True)
class Entry:
    """One path planned for a snapshot.

    Attributes:
        rel: slash-separated path relative to the packed directory.
        kind: KIND_DIR, KIND_FILE or KIND_SYMLINK.
        size: file size in bytes (files only).
        executable: the file has an executable bit.
        target: the symlink's target (symlinks only).
        ino: (st_dev, st_ino) of a listed file, to detect a swap before reading.
    """

    rel: str
    kind: str
    size: int = 0
    executable: bool = False
    target: str = ""
    ino: Tuple[int, int] = (0, 0)


@dataclass
class Listing:
    """The entries of a directory and what was left out.

    Attributes:
        source: SOURCE_GIT when git listed the files, SOURCE_WALK otherwise.
        entries: the planned entries, unsorted.
        skipped: (path, reason) pairs worth telling: excluded directories,
            unsafe symlinks, special files, tracked files deleted from the tree.
    """

    source: str
    entries: List[Entry] = field(default_factory=list)
    skipped: List[Tuple[str, str]] = field(default_factory=list)


def list_entries(directory: str, use_git: bool = True) -> Listing:
    """Lists what a snapshot of directory (a resolved, absolute path) holds.

    With use_git and directory inside a git work tree, git lists the files;
    otherwise the directory is walked.
    """
    if use_git and _is_git_work_tree(directory):
        lister = _Lister(directory, SOURCE_GIT)
        lister.list_git("")
    else:
        lister = _Lister(directory, SOURCE_WALK)
        lister.walk("")
    return lister.listing


def symlink_reason(link: str, target: str) -> str:
    """Says why a symlink named link (relative, clean) pointing to target
    could resolve outside the root, or returns "" when it cannot.

    The rule is the server's (pkg/workspace/paths.go): ".." components only as
    a prefix of the target, and no more of them than the link has parents.
    """
    if target == "":
        return "empty symlink target"
    if "\x00" in target:
        return "symlink target contains a NUL byte"
    if target.startswith("/"):
        return f"absolute symlink target {target!r}"
    ups, named = 0, False
    for part in target.split("/"):
        if part in ("", "."):
            continue
        if part == "..":
            if named:
                return f"symlink target {target!r} has '..' after a name and could leave the root through another link"
            ups += 1
        else:
            named = True
    if ups > link.count("/"):
        return f"symlink target {target!r} resolves outside the root"
    return ""


class _Lister:
    """Collects the entries of one listing."""

    def __init__(self, directory: str, source: str) -> None:
        self.dir = directory
        self.listing = Listing(source=source)
        self.dirs: Dict[str, bool] = {}

    def abs(self, rel: str) -> str:
        return os.path.join(self.dir, *rel.split("/")) if rel else self.dir

    def walk(self, rel: str) -> None:
        """Adds the entries below rel (a directory already accepted)."""
        with os.scandir(self.abs(rel)) as it:
            children = sorted(it, key=lambda d: d.name)
        for d in children:
            child = f"{rel}/{d.name}" if rel else d.name
            if d.is_dir(follow_symlinks=False):
                reason = _exclude_reason(self.abs(rel), d.name, d.path)
                if reason:
                    self.listing.skipped.append((child, "excluded: " + reason))
                    continue
                self.listing.entries.append(Entry(child, KIND_DIR))
                self.walk(child)
            elif d.name == ".git":
                self.listing.skipped.append((child, "git metadata"))
            else:
                self.add_non_dir(child, d.stat(follow_symlinks=False))

    def add_non_dir(self, rel: str, st: os.stat_result) -> None:
        """Adds a file or symlink (st from lstat), or records why not."""
        if stat.S_ISREG(st.st_mode):
            self.listing.entries.append(Entry(rel, KIND_FILE, size=st.st_size,
                                              executable=bool(st.st_mode & 0o111), ino=(st.st_dev, st.st_ino)))
        elif stat.S_ISLNK(st.st_mode):
            target = os.readlink(self.abs(rel))
            reason = symlink_reason(rel, target)
            if reason:
                self.listing.skipped.append((rel, reason))
            else:
                self.listing.entries.append(Entry(rel, KIND_SYMLINK, target=target))
        else:
            self.listing.skipped.append((rel, f"special file ({stat.filemode(st.st_mode)[0]}) cannot be packed"))

    def list_git(self, prefix: str) -> None:
        """Adds the files git lists under prefix: tracked and still present,
        plus untracked and not ignored."""
        out = _git(self.abs(prefix), "ls-files", "-z", "--cached", "--others", "--exclude-standard")
        seen = set()
        for p in out.split(b"\x00"):
            if not p or p in seen:
                continue  # unmerged paths are listed once per stage
            seen.add(p)
            name = os.fsdecode(p).rstrip("/")
            self.add_git_path(f"{prefix}/{name}" if prefix else name)

    def add_git_path(self, rel: str) -> None:
        """Adds one path listed by git."""
        reason = self.parent_reason(rel)
        if reason:
            self.listing.skipped.append((rel, reason))
            return
        try:
            st = os.lstat(self.abs(rel))
        except FileNotFoundError:
            self.listing.skipped.append((rel, "tracked by git but deleted from the work tree"))
            return
        self.add_dir_with_parents(_parent(rel))
        if stat.S_ISDIR(st.st_mode):
            self.add_nested_repo(rel)
        else:
            self.add_non_dir(rel, st)

    def add_nested_repo(self, rel: str) -> None:
        """Handles a directory git lists as one path: a submodule or an
        untracked nested repository, listed by its own git."""
        self.add_dir_with_parents(rel)
        if not os.path.lexists(os.path.join(self.abs(rel), ".git")):
            self.listing.skipped.append((rel, "unpopulated submodule: packed as an empty directory"))
            return
        self.list_git(rel)

    def parent_reason(self, rel: str) -> str:
        """Checks that every parent of rel is a real directory, so that a
        tracked a/x is never read through a symlink a."""
        p = _parent(rel)
        while p:
            if self.dirs.get(p):
                return ""  # already checked, and so are its parents
            try:
                st = os.lstat(self.abs(p))
            except FileNotFoundError:
                return "tracked by git but deleted from the work tree"
            except OSError as e:
                return f"parent {p!r} unreadable: {e}"
            if stat.S_ISLNK(st.st_mode):
                return f"parent {p!r} is a symlink"
            if not stat.S_ISDIR(st.st_mode):
                return f"parent {p!r} is not a directory"
            p = _parent(p)
        return ""

    def add_dir_with_parents(self, rel: str) -> None:
        """Adds the directory rel and its parents once each (git lists files only)."""
        while rel and not self.dirs.get(rel):
            self.dirs[rel] = True
            self.listing.entries.append(Entry(rel, KIND_DIR))
            rel = _parent(rel)


def _parent(rel: str) -> str:
    return rel.rsplit("/", 1)[0] if "/" in rel else ""


def _exclude_reason(parent: str, name: str, path: str) -> str:
    """Says why the directory path (named name, inside parent) is left out
    of a walk, or returns ""."""
    if name in ALWAYS_EXCLUDED:
        return ALWAYS_EXCLUDED[name]
    for marker, reason in MARKER_FILES.items():
        if os.path.lexists(os.path.join(path, marker)):
            return reason
    for manifest in BUILD_OUTPUTS.get(name, ()):
        if os.path.lexists(os.path.join(parent, manifest)):
            return f"build output (next to {manifest})"
    return ""


def _git_env() -> Dict[str, str]:
    """The environment of git commands: no GIT_* variables (a caller inside a
    git hook would point us at another repository), no index lock (packing
    must not touch the tree), untranslated messages."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(GIT_OPTIONAL_LOCKS="0", LC_ALL="C")
    return env


def _run_git(directory: str, *args: str) -> subprocess.CompletedProcess:
    # fsmonitor would run a program named by the repository's config.
    cmd = ["git", "-c", "core.fsmonitor=false", "-c", "core.quotePath=off", *args]
    return subprocess.run(cmd, cwd=directory, env=_git_env(), capture_output=True, check=False)


def _git(directory: str, *args: str) -> bytes:
    res = _run_git(directory, *args)
    if res.returncode != 0:
        err = res.stderr.decode(errors="replace").strip()
        raise PackError(f"git {args[0]} in {directory} failed: {err}")
    return res.stdout


def _is_git_work_tree(directory: str) -> bool:
    """Reports whether directory is inside a git work tree; without a git
    binary the answer is no."""
    try:
        res = _run_git(directory, "rev-parse", "--is-inside-work-tree")
    except FileNotFoundError:
        return False
    if res.returncode != 0:
        err = res.stderr.decode(errors="replace")
        if "not a git repository" in err:
            return False
        raise PackError(f"git rev-parse in {directory} failed: {err.strip()} (pack with use_git=False to walk instead)")
    return res.stdout.strip() == b"true"


__all__ = ["Entry", "Listing", "list_entries", "symlink_reason", "KIND_DIR", "KIND_FILE", "KIND_SYMLINK",
           "SOURCE_GIT", "SOURCE_WALK"]
