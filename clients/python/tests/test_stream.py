"""RunStream and the Fix exchange against an in-process fake RunService.

The real server rarely sends ResumeFrom (only to a watcher that lags
behind) and never ends a stream early, so those paths are driven here.
"""

from __future__ import annotations

from concurrent import futures
from typing import Iterator, List, Tuple

import grpc
import pytest

from greenlight_client import Client, StreamEndedError
from greenlight_client.v1 import run_pb2, run_pb2_grpc, types_pb2

RUN = "r_fake"
DIGEST = types_pb2.Digest(hash="0" * 64, size_bytes=1)  # verify and fix take an uploaded snapshot as is


def event(seq: int, **kind: object) -> run_pb2.RunEvent:
    ev = run_pb2.RunEvent(run_id=RUN, seq=seq, **kind)
    if not kind:
        ev.step_started.index = seq
    return ev


def finished(seq: int) -> run_pb2.RunEvent:
    return event(seq, run_finished=run_pb2.RunFinished(status=run_pb2.RUN_STATUS_PASSED))


class FakeRuns(run_pb2_grpc.RunServiceServicer):
    """Verify: events 1-3, then ResumeFrom(2); WatchRun: after_seq+1..5, 5
    finishing; Fix: one patch request, finished once the reply is right."""

    def __init__(self) -> None:
        self.watches: List[Tuple[str, int]] = []
        self.replies: List[run_pb2.PatchReply] = []
        self.tokens: List[str] = []
        self.short = False

    def Verify(self, request: run_pb2.VerifyRequest,
               context: grpc.ServicerContext) -> Iterator[run_pb2.VerifyResponse]:
        self.tokens.append(dict(context.invocation_metadata()).get("authorization", ""))
        for seq in (1, 2, 3):
            yield run_pb2.VerifyResponse(event=event(seq))
        if not self.short:
            resume = run_pb2.RunEvent(run_id=RUN, resume_from=run_pb2.ResumeFrom(after_seq=2))
            yield run_pb2.VerifyResponse(event=resume)

    def WatchRun(self, request: run_pb2.WatchRunRequest,
                 context: grpc.ServicerContext) -> Iterator[run_pb2.WatchRunResponse]:
        self.watches.append((request.run_id, request.after_seq))
        for seq in range(request.after_seq + 1, 5):
            yield run_pb2.WatchRunResponse(event=event(seq))
        yield run_pb2.WatchRunResponse(event=finished(5))

    def GetRun(self, request: run_pb2.GetRunRequest, context: grpc.ServicerContext) -> run_pb2.GetRunResponse:
        context.abort(grpc.StatusCode.UNAVAILABLE, "store down")
        raise AssertionError("unreachable")

    def Fix(self, requests: Iterator[run_pb2.FixRequest],
            context: grpc.ServicerContext) -> Iterator[run_pb2.FixResponse]:
        start = next(requests)
        assert start.HasField("start")
        req = run_pb2.PatchRequest(run_id=RUN, attempt=7, failing_command="pytest")
        yield run_pb2.FixResponse(event=event(1, patch_requested=run_pb2.PatchRequested(request=req)))
        reply = next(requests)
        self.replies.append(reply.patch)
        yield run_pb2.FixResponse(event=finished(2))


@pytest.fixture
def fake() -> Iterator[Tuple[FakeRuns, Client]]:
    runs = FakeRuns()
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
    run_pb2_grpc.add_RunServiceServicer_to_server(runs, server)
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    with Client(f"127.0.0.1:{port}", token="t0k") as c:
        yield runs, c
    server.stop(grace=None)


def test_resume_from_reattaches_and_drops_repeats(fake: Tuple[FakeRuns, Client]):
    runs, client = fake
    stream = client.verify(DIGEST, timeout=10)
    seqs = [ev.seq for ev in stream]
    assert seqs == [1, 2, 3, 4, 5]  # 3 came again from WatchRun and was dropped
    assert runs.watches == [(RUN, 2)]
    assert runs.tokens == ["Bearer t0k"]
    run = stream.wait()  # GetRun fails: the run comes from RunFinished
    assert run.id == RUN and run.status == run_pb2.RUN_STATUS_PASSED


def test_stream_ending_early(fake: Tuple[FakeRuns, Client]):
    runs, client = fake
    runs.short = True
    stream = client.verify(DIGEST, timeout=10)
    with pytest.raises(StreamEndedError, match="ended before the run finished"):
        stream.wait()
    assert stream.last_seq == 3


def test_fix_reply_carries_the_attempt(fake: Tuple[FakeRuns, Client]):
    runs, client = fake
    got: List[int] = []

    def provider(req: run_pb2.PatchRequest) -> str:
        got.append(req.attempt)
        return "--- a/x\n+++ b/x\n"

    stream = client.fix(DIGEST, provider=provider, timeout=10)
    kinds = [ev.WhichOneof("kind") for ev in stream]
    assert kinds == ["patch_requested", "run_finished"]
    assert got == [7]
    assert len(runs.replies) == 1
    assert runs.replies[0].attempt == 7 and runs.replies[0].patch == "--- a/x\n+++ b/x\n"
