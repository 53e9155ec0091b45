"""Deliveries that wait together, handed on together: group commit for a consumer.

The bus calls its handler once per delivery, several at once (RabbitMQ's prefetch). `BurstQueue.submit` parks
each delivery until one task, the drainer, takes every delivery waiting (up to `size`) and hands them to
`handle_burst` at once; each `submit` returns, or raises, only when its own delivery's outcome is known, so the bus
acknowledges a delivery only after the transaction that handled it committed. No delivery waits for a burst to
fill: the drainer takes what is there after one turn of the event loop, and what arrives while a burst runs forms
the next one. A burst of one takes `handle_one`, the delivery's own path.

If `handle_burst` fails, no one delivery can be blamed: `handle_one` is then run for each delivery of the burst in
turn, and each gets its own outcome (the failing one fails alone and is delivered again; the others are handled)."""

import asyncio
import contextvars
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from .envelope import Envelope

log = logging.getLogger("pinbid.bursts")


@dataclass
class Waiting:
    """A parked delivery, with the context its bus handler had (the request id, the replayed moment, the trace),
    for what must be made as that delivery (its events' outbox rows)."""
    envelope: Envelope
    headers: dict[str, str]
    context: contextvars.Context
    outcome: asyncio.Future[None]

    def settle(self, error: BaseException | None = None) -> None:
        if self.outcome.done():  # its bus handler gave up waiting (cancelled): the inbox covers the redelivery
            return
        if error is None:
            self.outcome.set_result(None)
        else:
            self.outcome.set_exception(error)


BurstHandler = Callable[[list[Waiting]], Awaitable[None]]
OneHandler = Callable[[Envelope, dict[str, str]], Awaitable[None]]


class BurstQueue:
    def __init__(self, handle_burst: BurstHandler, handle_one: OneHandler, *, size: int = 16):
        if size < 1:
            raise ValueError("a burst holds at least one delivery")
        self.handle_burst = handle_burst
        self.handle_one = handle_one
        self.size = size
        self._waiting: list[Waiting] = []
        self._drainer: asyncio.Task | None = None

    async def submit(self, envelope: Envelope, headers: dict[str, str]) -> None:
        loop = asyncio.get_running_loop()
        waiting = Waiting(envelope, headers, contextvars.copy_context(), loop.create_future())
        self._waiting.append(waiting)
        if self._drainer is None:
            self._drainer = loop.create_task(self._drain())
        await waiting.outcome

    async def _drain(self) -> None:
        burst: list[Waiting] = []
        try:
            await asyncio.sleep(0)  # deliveries handed over in the same turn join the first
            while self._waiting:
                burst, self._waiting = self._waiting[:self.size], self._waiting[self.size:]
                await self._run(burst)
        except BaseException as stopped:  # cancelled (shutdown): nobody is left waiting forever
            for waiting in burst + self._waiting:
                waiting.settle(stopped if isinstance(stopped, Exception) else asyncio.CancelledError())
            self._waiting = []
            raise
        finally:
            self._drainer = None

    async def _run(self, burst: list[Waiting]) -> None:
        if len(burst) == 1:  # nothing to share: the delivery's own path
            await self._run_one(burst[0])
            return
        try:
            await self.handle_burst(burst)
        except Exception as failed:
            log.warning("a burst of %d deliveries failed (%r): handling them one at a time", len(burst), failed)
            for waiting in burst:
                await self._run_one(waiting)
            return
        for waiting in burst:
            waiting.settle()

    async def _run_one(self, waiting: Waiting) -> None:
        # in its bus handler's context (the trace its events join), not the drainer's, which an earlier delivery made
        one = asyncio.get_running_loop().create_task(self.handle_one(waiting.envelope, waiting.headers),
                                                     context=waiting.context.copy())
        try:
            await one
        except Exception as failed:
            waiting.settle(failed)
            return
        waiting.settle()
