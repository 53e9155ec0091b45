"""Requests on one key (a slot) that arrive while the key's previous batch runs wait and run together as the next
batch: one lock, one write and one commit for all of them, applied in arrival order.

The hand-off: a caller `join_next_batch(key, item)` and waits; the key's drain task passes the batch to the
`run_batch` it was built with (bidding.py's `Bidding._place_batch`), which settles every item's answer; the
caller's `join_next_batch` returns that answer (or raises its exception).

A hot slot's accepted bids are serialised by its row lock whatever we do; the lock is held from the answer of the
statement that takes it to the end of the commit, and in between the holder waits for its turn on a busy event
loop. Taking the lock once per batch instead of once per bid divides that time among the batch's bids, and the
batches grow by themselves exactly when the slot is hot. With no contention a batch is one request.
"""

import asyncio
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

Item = TypeVar("Item")


@dataclass
class Pending(Generic[Item]):
    item: Item
    answer: asyncio.Future = field(default_factory=lambda: asyncio.get_running_loop().create_future())


class Batches(Generic[Item]):
    """`run_batch(key, batch)` must settle every pending answer of its batch (a result or an exception)."""

    def __init__(self, run_batch: Callable[[Hashable, list[Pending[Item]]], Awaitable[None]]):
        self._run_batch = run_batch
        self._waiting: dict[Hashable, list[Pending[Item]]] = {}
        self._tasks: set[asyncio.Task] = set()

    async def join_next_batch(self, key: Hashable, item: Item) -> Any:
        """Wait for `item`'s turn in `key`'s next batch; returns the answer `run_batch` gave it."""
        pending = Pending(item)
        waiting = self._waiting.get(key)
        if waiting is None:
            self._waiting[key] = [pending]
            task = asyncio.create_task(self._drain(key))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        else:
            waiting.append(pending)
        return await pending.answer

    async def _drain(self, key: Hashable) -> None:
        while True:
            batch = [p for p in self._waiting[key] if not p.answer.done()]  # a cancelled caller is not applied
            if not batch:
                del self._waiting[key]
                return
            self._waiting[key] = []
            try:
                await self._run_batch(key, batch)
            except Exception as exc:
                for pending in batch:
                    if not pending.answer.done():
                        pending.answer.set_exception(exc)
            except BaseException:  # shutting down: nobody will run what waits
                for pending in batch + self._waiting.pop(key, []):
                    pending.answer.cancel()
                raise
