"""pack: the snapshot format and what goes into it (no server needed)."""

from __future__ import annotations

import hashlib
import io
import os
import shutil
import subprocess
import tarfile
from pathlib import Path
from typing import Dict

import pytest

from greenlight_client import PackError, pack
from greenlight_client.listing import symlink_reason
from greenlight_client.tarheader import TYPE_FILE, header


def members(path: str) -> Dict[str, tarfile.TarInfo]:
    with tarfile.open(path) as tf:
        return {m.name: m for m in tf.getmembers()}


def make_tree(root: Path) -> Path:
    (root / "src").mkdir(parents=True)
    (root / "src" / "app.py").write_text("print('hi')\n")
    (root / "tool.sh").write_text("#!/bin/sh\n")
    (root / "tool.sh").chmod(0o755)
    (root / "pyproject.toml").write_text("[project]\nname='x'\n")
    return root


def test_deterministic_and_normalized(tmp_path: Path):
    tree = make_tree(tmp_path / "t")
    with pack(tree) as a:
        first = a.read_bytes()
        digest = a.digest
    os.utime(tree / "src" / "app.py", (1, 1))  # times do not matter
    (tree / "src" / "app.py").chmod(0o600)  # nor modes beyond the x bit
    with pack(tree) as b:
        assert b.read_bytes() == first
        assert b.digest == digest
        assert digest.hash == hashlib.sha256(first).hexdigest() and digest.size_bytes == len(first)
        m = members(b.path)
    assert list(m) == ["pyproject.toml", "src", "src/app.py", "tool.sh"]  # sorted
    assert m["tool.sh"].mode == 0o755 and m["src/app.py"].mode == 0o644 and m["src"].mode == 0o755
    assert {(x.uid, x.gid, x.uname, x.gname, x.mtime) for x in m.values()} == {(0, 0, "", "", 946684800)}
    assert len(first) % 512 == 0 and first.endswith(b"\x00" * 1024)


def test_content_changes_the_digest(tmp_path: Path):
    tree = make_tree(tmp_path / "t")
    with pack(tree) as a:
        before = a.digest
    (tree / "src" / "app.py").write_text("print('bye')\n")
    with pack(tree) as b:
        assert b.digest != before


def test_walk_leaves_out_caches_and_dependencies(tmp_path: Path):
    tree = make_tree(tmp_path / "t")
    for d in (".git/objects", "node_modules/x", "src/__pycache__", ".pytest_cache", "dist", "env"):
        (tree / d).mkdir(parents=True)
        (tree / d / "f").write_text("x")
    (tree / "env" / "pyvenv.cfg").write_text("")  # a virtualenv under any name
    (tree / "lib" / "build").mkdir(parents=True)  # "build" without a manifest beside it is source
    (tree / "lib" / "build" / "keep.py").write_text("")
    with pack(tree, use_git=False) as p:
        names = set(members(p.path))
        skipped = dict(p.stats.skipped)
    assert names == {"pyproject.toml", "src", "src/app.py", "tool.sh", "lib", "lib/build", "lib/build/keep.py"}
    assert skipped["node_modules"] == "excluded: npm dependencies"
    assert skipped["dist"] == "excluded: build output (next to pyproject.toml)"
    assert skipped["env"] == "excluded: Python virtualenv"
    assert p.stats.source == "walk" and p.stats.files == 4


def test_symlinks_inside_kept_outside_skipped(tmp_path: Path):
    tree = make_tree(tmp_path / "t")
    (tree / "inside").symlink_to("src/app.py")
    (tree / "src" / "up").symlink_to("../tool.sh")
    (tree / "abs").symlink_to("/etc/passwd")
    (tree / "src" / "escape").symlink_to("../../outside")
    os.mkfifo(tree / "fifo")
    with pack(tree) as p:
        m = members(p.path)
        skipped = dict(p.stats.skipped)
    assert m["inside"].issym() and m["inside"].linkname == "src/app.py"
    assert m["src/up"].linkname == "../tool.sh"
    assert "abs" not in m and "absolute" in skipped["abs"]
    assert "src/escape" not in m and "outside the root" in skipped["src/escape"]
    assert "fifo" not in m and "special file" in skipped["fifo"]


@pytest.mark.parametrize("link,target,ok", [
    ("a", "b", True), ("d/a", "../b", True), ("a", "../b", False), ("d/a", "x/../../b", False),
    ("a", "/etc", False), ("a", "", False), ("d/e/a", "../../b", True), ("d/e/a", "../../../b", False),
])
def test_symlink_rule(link: str, target: str, ok: bool):
    assert (symlink_reason(link, target) == "") is ok


