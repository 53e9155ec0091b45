"""Waiting for what happens asynchronously, with a deadline instead of a fixed sleep."""

import asyncio
import inspect
import time
from collections.abc import Awaitable, Callable

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
