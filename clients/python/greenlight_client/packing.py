"""pack: turn a directory into a greenlight snapshot.

A snapshot is an uncompressed tar written deterministically, the format
the server accepts (pkg/workspace): entries sorted by path, fixed times,
owners and modes (0644 or 0755 for files, 0755 for directories), so the
same tree always gives the same bytes and the same sha256 digest. The
bytes are the Go CLI's (tarheader), so both clients name a tree with one
digest, except outside git where a .gitignore file leaves out files for
the CLI and not here.

The tar goes to a temporary file first: a directory that cannot be packed
fails before anything is sent, and the user's tree is only ever read.
"""

from __future__ import annotations

import hashlib
import os
import stat
import tempfile
from dataclasses import dataclass, field
from typing import BinaryIO, List, Optional, Tuple

from . import tarheader
from .errors import PackError
from .listing import KIND_DIR, KIND_FILE, KIND_SYMLINK, Entry, list_entries
from .v1 import types_pb2

# Limits of the server's snapshot validation (pkg/workspace/limits.go).
DEFAULT_MAX_BYTES = 1 << 30
DEFAULT_MAX_FILE_BYTES = 256 << 20
DEFAULT_MAX_FILES = 100_000
DEFAULT_MAX_DEPTH = 256

# 2000-01-01T00:00:00Z, the modification time of every entry (the Go
# packer's: some tools warn about the Unix epoch).
PACK_MTIME = 946684800

_BLOCK = tarheader.BLOCK
_COPY_CHUNK = 256 << 10


@dataclass(frozen=True)
class Limits:
    """Bounds of a snapshot; the defaults are the server's."""

    max_bytes: int = DEFAULT_MAX_BYTES
    max_file_bytes: int = DEFAULT_MAX_FILE_BYTES
    max_files: int = DEFAULT_MAX_FILES
    max_depth: int = DEFAULT_MAX_DEPTH


@dataclass
class PackStats:
    """What went into a snapshot.

    Attributes:
        source: "git" when git listed the files, "walk" otherwise.
        files, dirs, symlinks: entries by kind.
        bytes: the sum of the packed files' sizes.
        skipped: (path, reason) pairs of what was left out and why.
    """

    source: str
    files: int = 0
    dirs: int = 0
    symlinks: int = 0
    bytes: int = 0
    skipped: List[Tuple[str, str]] = field(default_factory=list)


@dataclass
class Packed:
    """A directory packed into a temporary tar file.

    Use it as a context manager (or call remove()) to delete the file.

    Attributes:
        directory: the absolute directory that was packed.
        path: the tar file.
        digest: the tar's sha256 and size, its name in the blob store.
        stats: what was packed.
    """

    directory: str
    path: str
    digest: types_pb2.Digest
    stats: PackStats

    def read_bytes(self) -> bytes:
        """Returns the whole tar."""
        with open(self.path, "rb") as f:
            return f.read()

    def remove(self) -> None:
        """Deletes the tar file (idempotent)."""
        try:
            os.remove(self.path)
        except FileNotFoundError:
            pass

    def __enter__(self) -> "Packed":
        return self

    def __exit__(self, *exc: object) -> None:
        self.remove()


def pack(directory: "str | os.PathLike[str]", *, max_bytes: int = 0, tmp_dir: Optional[str] = None,
         use_git: bool = True) -> Packed:
    """Packs directory into a snapshot tar in a temporary file.

    Args:
        directory: the workspace. Inside a git work tree the files are the
            ones git would commit; elsewhere everything but .git, dependency
            trees, caches, virtualenvs and build outputs.
        max_bytes: refuse a workspace whose files add up to more (0: 1 GiB,
            the server's limit).
        tmp_dir: where the temporary tar goes (None: the system default).
        use_git: False walks the directory even inside a git work tree.

    Returns:
        The Packed snapshot; remove() deletes its file.

    Raises:
        PackError: the directory is missing, or over a limit (the error
            names the path where packing stopped).
    """
    root = _check_dir(directory)
    limits = Limits()
    if max_bytes > 0:
        limits = Limits(max_bytes=max_bytes, max_file_bytes=min(max_bytes, DEFAULT_MAX_FILE_BYTES))
    listing = list_entries(root, use_git=use_git)
    entries = sorted(listing.entries, key=lambda e: os.fsencode(e.rel))
    check_limits(entries, limits)
    stats = PackStats(source=listing.source, skipped=listing.skipped)
    fd, path = tempfile.mkstemp(prefix="greenlight-snapshot-", suffix=".tar", dir=tmp_dir)
    try:
        with os.fdopen(fd, "wb") as out:
            digest = write_tar(root, entries, out, stats)
    except BaseException:
        os.remove(path)
        raise
    return Packed(directory=root, path=path, digest=digest, stats=stats)


