"""RunStream: the events of one run, live, and its final state."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Iterator, List, Optional

import grpc

from .errors import StreamEndedError
from .v1 import run_pb2

if TYPE_CHECKING:  # pragma: no cover
    from .client import Client

EventHook = Callable[[run_pb2.RunEvent], None]


class EventCursor:
    """Where a run stream is in its run's events, for the sync and the
    asyncio stream alike: the run's id and the last seq passed on."""

    def __init__(self) -> None:
        self.run_id = ""
        self.last_seq = 0

    def _rewatch(self, after_seq: int) -> None:
        raise NotImplementedError

    def _admit(self, ev: run_pb2.RunEvent) -> bool:
        """Records ev and says whether to pass it on: a ResumeFrom
        re-attaches (through _rewatch) and is not passed on, nor is an
        event replayed after a resume."""
        if not self.run_id:
            self.run_id = ev.run_id
        if ev.HasField("resume_from"):
            self._rewatch(ev.resume_from.after_seq)
            return False
        if ev.seq and ev.seq <= self.last_seq:
            return False
        self.last_seq = ev.seq
        return True


class RunStream(EventCursor):
    """The events of one run (Verify, Fix or WatchRun), as they happen.

    Iterate it for RunEvents, in seq order and each once, ending with the
    run_finished event; or call wait() for the final Run. A ResumeFrom
    event (the server dropped a lagging stream) re-attaches with WatchRun
    and is not passed on. Use it as a context manager (or call cancel()) to
    stop listening early.

    Attributes:
        run_id: the run's id, known from the first event on.
        last_seq: the seq of the last event passed on.
        finished: the RunFinished event once it arrived, else None.
    """

    def __init__(self, client: "Client", call: Any, on_event: Optional[EventHook] = None,
                 on_close: Optional[Callable[[], None]] = None, deadline: Optional[float] = None) -> None:
        super().__init__()
        self.finished: Optional[run_pb2.RunFinished] = None
        self._client = client
        self._calls: List[Any] = [call]
        self._source: Iterator[Any] = call
        self._on_event = on_event
        self._on_close = on_close
        self._deadline = deadline  # time.monotonic() value bounding re-attached watches too
        self._events = self._follow()

    def __iter__(self) -> Iterator[run_pb2.RunEvent]:
        return self._events

    def __next__(self) -> run_pb2.RunEvent:
        return next(self._events)

    def wait(self) -> run_pb2.Run:
        """Consumes the remaining events and returns the finished run, with
        its result (GetRun; built from the RunFinished event if that fails).

        Raises:
            StreamEndedError: the stream ended before the run finished.
            grpc.RpcError: the stream failed.
        """
        for _ in self._events:
            pass
        if self.finished is None:  # the stream was canceled before the end
            raise StreamEndedError(f"run {self.run_id}: stopped listening before the run finished")
        try:
            run = self._client.get_run(self.run_id)
            if run.HasField("result"):
                return run
        except grpc.RpcError:
            pass
        return run_pb2.Run(id=self.run_id, status=self.finished.status, result=self.finished.result,
                           metrics=self.finished.metrics)

    def cancel(self) -> None:
        """Stops listening: cancels the stream(s) of this run (idempotent).
        Dropping a Verify or Fix stream cancels the run on the server (the
        run ends CANCELED); a WatchRun stream is only a watcher."""
        # Cancel before closing the Fix stream's send side: a half-close
        # alone reads to the server as the provider giving up.
        for call in self._calls:
            call.cancel()
        if self._on_close is not None:
            self._on_close()
            self._on_close = None

    def __enter__(self) -> "RunStream":
        return self

    def __exit__(self, *exc: object) -> None:
        self.cancel()

    def _follow(self) -> Iterator[run_pb2.RunEvent]:
        try:
            while True:
                resp = next(self._source, None)
                if resp is None:
                    run = self.run_id or "(no events)"
                    raise StreamEndedError(f"run {run}: the event stream ended before the run finished")
                ev = resp.event
                if not self._admit(ev):
                    continue
                if self._on_event is not None:
                    self._on_event(ev)
                yield ev
                if ev.HasField("run_finished"):
                    self.finished = ev.run_finished
                    return
        finally:
            self.cancel()

    def _rewatch(self, after_seq: int) -> None:
        """Reads on from a WatchRun after after_seq. The original call stays
        open: a Fix stream still carries the patch replies."""
        call = self._client._watch_call(self.run_id, after_seq, self._deadline)
        self._calls.append(call)
        self._source = call
