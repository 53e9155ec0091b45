"""Waiting for what happens asynchronously, with a deadline instead of a fixed sleep."""

import asyncio
import contextlib
import inspect
import subprocess
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import IO

import httpx
import pytest


async def eventually(check: Callable[[], Awaitable[bool] | bool], *, within: float = 30.0,
                     every: float = 0.05) -> None:
    """Wait until `check()` (a coroutine function or a plain one) is true (events are handled asynchronously);
    fail after `within` seconds."""
    deadline = asyncio.get_running_loop().time() + within
    while True:
        result = check()
        if await result if inspect.isawaitable(result) else result:
            return
        if asyncio.get_running_loop().time() > deadline:
            pytest.fail(f"condition not met within {within}s")
        await asyncio.sleep(every)


def eventually_sync(check: Callable[[], bool], *, within: float = 30.0, every: float = 0.05) -> None:
    """`eventually` for code outside an event loop (threads, subprocesses)."""
    deadline = time.monotonic() + within
    while not check():
        if time.monotonic() > deadline:
            pytest.fail(f"condition not met within {within}s")
        time.sleep(every)


def wait_until_serving(url: str, process: subprocess.Popen, *, log: IO[bytes] | None = None,
                       within: float = 60) -> None:
    """Until `url` answers 200 (a process the test started); fails at once, with the end of `log`, if the process
    exits first. One client for all the polls: each new one builds a TLS context, 20-30 ms of CPU."""
    def serving() -> bool:
        if process.poll() is not None:
            if log is not None:
                log.seek(0)
            pytest.fail(f"{process.args} exited early" + (f":\n{log.read().decode()[-3000:]}" if log else ""))
        try:
            return http.get(url).status_code == 200
        except httpx.HTTPError:
            return False

    with httpx.Client(timeout=1) as http:
        eventually_sync(serving, within=within, every=0.1)


@contextlib.asynccontextmanager
async def serving(app, port: int) -> AsyncIterator[None]:
    """`app` served by uvicorn on 127.0.0.1:`port` in this event loop (real sockets, no lifespan), until the block
    ends."""
    import uvicorn

    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_config=None, lifespan="off"))
    task = asyncio.create_task(server.serve())
    await eventually(lambda: server.started, within=10, every=0.01)  # uvicorn offers no event to wait on
    try:
        yield
    finally:
        server.should_exit = True
        await task