def test_long_and_unicode_names_round_trip(tmp_path: Path):
    tree = tmp_path / "t"
    names = ["a" * 60 + "/" + "b" * 60 + "/f.txt", "c" * 101 + "/x", "ünï/ç.txt"]
    for n in names:
        (tree / n).parent.mkdir(parents=True, exist_ok=True)
        (tree / n).write_text(n)
    (tree / "l").symlink_to("d/" * 60 + "target")  # a link target over 100 bytes
    with pack(tree) as p, tarfile.open(p.path) as tf:
        for n in names:
            assert tf.extractfile(n).read().decode() == n
        assert tf.getmember("l").linkname == "d/" * 60 + "target"


def test_header_matches_go_for_a_plain_file():
    # Bytes of archive/tar's header for {Name: "a.txt", Size: 3, Mode: 0644,
    # ModTime: 2000-01-01} in FormatPAX, checksum included.
    blk = header(b"a.txt", TYPE_FILE, 0o644, 3, 946684800)
    assert len(blk) == 512
    assert blk[100:157] == b"0000644\x000000000\x000000000\x0000000000003\x0007033241600\x00010211\x00 0"
    assert blk[257:265] == b"ustar\x0000" and blk[329:345] == b"0000000\x00" * 2
    assert tarfile.TarInfo.frombuf(blk, "utf-8", "strict").name == "a.txt"


def test_limits(tmp_path: Path):
    tree = make_tree(tmp_path / "t")
    (tree / "src" / "big.bin").write_bytes(b"x" * 5000)
    with pytest.raises(PackError) as exc:
        pack(tree, max_bytes=4000)
    assert exc.value.path == "src/big.bin" and "per-file limit" in str(exc.value)
    with pack(tree, max_bytes=10_000) as p:
        assert p.stats.bytes > 5000


def test_not_a_directory(tmp_path: Path):
    with pytest.raises(PackError, match="no such directory"):
        pack(tmp_path / "missing")
    (tmp_path / "f").write_text("")
    with pytest.raises(PackError, match="not a directory"):
        pack(tmp_path / "f")


def test_temp_file_removed(tmp_path: Path):
    tree = make_tree(tmp_path / "t")
    with pack(tree, tmp_dir=str(tmp_path)) as p:
        assert os.path.exists(p.path) and Path(p.path).parent == tmp_path
    assert not os.path.exists(p.path)


@pytest.mark.skipif(shutil.which("git") is None, reason="no git binary")
def test_git_work_tree_packs_what_git_would_commit(tmp_path: Path):
    tree = make_tree(tmp_path / "repo")

    def git(*args: str) -> None:
        subprocess.run(["git", "-c", "user.email=t@t", "-c", "user.name=t", *args], cwd=tree, check=True,
                       capture_output=True)

    (tree / ".gitignore").write_text("secret.txt\nout/\n")
    (tree / "secret.txt").write_text("ignored")
    (tree / "out").mkdir()
    (tree / "out" / "o").write_text("ignored")
    (tree / "node_modules").mkdir()
    (tree / "node_modules" / "tracked.js").write_text("")  # tracked: git decides, not the walk's list
    (tree / "gone.txt").write_text("")
    git("init", "-q", ".")
    git("add", "-A")
    git("commit", "-qm", "init")
    (tree / "gone.txt").unlink()
    (tree / "untracked.py").write_text("")
    with pack(tree) as p:
        names = set(members(p.path))
        assert p.stats.source == "git"
        assert ("gone.txt", "tracked by git but deleted from the work tree") in p.stats.skipped
    assert names == {".gitignore", "pyproject.toml", "src", "src/app.py", "tool.sh", "node_modules",
                     "node_modules/tracked.js", "untracked.py"}
    with pack(tree / "src") as sub:  # a subdirectory packs as its own root
        assert set(members(sub.path)) == {"app.py"}
    with pack(tree, use_git=False) as walked:
        assert "secret.txt" in set(members(walked.path))  # a walk reads no .gitignore


def test_read_bytes_is_a_tar(tmp_path: Path):
    with pack(make_tree(tmp_path / "t")) as p:
        with tarfile.open(fileobj=io.BytesIO(p.read_bytes())) as tf:
            assert "src/app.py" in tf.getnames()
