"""greenlight_client: a Python client for greenlight's public gRPC API.

greenlight verifies code by running it in throw-away Docker sandboxes and
repairs it in a loop where a model (here: any Python callable) proposes
patches. This package packs a directory into a snapshot, uploads it, and
drives RunService: verify, fix, watch, get_run, list_runs, discover.
AsyncClient (greenlight_client.aio) is the same for asyncio.

    from greenlight_client import Client

    with Client("127.0.0.1:7070", token="...") as gl:
        run = gl.verify("path/to/project").wait()
        print(run.result.summary)

The protobuf messages and enums are in greenlight_client.v1 (generated from
proto/greenlight/v1/{types,events,run,blob}.proto).
"""

from .aio import AsyncClient, AsyncRunStream
from .blobs import CHUNK_BYTES, digest_of, write_requests
from .client import Client
from .connection import TokenInClearError, bearer_metadata, channel_config, open_aio_channel, open_channel
from .errors import GreenlightError, PackError, ProviderError, StreamEndedError, UploadError
from .fixing import PatchProvider
from .packing import Limits, Packed, PackStats, pack
from .stream import RunStream
from .v1 import blob_pb2, events_pb2, run_pb2, types_pb2

__all__ = [
    "AsyncClient", "AsyncRunStream", "CHUNK_BYTES", "Client", "GreenlightError", "Limits", "PackError", "PackStats",
    "Packed", "PatchProvider", "ProviderError", "RunStream", "StreamEndedError", "TokenInClearError", "UploadError",
    "bearer_metadata", "channel_config", "blob_pb2", "digest_of", "events_pb2", "open_aio_channel", "open_channel",
    "pack", "run_pb2", "types_pb2", "write_requests",
]
