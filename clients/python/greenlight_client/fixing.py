"""The client side of RunService.Fix, with this process as the patch provider.

Fix is a bidirectional stream: the first client message is a FixStart;
with PROVIDER_KIND_CLIENT the server emits patch_requested events and the
client answers each with a PatchReply carrying a unified diff (or giving
up). The provider callback runs in the thread that iterates the run's
events, before the patch_requested event is passed on.
"""

from __future__ import annotations

import queue
import time
from typing import TYPE_CHECKING, Any, Callable, Iterator, Optional, Union

from .errors import ProviderError
from .stream import RunStream
from .v1 import run_pb2

if TYPE_CHECKING:  # pragma: no cover
    from .client import Client

PatchProvider = Callable[[run_pb2.PatchRequest], Union[str, run_pb2.PatchReply, None]]
"""A patch provider: gets the PatchRequest (failing command, log tail,
failures, code windows, a ready-made prompt, feedback on the last patch)
and returns a unified diff, a PatchReply, or None (or "") to give up."""


def fix_options(options: Optional[run_pb2.FixOptions], provider: Optional[Callable[..., Any]]) -> run_pb2.FixOptions:
    """Returns a copy of options whose provider kind matches the callback:
    CLIENT when there is one (the default); a server-side provider (REPLAY,
    or a COMMAND or OPENAI profile) when there is none.

    Raises:
        ValueError: a callback with a server-side provider kind, or the
            client provider without a callback.
    """
    opts = run_pb2.FixOptions()
    if options is not None:
        opts.CopyFrom(options)
    kind = opts.provider.kind
    client_kinds = (run_pb2.PROVIDER_KIND_UNSPECIFIED, run_pb2.PROVIDER_KIND_CLIENT)
    if provider is not None:
        if kind not in client_kinds:
            raise ValueError("a provider callback needs options.provider.kind PROVIDER_KIND_CLIENT (or unset)")
        opts.provider.kind = run_pb2.PROVIDER_KIND_CLIENT
    elif kind in client_kinds:
        raise ValueError("the client provider needs a provider callback: fix(dir, provider=fn)")
    return opts


def start_fix(client: "Client", start: run_pb2.FixStart, provider: Optional[PatchProvider],
              timeout: Optional[float] = None) -> RunStream:
    """Opens the Fix stream, sends start and returns the run's events; with
    a provider, each patch_requested event is answered before it is passed on."""
    outbox = _Outbox(run_pb2.FixRequest(start=start))
    if provider is None:
        outbox.close()  # no patches will come from this side
    deadline = None if timeout is None else time.monotonic() + timeout
    call = client.runs.Fix(iter(outbox), metadata=client.metadata, timeout=timeout)

    def answer(ev: run_pb2.RunEvent) -> None:
        if provider is None or not ev.HasField("patch_requested"):
            return
        req = ev.patch_requested.request
        try:
            reply = to_reply(provider(req))
        except Exception as err:
            raise ProviderError(f"run {ev.run_id}: the patch provider failed on attempt {req.attempt}: {err}") from err
        reply.attempt = req.attempt
        outbox.put(run_pb2.FixRequest(patch=reply))

    return RunStream(client, call, on_event=answer, on_close=outbox.close, deadline=deadline)


def to_reply(answer: Union[str, run_pb2.PatchReply, None]) -> run_pb2.PatchReply:
    """Turns a provider's answer into a PatchReply: a diff, or give_up for
    None or blank text."""
    if isinstance(answer, run_pb2.PatchReply):
        return answer
    if answer is None or (isinstance(answer, str) and not answer.strip()):
        return run_pb2.PatchReply(give_up=True)
    if isinstance(answer, str):
        return run_pb2.PatchReply(patch=answer)
    raise TypeError(f"a patch provider returns a diff (str), a PatchReply or None, not {type(answer).__name__}")


class _Outbox:
    """The client half of the Fix stream. grpc reads the request iterator
    in its own thread; put() queues a message, close() ends the stream
    (half-close) once the queued ones are sent."""

    _END = object()

    def __init__(self, first: run_pb2.FixRequest) -> None:
        self._q: "queue.Queue[object]" = queue.Queue()
        self._q.put(first)
        self._closed = False

    def put(self, msg: run_pb2.FixRequest) -> None:
        if not self._closed:
            self._q.put(msg)

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self._q.put(self._END)

    def __iter__(self) -> Iterator[run_pb2.FixRequest]:
        while True:
            msg = self._q.get()
            if msg is self._END:
                return
            yield msg  # type: ignore[misc]
