"""Tar headers byte for byte as Go's archive/tar writes them in PAX format.

A snapshot's identity is the sha256 of its bytes, so the header encoding
must never change under the client: tarfile's has changed between Python
releases (device fields of non-device entries, for one) and names its PAX
headers differently from Go. Writing the few fields by hand keeps the bytes
fixed and equal to the Go CLI's, so both clients give one tree one digest.

Only what a snapshot needs is covered: regular files, directories and
symlinks with fixed owner (0/0), empty user and group names, and a fixed
modification time. A long ASCII name is split into the USTAR prefix and
name fields; a name that cannot be, or a link target, that is not ASCII or
longer than 100 bytes goes into a PAX extended header ("path", "linkpath").
"""

from __future__ import annotations

from typing import Dict, Optional, Tuple

BLOCK = 512

TYPE_FILE = b"0"
TYPE_SYMLINK = b"2"
TYPE_DIR = b"5"
_TYPE_PAX = b"x"

_NAME_LEN = 100
_PREFIX_LEN = 155


def header(name: bytes, typeflag: bytes, mode: int, size: int, mtime: int, linkname: bytes = b"") -> bytes:
    """Returns the header block(s) of one entry, as Go's tar.Writer does for
    a header with Format PAX: plain USTAR when the fields fit (a long ASCII
    name split into prefix and name), else a PAX extended header first.

    name is the entry name as stored (a directory's ends with "/").
    """
    prefix = b""
    records: Dict[str, bytes] = {}
    if _needs_pax(linkname):
        records["linkpath"] = linkname
    if _needs_pax(name):
        split = _split_ustar(name)
        if split is None or records:
            records["path"] = name
        else:
            prefix, name = split
    out = _pax_header(name, records) if records else b""
    blk = bytearray(BLOCK)
    _put_string(blk, 0, _NAME_LEN, _ascii(name))
    _put_octal(blk, 100, 8, mode)
    _put_octal(blk, 108, 8, 0)  # uid
    _put_octal(blk, 116, 8, 0)  # gid
    _put_octal(blk, 124, 12, size)
    _put_octal(blk, 136, 12, mtime)
    blk[156:157] = typeflag
    _put_string(blk, 157, 100, _ascii(linkname))
    # uname (265) and gname (297) stay empty.
    _put_octal(blk, 329, 8, 0)  # devmajor
    _put_octal(blk, 337, 8, 0)  # devminor
    _put_string(blk, 345, _PREFIX_LEN, prefix)
    _finish(blk)
    return out + bytes(blk)


def _split_ustar(name: bytes) -> Optional[Tuple[bytes, bytes]]:
    """Go's splitUSTARPath: a long ASCII name as (prefix, name) at a "/",
    each part fitting its field, or None."""
    if len(name) <= _NAME_LEN or any(c >= 0x80 for c in name):
        return None
    length = len(name)
    if length > _PREFIX_LEN + 1:
        length = _PREFIX_LEN + 1
    elif name.endswith(b"/"):
        length -= 1
    i = name.rfind(b"/", 0, length)
    suffix = len(name) - i - 1
    if i <= 0 or suffix > _NAME_LEN or suffix == 0 or i > _PREFIX_LEN:
        return None
    return name[:i], name[i + 1:]


def _pax_header(name: bytes, records: Dict[str, bytes]) -> bytes:
    """Builds the extended header Go writes: named dir/PaxHeaders.0/file,
    records sorted by key, mode, owner and time zero, data padded."""
    data = b"".join(_pax_record(k, records[k]) for k in sorted(records))
    blk = bytearray(BLOCK)
    path = _ascii(_pax_name(name))[:_NAME_LEN].rstrip(b"/")
    _put_string(blk, 0, _NAME_LEN, path)
    _put_octal(blk, 100, 8, 0)
    _put_octal(blk, 108, 8, 0)
    _put_octal(blk, 116, 8, 0)
    _put_octal(blk, 124, 12, len(data))
    _put_octal(blk, 136, 12, 0)
    blk[156:157] = _TYPE_PAX
    _finish(blk)
    return bytes(blk) + data + b"\x00" * (-len(data) % BLOCK)


def _pax_record(key: str, value: bytes) -> bytes:
    """Formats "LEN key=value\\n", where LEN counts the whole record."""
    body = b" " + key.encode() + b"=" + value + b"\n"
    size = len(body) + len(str(len(body)))
    if len(str(size)) + len(body) != size:
        size = len(str(size)) + len(body)
    return str(size).encode() + body


def _pax_name(name: bytes) -> bytes:
    """Go's path.Join(dir, "PaxHeaders.0", file) of path.Split(name)."""
    cut = name.rfind(b"/") + 1
    parts = [p for p in name[:cut].split(b"/") if p] + [b"PaxHeaders.0"]
    if name[cut:]:
        parts.append(name[cut:])
    return b"/".join(parts)


def _needs_pax(s: bytes) -> bool:
    return len(s) > _NAME_LEN or any(c >= 0x80 for c in s)


def _ascii(s: bytes) -> bytes:
    """Go's toASCII: keeps the ASCII characters (non-ASCII ones, valid
    UTF-8 or not, are dropped)."""
    return bytes(c for c in s if 0 < c < 0x80)


def _put_string(blk: bytearray, off: int, length: int, s: bytes) -> None:
    """Go's formatString: copy (truncating), NUL-terminate when shorter, and
    never leave a truncated name ending in "/" (some readers would take a
    file for a directory)."""
    field = s[:length]
    blk[off:off + len(field)] = field
    if len(s) < length:
        blk[off + len(s)] = 0
    if len(s) > length and field.endswith(b"/"):
        n = len(s[:length - 1].rstrip(b"/"))
        blk[off + n] = 0


def _put_octal(blk: bytearray, off: int, length: int, value: int) -> None:
    """Zero-padded octal digits and a NUL, as Go's formatOctal."""
    digits = b"%o" % value
    _put_string(blk, off, length, digits.rjust(length - 1, b"0"))


def _finish(blk: bytearray) -> None:
    """Writes the USTAR magic and version and the checksum (computed with
    the checksum field as spaces; six octal digits, NUL, space)."""
    blk[257:263] = b"ustar\x00"
    blk[263:265] = b"00"
    blk[148:156] = b" " * 8
    _put_octal(blk, 148, 7, sum(blk))
    blk[155] = 0x20