def check_limits(entries: List[Entry], limits: Limits) -> None:
    """Applies limits to the sorted entries, naming the first one past a limit."""
    total = 0
    for i, e in enumerate(entries):
        if i + 1 > limits.max_files:
            raise PackError(f"{e.rel}: workspace has more than {limits.max_files} entries; stopped here", e.rel)
        depth = e.rel.count("/") + 1
        if depth > limits.max_depth:
            raise PackError(f"{e.rel}: path has {depth} components, over the limit of {limits.max_depth}", e.rel)
        if e.kind != KIND_FILE:
            continue
        if e.size > limits.max_file_bytes:
            raise PackError(f"{e.rel}: file is {e.size} bytes, over the per-file limit of {limits.max_file_bytes}",
                            e.rel)
        total += e.size
        if total > limits.max_bytes:
            raise PackError(f"{e.rel}: workspace exceeds {limits.max_bytes} bytes; stopped here", e.rel)


def write_tar(root: str, entries: List[Entry], out: BinaryIO, stats: PackStats) -> types_pb2.Digest:
    """Writes the tar of entries (sorted) to out and returns its digest."""
    w = _DigestWriter(out)
    for e in entries:
        w.write(_header(e))
        if e.kind == KIND_FILE:
            _copy_file(root, e, w)
            w.write(b"\x00" * (-e.size % _BLOCK))
        _count(stats, e)
    # Two zero blocks end the archive, and no padding to a 10 KiB record
    # follows (tarfile.close() would add it; Go's archive/tar does not).
    w.write(b"\x00" * (2 * _BLOCK))
    return types_pb2.Digest(hash=w.sha.hexdigest(), size_bytes=w.size)


def _header(e: Entry) -> bytes:
    """Builds the entry's normalized header (tarheader: Go's encoding)."""
    name = os.fsencode(e.rel)
    if e.kind == KIND_DIR:
        return tarheader.header(name + b"/", tarheader.TYPE_DIR, 0o755, 0, PACK_MTIME)
    if e.kind == KIND_SYMLINK:
        return tarheader.header(name, tarheader.TYPE_SYMLINK, 0o777, 0, PACK_MTIME, os.fsencode(e.target))
    return tarheader.header(name, tarheader.TYPE_FILE, 0o755 if e.executable else 0o644, e.size, PACK_MTIME)


def _copy_file(root: str, e: Entry, w: "_DigestWriter") -> None:
    """Copies one listed file's content.

    The file is opened without following a final symlink and without
    blocking on a fifo swapped in, and must still be the listed inode with
    the listed size: whatever happened to the tree meanwhile, only the
    listed file's bytes are packed.
    """
    p = os.path.join(root, *e.rel.split("/"))
    try:
        fd = os.open(p, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError as err:
        raise PackError(f"{e.rel}: {err.strerror}", e.rel) from err
    with os.fdopen(fd, "rb") as f:
        st = os.fstat(f.fileno())
        if (st.st_dev, st.st_ino) != e.ino or not stat.S_ISREG(st.st_mode) or st.st_size != e.size:
            raise PackError(f"{e.rel}: replaced or resized while packing", e.rel)
        left = e.size
        while left > 0:
            chunk = f.read(min(left, _COPY_CHUNK))
            if not chunk:
                raise PackError(f"{e.rel}: shrank while packing ({e.size - left} of {e.size} bytes read)", e.rel)
            w.write(chunk)
            left -= len(chunk)


def _count(stats: PackStats, e: Entry) -> None:
    if e.kind == KIND_FILE:
        stats.files += 1
        stats.bytes += e.size
    elif e.kind == KIND_DIR:
        stats.dirs += 1
    else:
        stats.symlinks += 1


def _check_dir(directory: "str | os.PathLike[str]") -> str:
    """Resolves directory (symlinks included: the tree is walked, not a link
    to it) and checks that it is a directory."""
    path = os.path.realpath(os.fspath(directory))
    if not os.path.exists(path):
        raise PackError(f"{os.fspath(directory)}: no such directory")
    if not os.path.isdir(path):
        raise PackError(f"{os.fspath(directory)}: not a directory")
    return path


class _DigestWriter:
    """Writes through to a file while hashing and counting."""

    def __init__(self, out: BinaryIO) -> None:
        self.out = out
        self.sha = hashlib.sha256()
        self.size = 0

    def write(self, b: bytes) -> None:
        self.out.write(b)
        self.sha.update(b)
        self.size += len(b)
