"""What a running service is made of, and how its background work starts and stops.

A service is built once (`Service`) and can then run alone (its own process, `serve_standalone`) or
beside the others in the embedded default (the launcher). Only the bus differs between the two."""

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from fastapi import FastAPI
from prometheus_client import Gauge

from .bus import Bus
from .db import Database
from .inbox import Consumers
from .outbox import OutboxRelay, backlog
from .revocations import EVENT as SESSIONS_REVOKED
from .revocations import Revocations

log = logging.getLogger("pinbid.runtime")

BROKER_UP = Gauge("pinbid_broker_up", "1 when the process reaches its message broker, else 0", ["service"])
BROKER_CHECK_SECONDS = 5.0
OUTBOX_UNSENT = Gauge("pinbid_outbox_unsent", "Outbox rows not yet published", ["service"])
OUTBOX_OLDEST = Gauge("pinbid_outbox_oldest_unsent_seconds", "Age of the oldest unpublished outbox row", ["service"])
OUTBOX_CHECK_SECONDS = 15.0
DEAD_LETTERS = Gauge("pinbid_dead_letters", "Messages in a service's dead-letter queue", ["service", "queue"])


@dataclass
class Job:
    """A periodic job. Each run must be safe to execute on several replicas at once."""

    name: str
    run_once: Callable[[], Awaitable[object]]
    every_seconds: float


@dataclass
class Service:
    name: str
    db: Database
    consumers: Consumers
    app: FastAPI | None = None
    jobs: list[Job] = field(default_factory=list)
    state: dict[str, Any] = field(default_factory=dict)
    bus: Bus | None = None
    relay: OutboxRelay | None = None
    # The token verifier's revocations (every replica hears of new ones) and how to read earlier ones at start.
    revocations: Revocations | None = None
    load_revocations: Callable[[], Awaitable[None]] | None = None
    _tasks: list[asyncio.Task] = field(default_factory=list)

    def readiness_checks(self) -> dict[str, Callable[[], Awaitable[bool]]]:
        """The database only, answering and taking writes: a broker outage must not take every pod out of its
        Service (the outbox keeps the events until the broker is back); the broker's health is the
        `pinbid_broker_up` metric instead."""
        return {"database": self.db.writable}

    def attach(self, bus: Bus, *, relay_batch_size: int = 100, relay_idle_seconds: float = 1.0,
               outbox_retention_days: float = 7.0, listen_url: str | None = None, events_at_once: int = 8) -> None:
        """Subscribe the consumers (before the bus starts; at most `events_at_once` deliveries handled at a time)
        and prepare the outbox relay."""
        self.bus = bus
        self.consumers.attach(bus, at_once=events_at_once)
        if self.revocations is not None:
            bus.subscribe_broadcast([SESSIONS_REVOKED], self.revocations.on_event)
        self.relay = OutboxRelay(self.db, bus, batch_size=relay_batch_size, idle_seconds=relay_idle_seconds,
                                 retention=timedelta(days=outbox_retention_days), listen_url=listen_url)

    async def start_background(self, *, jobs: bool = True) -> None:
        assert self.relay is not None, "attach() the service to a bus first"
        if self.load_revocations is not None:
            await self.load_revocations()
        self._tasks.append(asyncio.create_task(self.relay.run(), name=f"{self.name}.outbox-relay"))
        self._tasks.append(asyncio.create_task(watch_broker(self.name, self.relay.bus), name=f"{self.name}.broker"))
        self._tasks.append(asyncio.create_task(watch_outbox(self.name, self.db), name=f"{self.name}.outbox-backlog"))
        if jobs:
            self.start_jobs()

    def start_jobs(self) -> None:
        """The periodic jobs (started by `start_background`, or later by a caller that seeds data first)."""
        for job in self.jobs:
            self._tasks.append(asyncio.create_task(_repeat(self.name, job, self.db), name=f"{self.name}.{job.name}"))

    async def stop_background(self) -> None:
        if self.relay:
            await self.relay.stop()
        await cancel_all(self._tasks)


async def cancel_all(tasks: list[asyncio.Task]) -> None:
    """Cancel background tasks and wait for each to end (how one ends on the way out is not reported), leaving the
    list empty."""
    for task in tasks:
        task.cancel()
    for task in tasks:
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task
    tasks.clear()


async def watch_broker(service: str, bus: Bus, every_seconds: float = BROKER_CHECK_SECONDS) -> None:
    """Keep `pinbid_broker_up{service}` current, for the alert that replaces a flapping readiness probe,
    and `pinbid_dead_letters{service,queue}` for the one that tells an operator to re-drive them."""
    while True:
        up = await bus.ping()
        BROKER_UP.labels(service).set(1 if up else 0)
        if up:
            try:
                for queue, depth in (await bus.dead_letter_depths()).items():
                    DEAD_LETTERS.labels(service, queue).set(depth)
            except Exception as exc:  # a passing broker hiccup: keep the last figures
                log.warning("%s: could not read the dead-letter queues: %r", service, exc)
        await asyncio.sleep(every_seconds)


async def watch_outbox(service: str, db: Database, every_seconds: float = OUTBOX_CHECK_SECONDS) -> None:
    """Keep `pinbid_outbox_unsent` and `pinbid_outbox_oldest_unsent_seconds` current for the backlog alert."""
    while True:
        try:
            unsent, oldest = await backlog(db)
            OUTBOX_UNSENT.labels(service).set(unsent)
            OUTBOX_OLDEST.labels(service).set(oldest)
        except Exception as exc:  # the database is away: readiness says so; keep the last figures
            log.warning("%s: could not measure the outbox backlog: %r", service, exc)
        await asyncio.sleep(every_seconds)


async def _repeat(service: str, job: Job, db: Database) -> None:
    while True:
        try:
            await db.wait.outlast(job.run_once)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("%s job %s failed", service, job.name)
        await asyncio.sleep(job.every_seconds)
