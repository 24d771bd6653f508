"""AsyncRunStream: the events of one run for asyncio, and its final state."""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING, Any, AsyncGenerator, AsyncIterator, Awaitable, Callable, List, Optional

import grpc
import grpc.aio

from ..errors import StreamEndedError
from ..stream import EventCursor
from ..v1 import run_pb2

if TYPE_CHECKING:  # pragma: no cover
    from .client import AsyncClient

AsyncEventHook = Callable[[run_pb2.RunEvent], Awaitable[None]]
"""Called with each event before it is passed on (the Fix exchange answers
patch requests there)."""

CallOpener = Callable[[Optional[float]], Awaitable[Any]]
"""Starts a run's first call with a timeout in seconds (None: none),
packing and uploading first when needed."""


class AsyncRunStream(EventCursor):
    """The events of one run (Verify, Fix or WatchRun), as they happen.

    Nothing is sent until it is first iterated or awaited: then a
    directory is packed and uploaded and the call starts. Iterate it with
    `async for` for RunEvents, in seq order and each once, ending with the
    run_finished event; or `await stream.wait()` for the final Run. A
    ResumeFrom event (the server dropped a lagging stream) re-attaches with
    WatchRun and is not passed on. Use it with `async with` (or call
    cancel()) to stop listening early: a Verify or Fix run is then
    canceled on the server.

    Attributes:
        run_id: the run's id, known from the first event on.
        last_seq: the seq of the last event passed on.
        finished: the RunFinished event once it arrived, else None.
    """

    def __init__(self, client: "AsyncClient", open_call: CallOpener, on_event: Optional[AsyncEventHook] = None,
                 timeout: Optional[float] = None) -> None:
        super().__init__()
        self.finished: Optional[run_pb2.RunFinished] = None
        self._client = client
        self._open_call = open_call
        self._on_event = on_event
        self._timeout = timeout  # bounds the stream from its first call on, re-attached watches too
        self._deadline: Optional[float] = None  # its time.monotonic() value once started
        self._calls: List[Any] = []
        self._source: Any = None
        self._canceled = False
        self._events = self._follow()

    @property
    def call(self) -> Any:
        """The run's first call (None before the stream started)."""
        return self._calls[0] if self._calls else None

    def __aiter__(self) -> AsyncIterator[run_pb2.RunEvent]:
        return self._events

    async def __anext__(self) -> run_pb2.RunEvent:
        return await self._events.__anext__()

    async def wait(self) -> run_pb2.Run:
        """Consumes the remaining events and returns the finished run, with
        its result (GetRun; built from the RunFinished event if that fails).

        Raises:
            StreamEndedError: the stream ended (or was canceled) before the
                run finished.
            grpc.RpcError: the stream failed.
        """
        async for _ in self._events:
            pass
        if self.finished is None:
            raise StreamEndedError(f"run {self.run_id or '(not started)'}: stopped listening before the run finished")
        try:
            run = await self._client.get_run(self.run_id)
            if run.HasField("result"):
                return run
        except grpc.RpcError:
            pass
        return run_pb2.Run(id=self.run_id, status=self.finished.status, result=self.finished.result,
                           metrics=self.finished.metrics)

    def cancel(self) -> None:
        """Stops listening: cancels the call(s) of this run (idempotent).
        Dropping a Verify or Fix stream cancels the run on the server (the
        run ends CANCELED); a WatchRun stream is only a watcher. A stream
        canceled before it started never starts."""
        self._canceled = True
        for call in self._calls:
            call.cancel()

    async def __aenter__(self) -> "AsyncRunStream":
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.cancel()
        await self._events.aclose()

    async def _follow(self) -> AsyncGenerator[run_pb2.RunEvent, None]:
        try:
            if self._canceled:
                return
            call = await self._open_call(self._timeout)
            if self._timeout is not None:
                self._deadline = time.monotonic() + self._timeout
            self._calls.append(call)
            self._source = call
            if self._canceled:  # canceled while packing or uploading
                call.cancel()
                return
            while True:
                resp = await self._source.read()
                if resp is grpc.aio.EOF:
                    run = self.run_id or "(no events)"
                    raise StreamEndedError(f"run {run}: the event stream ended before the run finished")
                ev = resp.event
                if not self._admit(ev):
                    continue
                if self._on_event is not None:
                    await self._on_event(ev)
                yield ev
                if ev.HasField("run_finished"):
                    self.finished = ev.run_finished
                    return
        except asyncio.CancelledError:
            # grpc.aio raises CancelledError from read() on a call canceled
            # by cancel(): that ends the stream. Any other cancellation is
            # the task's own and goes on.
            if not self._canceled:
                raise
        finally:
            self.cancel()

    def _rewatch(self, after_seq: int) -> None:
        """Reads on from a WatchRun after after_seq. The original call stays
        open: a Fix stream still carries the patch replies."""
        call = self._client._watch_call(self.run_id, after_seq, self._deadline)
        self._calls.append(call)
        self._source = call


def remaining(deadline: Optional[float]) -> Optional[float]:
    """The seconds left until a time.monotonic() deadline (None: none)."""
    return None if deadline is None else max(deadline - time.monotonic(), 0.0)
