"""greenlight_client.aio: the asyncio client (grpc.aio), beside the sync one.

    import asyncio
    from greenlight_client.aio import AsyncClient

    async def main() -> None:
        async with AsyncClient.from_env() as gl:
            async for event in gl.verify("path/to/project"):
                print(event.seq, event.WhichOneof("kind"))

    asyncio.run(main())

AsyncClient has Client's methods as coroutines (upload, stat, get_run,
list_runs, discover, start_verify, cancel_run), and verify, fix and watch
return an AsyncRunStream: `async for` its events or `await stream.wait()`.
"""

from .client import AsyncClient
from .fixing import AsyncPatchProvider
from .stream import AsyncRunStream

__all__ = ["AsyncClient", "AsyncPatchProvider", "AsyncRunStream"]
