"""The client side of RunService.Fix for asyncio, with this process as the
patch provider (the exchange is ../fixing.py's).

The provider is called before the patch_requested event is passed on; a
coroutine function is awaited, a plain function runs in a worker thread
(asyncio.to_thread), so a blocking model call does not stall the loop.
"""

from __future__ import annotations

import asyncio
import inspect
from typing import TYPE_CHECKING, Any, Awaitable, Callable, Optional, Union

from ..errors import ProviderError
from ..fixing import to_reply
from ..v1 import run_pb2
from .stream import AsyncRunStream

if TYPE_CHECKING:  # pragma: no cover
    from .client import AsyncClient

Answer = Union[str, run_pb2.PatchReply, None]

AsyncPatchProvider = Callable[[run_pb2.PatchRequest], Union[Answer, Awaitable[Answer]]]
"""A patch provider: a coroutine function or a plain function that gets
the PatchRequest and returns a unified diff, a PatchReply, or None (or "")
to give up."""


async def ask(provider: AsyncPatchProvider, req: run_pb2.PatchRequest) -> Answer:
    """Calls provider: awaited when it is a coroutine function, else in a
    worker thread; an awaitable it returns is awaited."""
    if inspect.iscoroutinefunction(provider):
        answer: Any = await provider(req)
    else:
        answer = await asyncio.to_thread(provider, req)
    if inspect.isawaitable(answer):
        answer = await answer
    return answer


def start_fix(client: "AsyncClient", start: Callable[[], Awaitable[run_pb2.FixStart]],
              provider: Optional[AsyncPatchProvider], timeout: Optional[float]) -> AsyncRunStream:
    """Returns the run's events; on first use it builds the FixStart
    (packing and uploading), opens the Fix stream and sends it. With a
    provider, each patch_requested event is answered before it is passed
    on; without one, the client half-closes at once."""
    stream: Optional[AsyncRunStream] = None

    async def open_call(call_timeout: Optional[float]) -> Any:
        first = await start()
        call = client.runs.Fix(metadata=client.metadata, timeout=call_timeout)
        await call.write(run_pb2.FixRequest(start=first))
        if provider is None:
            await call.done_writing()  # no patches will come from this side
        return call

    async def answer(ev: run_pb2.RunEvent) -> None:
        if provider is None or not ev.HasField("patch_requested"):
            return
        req = ev.patch_requested.request
        try:
            reply = to_reply(await ask(provider, req))
        except Exception as err:
            raise ProviderError(f"run {ev.run_id}: the patch provider failed on attempt {req.attempt}: {err}") from err
        reply.attempt = req.attempt
        assert stream is not None and stream.call is not None
        await stream.call.write(run_pb2.FixRequest(patch=reply))

    stream = AsyncRunStream(client, open_call, on_event=answer, timeout=timeout)
    return stream
