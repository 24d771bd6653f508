"""AsyncClient: greenlight's public API (RunService, BlobService) for asyncio."""

from __future__ import annotations

import asyncio
import os
from typing import Any, Iterable, Optional, Tuple, Union

import grpc
import grpc.aio

from ..blobs import Source
from ..client import DEFAULT_ADDRESS, Target
from ..connection import PEM, bearer_metadata, open_aio_channel, tls_from_env
from ..fixing import fix_options
from ..packing import pack
from ..v1 import blob_pb2, blob_pb2_grpc, events_pb2, run_pb2, run_pb2_grpc, types_pb2
from . import blobs
from .fixing import AsyncPatchProvider, start_fix
from .stream import AsyncRunStream, remaining


class AsyncClient:
    """A connection to a greenlight gateway for asyncio (grpc.aio), with
    the surface of Client and of the TypeScript client.

    Create it in a coroutine (the channel belongs to the running event
    loop):

        async with AsyncClient.from_env() as gl:
            run = await gl.verify("path/to/project").wait()

    Streams (verify, fix, watch) start when first iterated or awaited; the
    other methods are coroutines.

    Attributes:
        runs: the RunService stub (grpc.aio), for calls this class does not wrap.
        blobs: the BlobService stub.
        metadata: the call metadata (the bearer token) to pass to the stubs.
    """

    def __init__(self, address: str = DEFAULT_ADDRESS, *, token: Optional[str] = None, tls: Optional[bool] = None,
                 root_certificates: Optional[PEM] = None, certificate_chain: Optional[PEM] = None,
                 private_key: Optional[PEM] = None, server_name: Optional[str] = None,
                 channel: Optional[grpc.aio.Channel] = None, rpc_timeout: Optional[float] = 60.0) -> None:
        """Connects to address ("host:port"; the connection is made lazily).

        Args:
            token: sent as "authorization: Bearer TOKEN" on every call;
                never in clear to a host off loopback (TokenInClearError).
            tls: None (default): TLS to every host but loopback; True or
                False force it. root_certificates (a private CA),
                certificate_chain and private_key (a client certificate)
                and server_name imply TLS; each takes PEM bytes or text,
                or a file path (see connection.channel_config).
            channel: an existing grpc.aio channel to use instead (address
                and the TLS arguments are then ignored; close() closes it).
            rpc_timeout: deadline of unary calls and uploads in seconds
                (None: none). Run streams take their own timeout argument,
                none by default: runs take minutes.
        """
        self.channel = channel or open_aio_channel(address, tls=tls, root_certificates=root_certificates,
                                                   certificate_chain=certificate_chain, private_key=private_key,
                                                   server_name=server_name, token=token)
        self.metadata = bearer_metadata(token)
        self.runs = run_pb2_grpc.RunServiceStub(self.channel)
        self.blobs = blob_pb2_grpc.BlobServiceStub(self.channel)
        self.rpc_timeout = rpc_timeout

    @classmethod
    def from_env(cls, **kwargs: Any) -> "AsyncClient":
        """Connects to $GREENLIGHT_ADDR (default 127.0.0.1:7070) with the
        token $GREENLIGHT_TOKEN and the TLS settings of GREENLIGHT_TLS,
        GREENLIGHT_PLAINTEXT, GREENLIGHT_CA_FILE, GREENLIGHT_CERT,
        GREENLIGHT_KEY and GREENLIGHT_SERVER_NAME, as the greenlight CLI
        does; kwargs win."""
        addr = os.environ.get("GREENLIGHT_ADDR") or DEFAULT_ADDRESS
        return cls(addr, token=os.environ.get("GREENLIGHT_TOKEN") or None, **{**tls_from_env(), **kwargs})

    async def close(self) -> None:
        """Closes the channel; calls in flight are canceled."""
        await self.channel.close()

    async def __aenter__(self) -> "AsyncClient":
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def wait_ready(self, timeout: float = 10.0) -> None:
        """Waits until the channel is connected.

        Raises:
            asyncio.TimeoutError: not connected within timeout seconds.
        """
        await asyncio.wait_for(self.channel.channel_ready(), timeout)

    async def upload(self, source: Source) -> types_pb2.Digest:
        """Stores bytes, a file or a Packed snapshot in the blob store (not
        sent again when the store has it) and returns its digest."""
        return await blobs.upload(self.blobs, source, self.metadata, self.rpc_timeout)

    async def stat(self, digest: types_pb2.Digest) -> blob_pb2.StatResponse:
        """Says whether the blob store has a blob, and its size."""
        return await self.blobs.Stat(blob_pb2.StatRequest(digest=digest), metadata=self.metadata,
                                     timeout=self.rpc_timeout)

    def verify(self, target: Target, options: Optional[run_pb2.VerifyOptions] = None,
               timeout: Optional[float] = None) -> AsyncRunStream:
        """Verifies a directory or an uploaded snapshot (a directory is
        packed and uploaded first, when the stream starts). timeout bounds
        the stream in seconds from its first call on (packing and uploading
        are not counted; None: no deadline); past it, iterating raises
        grpc.RpcError DEADLINE_EXCEEDED and the server cancels the run.

        Returns:
            The run's events: `async for` them, or `await .wait()` for the
            final Run (run.result.status is VERDICT_PASS or VERDICT_FAIL,
            with the failures in run.result.failures).
        """
        async def open_call(call_timeout: Optional[float]) -> Any:
            snapshot, source_dir = await self._snapshot(target)
            req = run_pb2.VerifyRequest(snapshot=snapshot, options=options, source_dir=source_dir)
            return self.runs.Verify(req, metadata=self.metadata, timeout=call_timeout)

        return AsyncRunStream(self, open_call, timeout=timeout)

    def fix(self, target: Target, provider: Optional[AsyncPatchProvider] = None,
            options: Optional[run_pb2.FixOptions] = None, timeout: Optional[float] = None) -> AsyncRunStream:
        """Runs the repair loop on a directory or an uploaded snapshot.

        With provider (a coroutine function, or a plain function run in a
        worker thread), this process is the patch provider
        (PROVIDER_KIND_CLIENT): it is called for each patch request and
        returns a unified diff, or None to give up. Without one,
        options.provider must name a server-side provider. The directory
        itself is never modified: the winning patch is in the final run's
        patches. timeout bounds the whole stream, as for verify.

        Raises:
            ValueError: (at once) provider and options.provider.kind do not match.
            ProviderError: (while iterating) provider raised; the run's
                stream is canceled.
        """
        opts = fix_options(options, provider)

        async def start() -> run_pb2.FixStart:
            snapshot, source_dir = await self._snapshot(target)
            return run_pb2.FixStart(snapshot=snapshot, options=opts, source_dir=source_dir)

        return start_fix(self, start, provider, timeout)

    def watch(self, run_id: str, after_seq: int = 0, timeout: Optional[float] = None) -> AsyncRunStream:
        """Follows a run's events: the stored ones with seq > after_seq
        first, then live ones until the run finishes. timeout bounds the
        stream (a watcher going away does not affect the run)."""
        async def open_call(call_timeout: Optional[float]) -> Any:
            req = run_pb2.WatchRunRequest(run_id=run_id, after_seq=after_seq)
            return self.runs.WatchRun(req, metadata=self.metadata, timeout=call_timeout)

        return AsyncRunStream(self, open_call, timeout=timeout)

    async def start_verify(self, target: Target, options: Optional[run_pb2.VerifyOptions] = None) -> run_pb2.Run:
        """Starts a detached verification (StartRun) and returns the created
        run at once: it goes on whatever this process does. Follow it with
        watch(run.id), stop it with cancel_run(run.id)."""
        snapshot, source_dir = await self._snapshot(target)
        req = run_pb2.StartRunRequest(verify=run_pb2.VerifyRequest(snapshot=snapshot, options=options,
                                                                  source_dir=source_dir))
        return (await self.runs.StartRun(req, metadata=self.metadata, timeout=self.rpc_timeout)).run

    async def cancel_run(self, run_id: str) -> run_pb2.Run:
        """Cancels a pending or running run (it finishes RUN_STATUS_CANCELED)
        and returns it; a finished run comes back unchanged."""
        resp = await self.runs.CancelRun(run_pb2.CancelRunRequest(run_id=run_id), metadata=self.metadata,
                                         timeout=self.rpc_timeout)
        return resp.run

    async def get_run(self, run_id: str) -> run_pb2.Run:
        """Returns one run with its result."""
        resp = await self.runs.GetRun(run_pb2.GetRunRequest(run_id=run_id), metadata=self.metadata,
                                      timeout=self.rpc_timeout)
        return resp.run

    async def list_runs(self, statuses: Iterable[Union[run_pb2.RunStatus, str]] = (), page_size: int = 0,
                        page_token: str = "") -> run_pb2.ListRunsResponse:
        """Lists runs, newest first, without their results (get_run has
        them): one page of page_size (0: the server's default), from
        page_token (the previous page's next_page_token; "" for the first).
        statuses keeps only runs in those states (empty: all)."""
        req = run_pb2.ListRunsRequest(statuses=list(statuses), page_size=page_size, page_token=page_token)
        return await self.runs.ListRuns(req, metadata=self.metadata, timeout=self.rpc_timeout)

    async def discover(self, target: Target) -> events_pb2.Capabilities:
        """Returns what greenlight finds in a directory or an uploaded
        snapshot without running anything: its subprojects, toolchains
        and the steps a verify would run (capabilities.json)."""
        snapshot, _ = await self._snapshot(target)
        req = run_pb2.DiscoverWorkspaceRequest(snapshot=snapshot)
        resp = await self.runs.DiscoverWorkspace(req, metadata=self.metadata, timeout=self.rpc_timeout)
        return resp.capabilities

    def _watch_call(self, run_id: str, after_seq: int, deadline: Optional[float] = None) -> Any:
        """Opens WatchRun; deadline is a time.monotonic() value or None."""
        req = run_pb2.WatchRunRequest(run_id=run_id, after_seq=after_seq)
        return self.runs.WatchRun(req, metadata=self.metadata, timeout=remaining(deadline))

    async def _snapshot(self, target: Target) -> Tuple[types_pb2.Digest, str]:
        """Returns the snapshot digest of target and the directory it was
        packed from ("" for a digest), packing (in a worker thread: it
        walks and reads the tree) and uploading a directory."""
        if isinstance(target, types_pb2.Digest):
            return target, ""
        packed = await asyncio.to_thread(pack, target)
        try:
            await self.upload(packed)
            return packed.digest, packed.directory
        finally:
            packed.remove()

