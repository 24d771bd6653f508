"""upload for asyncio: BlobService.Stat, then Write only when the store
lacks the blob (the protocol is blobs.py's)."""

from __future__ import annotations

import asyncio
from typing import Optional

from ..blobs import Metadata, Source, _chunks, digest_of, write_requests
from ..errors import UploadError
from ..v1 import blob_pb2, blob_pb2_grpc, types_pb2


async def upload(stub: blob_pb2_grpc.BlobServiceStub, source: Source, metadata: Metadata = (),
                 timeout: Optional[float] = None) -> types_pb2.Digest:
    """Stores source in the blob store and returns its digest.

    Hashing a file reads all of it, so that happens in a worker thread;
    the chunks are then read as grpc sends them (256 KiB reads, which do
    not hold up the event loop for long).

    Raises:
        grpc.RpcError: the server refused the blob.
        UploadError: the server confirmed a different digest.
    """
    digest = await asyncio.to_thread(digest_of, source)
    st = await stub.Stat(blob_pb2.StatRequest(digest=digest), metadata=metadata, timeout=timeout)
    if st.found and st.size_bytes == digest.size_bytes:
        return digest
    resp = await stub.Write(write_requests(digest, _chunks(source)), metadata=metadata, timeout=timeout)
    got = resp.digest
    if got.hash != digest.hash or got.size_bytes != digest.size_bytes:
        raise UploadError(f"stored as sha256:{got.hash}/{got.size_bytes}, "
                          f"sent sha256:{digest.hash}/{digest.size_bytes}")
    return digest
