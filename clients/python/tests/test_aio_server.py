"""The asyncio client (greenlight_client.aio.AsyncClient) against a real
greenlight serve (see conftest.py): the same checks as test_server.py's,
through grpc.aio. Each test runs its own event loop (asyncio.run) with its
own client: a grpc.aio channel belongs to the loop that made it."""

from __future__ import annotations

import asyncio
import hashlib
import os
from typing import Any, Awaitable, Callable, List

import grpc
import pytest

from greenlight_client import CHUNK_BYTES, AsyncClient, ProviderError, pack
from greenlight_client.v1 import run_pb2, types_pb2
from test_server import FIX_DIFF, STREAM_TIMEOUT, assert_well_formed, kinds


def run_with(server: Any, body: Callable[[AsyncClient], Awaitable[Any]], token: str = "") -> Any:
    """Runs body(client) in a fresh event loop with a client of the server."""

    async def main() -> Any:
        async with AsyncClient(server.address, token=token or server.token) as client:
            await client.wait_ready(timeout=10)
            return await body(client)

    return asyncio.run(main())


def test_upload_in_chunks_and_dedupe(server):
    data = os.urandom(2 * CHUNK_BYTES + 1000)  # three chunks

    async def body(client: AsyncClient) -> None:
        digest = await client.upload(data)
        assert digest.hash == hashlib.sha256(data).hexdigest() and digest.size_bytes == len(data)
        st = await client.stat(digest)
        assert st.found and st.size_bytes == len(data)
        assert await client.upload(data) == digest  # already stored: not sent again
        assert (await client.upload(b"")).size_bytes == 0

    run_with(server, body)


def test_verify_failing_then_watch_and_list(server, project):
    d = project("failing")

    async def body(client: AsyncClient) -> None:
        stream = client.verify(d, timeout=STREAM_TIMEOUT)
        events = [ev async for ev in stream]
        run = await stream.wait()
        assert_well_formed(events)
        assert run.result.status == types_pb2.VERDICT_FAIL, run.result.summary
        assert run.status == run_pb2.RUN_STATUS_FAILED
        assert any(f.test.endswith("test_initials") for f in run.result.failures), run.result.failures
        assert run.source_dir == str(d.resolve())

        replayed = [ev async for ev in client.watch(run.id, timeout=STREAM_TIMEOUT)]
        assert [e.seq for e in replayed] == [e.seq for e in events] and kinds(replayed) == kinds(events)
        later = [ev async for ev in client.watch(run.id, after_seq=3, timeout=STREAM_TIMEOUT)]
        assert [e.seq for e in later] == [e.seq for e in events[3:]]

        listed = await client.list_runs()
        assert listed.runs and listed.runs[0].id == run.id  # newest first
        only_failed = await client.list_runs(statuses=[run_pb2.RUN_STATUS_FAILED], page_size=1)
        assert [r.id for r in only_failed.runs] == [run.id]
        assert (await client.get_run(run.id)).status == run_pb2.RUN_STATUS_FAILED

    run_with(server, body)


def test_verify_an_uploaded_digest_and_discover(server, project):
    d = project("passing")

    async def body(client: AsyncClient) -> None:
        caps = await client.discover(d)
        assert [s.runtime for s in caps.subprojects] == ["python"], caps.subprojects
        assert any("pytest" in c.command for c in caps.commands), [c.command for c in caps.commands]
        with pack(d) as packed:
            digest = await client.upload(packed)
        assert await client.discover(digest) == caps
        run = await client.verify(digest, timeout=STREAM_TIMEOUT).wait()
        assert run.snapshot == digest
        assert run.result.status == types_pb2.VERDICT_PASS, run.result.summary
        assert run.result.counts.passed == 2

    run_with(server, body)


def test_fix_with_an_async_provider(server, project):
    requests: List[run_pb2.PatchRequest] = []

    async def provider(req: run_pb2.PatchRequest) -> str:
        requests.append(req)
        await asyncio.sleep(0)  # a model call would await here
        return FIX_DIFF

    async def body(client: AsyncClient) -> None:
        stream = client.fix(project("failing"), provider=provider, timeout=STREAM_TIMEOUT)
        events = [ev async for ev in stream]
        run = await stream.wait()
        assert_well_formed(events)
        assert len(requests) == 1 and requests[0].attempt == 1
        assert any(f.test.endswith("test_initials") for f in requests[0].failures), requests[0].failures
        assert "patch_requested" in kinds(events) and "patch_evaluated" in kinds(events)
        assert run.kind == run_pb2.RUN_KIND_FIX
        assert run.status == run_pb2.RUN_STATUS_PASSED, run.result.summary
        assert run.metrics.green and run.metrics.attempts_to_green == 1
        assert run.patches[0].applied and ".upper()" in run.patches[0].diff

    run_with(server, body)


def test_fix_provider_error_cancels(server, project):
    async def provider(req: run_pb2.PatchRequest) -> str:
        raise RuntimeError("model unavailable")

    async def body(client: AsyncClient) -> None:
        stream = client.fix(project("failing"), provider=provider, timeout=STREAM_TIMEOUT)
        with pytest.raises(ProviderError) as exc:
            await stream.wait()
        assert isinstance(exc.value.__cause__, RuntimeError)
        # Dropping the Fix stream ends the run on the server; it must not hang.
        # The watch ends when the run does (bounded by its timeout).
        finished = await client.watch(stream.run_id, timeout=60).wait()
        assert finished.status in (run_pb2.RUN_STATUS_CANCELED, run_pb2.RUN_STATUS_FAILED), finished.status
        assert not finished.metrics.green

    run_with(server, body)


def test_start_detached_then_cancel(server, project):
    async def body(client: AsyncClient) -> None:
        started = await client.start_verify(project("passing"))
        assert started.id.startswith("r_")
        cancelled = await client.cancel_run(started.id)
        assert cancelled.status in (run_pb2.RUN_STATUS_CANCELED, run_pb2.RUN_STATUS_PASSED)
        assert (await client.watch(started.id).wait()).status == cancelled.status
        with pytest.raises(grpc.RpcError) as err:
            await client.cancel_run("r_20000101T000000_nothere")
        assert err.value.code() == grpc.StatusCode.NOT_FOUND

    run_with(server, body)


def test_wrong_token_is_unauthenticated(server):
    async def body(client: AsyncClient) -> None:
        with pytest.raises(grpc.RpcError) as exc:
            await client.get_run("r_nope")
        assert exc.value.code() == grpc.StatusCode.UNAUTHENTICATED
        with pytest.raises(grpc.RpcError) as exc:
            await client.list_runs()
        assert exc.value.code() == grpc.StatusCode.UNAUTHENTICATED

    run_with(server, body, token="not-the-token-0123456789")

