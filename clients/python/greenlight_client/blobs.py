"""upload: put a blob (a snapshot tar) into greenlight's content-addressed store.

BlobService.Write is a client stream: the first message carries the
declared digest (sha256 hex and size), the data follows in 256 KiB chunks
(docs/architecture.md), and the server verifies hash and size before the
blob becomes visible. A blob the store already has is not sent again.
"""

from __future__ import annotations

import hashlib
import os
from typing import Iterable, Iterator, Optional, Sequence, Tuple, Union

from .errors import UploadError
from .packing import Packed
from .v1 import blob_pb2, blob_pb2_grpc, types_pb2

CHUNK_BYTES = 256 << 10

Source = Union[bytes, bytearray, memoryview, str, "os.PathLike[str]", Packed]
"""What upload accepts: the bytes themselves, a file path, or a Packed snapshot."""

Metadata = Sequence[Tuple[str, str]]


def digest_of(source: Source) -> types_pb2.Digest:
    """Returns the sha256 and size of source's content."""
    if isinstance(source, Packed):
        return source.digest
    sha, size = hashlib.sha256(), 0
    for chunk in _chunks(source):
        sha.update(chunk)
        size += len(chunk)
    return types_pb2.Digest(hash=sha.hexdigest(), size_bytes=size)


def upload(stub: blob_pb2_grpc.BlobServiceStub, source: Source, metadata: Metadata = (),
           timeout: Optional[float] = None) -> types_pb2.Digest:
    """Stores source in the blob store and returns its digest.

    Raises:
        grpc.RpcError: the server refused the blob (InvalidArgument when the
            content changed while it was sent, Unauthenticated without a
            valid token, ...).
        UploadError: the server confirmed a different digest.
    """
    digest = digest_of(source)
    st = stub.Stat(blob_pb2.StatRequest(digest=digest), metadata=metadata, timeout=timeout)
    if st.found and st.size_bytes == digest.size_bytes:
        return digest
    resp = stub.Write(write_requests(digest, _chunks(source)), metadata=metadata, timeout=timeout)
    got = resp.digest
    if got.hash != digest.hash or got.size_bytes != digest.size_bytes:
        raise UploadError(f"stored as sha256:{got.hash}/{got.size_bytes}, "
                          f"sent sha256:{digest.hash}/{digest.size_bytes}")
    return digest


def write_requests(digest: types_pb2.Digest, chunks: Iterable[bytes]) -> Iterator[blob_pb2.WriteRequest]:
    """Yields the Write stream: the digest in the first message, one chunk
    per message, finish_write on the last (an empty blob is one message)."""
    it = iter(chunks)
    pending = next(it, None)
    first = True
    while True:
        nxt = next(it, None) if pending is not None else None
        req = blob_pb2.WriteRequest(data=pending or b"", finish_write=nxt is None)
        if first:
            req.digest.CopyFrom(digest)
            first = False
        yield req
        if nxt is None:
            return
        pending = nxt


def _chunks(source: Source) -> Iterator[bytes]:
    """Reads source in CHUNK_BYTES pieces."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        data = bytes(source)
        for off in range(0, len(data), CHUNK_BYTES):
            yield data[off:off + CHUNK_BYTES]
        return
    path = source.path if isinstance(source, Packed) else os.fspath(source)
    with open(path, "rb") as f:
        while True:
            chunk = f.read(CHUNK_BYTES)
            if not chunk:
                return
            yield chunk
