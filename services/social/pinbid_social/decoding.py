"""How many screenshots are decoded at once: one per person, and at most `per_process` in the whole process.

A 40-megapixel image takes up to 160 MB decoded, and WebP's encoder as much again, so a pod's decoding is bounded.
A person's uploads wait for each other before they queue for the process's turn (FIFO), so one creator sending
thirty large files delays someone else's "I pinned it" by at most one decode, not thirty. The per-person locks
live only while someone holds or waits for them: nothing stays behind for a person who is not uploading."""

import asyncio
import contextlib
import uuid
from collections.abc import AsyncIterator, Callable
from typing import TypeVar

T = TypeVar("T")


class Decoding:
    def __init__(self, per_process: int = 1) -> None:
        self._process = asyncio.Semaphore(per_process)
        self._people: dict[uuid.UUID, tuple[asyncio.Lock, int]] = {}  # person -> (their lock, holders and waiters)

    @contextlib.asynccontextmanager
    async def _turn_of(self, person: uuid.UUID) -> AsyncIterator[None]:
        lock, users = self._people.get(person, (None, 0))
        lock = lock or asyncio.Lock()
        self._people[person] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._people[person]
            if users == 1:
                del self._people[person]
            else:
                self._people[person] = (lock, users - 1)

    async def run(self, person: uuid.UUID, work: Callable[[bytes], T], data: bytes) -> T:
        """`work(data)` on a worker thread, in the person's turn and then the process's."""
        async with self._turn_of(person), self._process:
            return await asyncio.to_thread(work, data)

    def people_waiting(self) -> int:
        return len(self._people)
