"""AsyncRunStream and the asyncio Fix exchange against the in-process fake
RunService of test_stream.py (ResumeFrom, a stream ending early, patch
replies), plus what only the asyncio client has: lazy start, async and
plain providers, cancel before start."""

from __future__ import annotations

import asyncio
import threading
from concurrent import futures
from typing import Any, Awaitable, Callable, Iterator, List, Tuple

import grpc
import pytest

from greenlight_client import AsyncClient, ProviderError, StreamEndedError
from greenlight_client.v1 import run_pb2, run_pb2_grpc
from test_stream import DIGEST, RUN, FakeRuns

DIFF = "--- a/x\n+++ b/x\n"


@pytest.fixture
def fake() -> Iterator[Tuple[FakeRuns, str]]:
    """The fake server and its address (an AsyncClient must be made inside
    the event loop that uses it, so each test makes its own)."""
    runs = FakeRuns()
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
    run_pb2_grpc.add_RunServiceServicer_to_server(runs, server)
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    yield runs, f"127.0.0.1:{port}"
    server.stop(grace=None)


def run_with(address: str, body: Callable[[AsyncClient], Awaitable[Any]]) -> Any:
    """Runs body(client) in a fresh event loop with a client of address."""

    async def main() -> Any:
        async with AsyncClient(address, token="t0k") as client:
            return await body(client)

    return asyncio.run(main())


def test_resume_from_reattaches_and_drops_repeats(fake: Tuple[FakeRuns, str]):
    runs, address = fake

    async def body(client: AsyncClient) -> Tuple[List[int], run_pb2.Run]:
        stream = client.verify(DIGEST, timeout=10)
        seqs = [ev.seq async for ev in stream]
        return seqs, await stream.wait()

    seqs, run = run_with(address, body)
    assert seqs == [1, 2, 3, 4, 5]  # 3 came again from WatchRun and was dropped
    assert runs.watches == [(RUN, 2)]
    assert runs.tokens == ["Bearer t0k"]
    assert run.id == RUN and run.status == run_pb2.RUN_STATUS_PASSED  # GetRun fails: from RunFinished


def test_nothing_is_sent_before_the_stream_is_used(fake: Tuple[FakeRuns, str]):
    runs, address = fake

    async def body(client: AsyncClient) -> None:
        stream = client.verify(DIGEST, timeout=10)
        await asyncio.sleep(0.2)
        assert runs.tokens == [], "verify called the server before its stream was iterated"
        stream.cancel()  # canceled before it started: it never starts
        with pytest.raises(StreamEndedError, match="stopped listening"):
            await stream.wait()

    run_with(address, body)
    assert runs.tokens == []


def test_stream_ending_early(fake: Tuple[FakeRuns, str]):
    runs, address = fake
    runs.short = True

    async def body(client: AsyncClient) -> None:
        stream = client.verify(DIGEST, timeout=10)
        with pytest.raises(StreamEndedError, match="ended before the run finished"):
            await stream.wait()
        assert stream.last_seq == 3

    run_with(address, body)


def test_leaving_early_cancels_the_call(fake: Tuple[FakeRuns, str]):
    _, address = fake

    async def body(client: AsyncClient) -> None:
        async with client.verify(DIGEST, timeout=10) as stream:
            first = await stream.__anext__()
            assert first.seq == 1
        assert stream.call is not None and stream.call.cancelled()
        with pytest.raises(StreamEndedError, match="stopped listening"):
            await stream.wait()

    run_with(address, body)


def plain_provider(got: List[Tuple[int, str]]) -> Callable[[run_pb2.PatchRequest], str]:
    def provider(req: run_pb2.PatchRequest) -> str:
        got.append((req.attempt, threading.current_thread().name))
        return DIFF

    return provider


def async_provider(got: List[Tuple[int, str]]) -> Callable[[run_pb2.PatchRequest], Awaitable[str]]:
    async def provider(req: run_pb2.PatchRequest) -> str:
        await asyncio.sleep(0)
        got.append((req.attempt, threading.current_thread().name))
        return DIFF

    return provider


@pytest.mark.parametrize("make, in_loop_thread", [(plain_provider, False), (async_provider, True)])
def test_fix_reply_carries_the_attempt(fake: Tuple[FakeRuns, str], make: Any, in_loop_thread: bool):
    runs, address = fake
    got: List[Tuple[int, str]] = []

    async def body(client: AsyncClient) -> List[str]:
        stream = client.fix(DIGEST, provider=make(got), timeout=10)
        return [ev.WhichOneof("kind") async for ev in stream]

    assert run_with(address, body) == ["patch_requested", "run_finished"]
    assert [a for a, _ in got] == [7]
    # A coroutine provider runs in the loop; a plain one in a worker thread.
    assert (got[0][1] == threading.main_thread().name) == in_loop_thread, got
    assert len(runs.replies) == 1
    assert runs.replies[0].attempt == 7 and runs.replies[0].patch == DIFF


def test_fix_provider_error(fake: Tuple[FakeRuns, str]):
    _, address = fake

    async def provider(req: run_pb2.PatchRequest) -> str:
        raise RuntimeError("model unavailable")

    async def body(client: AsyncClient) -> None:
        stream = client.fix(DIGEST, provider=provider, timeout=10)
        with pytest.raises(ProviderError, match="attempt 7") as exc:
            await stream.wait()
        assert isinstance(exc.value.__cause__, RuntimeError)
        assert stream.call is not None and stream.call.cancelled()

    run_with(address, body)


def test_fix_refuses_a_mismatched_provider(fake: Tuple[FakeRuns, str]):
    _, address = fake

    async def body(client: AsyncClient) -> None:
        with pytest.raises(ValueError, match="provider callback"):
            client.fix(DIGEST)  # the client provider without a callback

    run_with(address, body)
