"""The inbox: a consumer records (event id, handler) in the same transaction as its effect, so a
redelivered event has no second effect. `Consumers` wires a service's handlers to the bus.

A service keeps its handlers module-level in a map, event type -> handlers (cosmicpython's EVENT_HANDLERS), each
`async def handler(session, data, delivery)`; `Consumers.register_map(HANDLERS, deps)` binds them. Each runs in
its own transaction with a `Delivery`: the envelope, the service's dependencies, and the list it adds the events
it causes to, written once (one outbox statement with its NOTIFY) when it returns.

A service may take some event types in bursts (`Consumers.in_bursts`): deliveries of them that wait together are
handled in one transaction, with one statement claiming them all in the inbox and one writing the events they
cause (pinbid_kit.bursts); of an event type whose handlers keep only the latest state of something (`latest_of`),
only the latest of each thing in a burst is handled, the others claimed as handled; a handler with a form that takes
many deliveries (`together`) is called once with all of its burst's."""

import asyncio
import logging
import uuid
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Generic, TypeVar

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

from . import context, outbox
from .bursts import BurstQueue, Waiting
from .bus import Bus, matches
from .clock import as_of, moment_of, replayed
from .db import Database
from .envelope import Envelope
from .events import EVENTS, EventData
from .metrics import record_event

log = logging.getLogger("pinbid.inbox")

EventHandler = Callable[[AsyncSession, EventData, Envelope], Awaitable[None]]
D = TypeVar("D")


@dataclass
class Delivery(Generic[D]):
    """One handler's run on one event: the envelope, the service's dependencies, and the events the handler
    causes (written once when it returns), and the replayed moment its event carries (None: now), for a handler
    that takes several deliveries at once (`ManyHandler`) and so runs as of none of them."""
    envelope: Envelope
    deps: D
    events: list[EventData] = field(default_factory=list)
    moment: datetime | None = None


MappedHandler = Callable[[AsyncSession, EventData, Delivery], Awaitable[None]]
# the same work for several deliveries at once (a burst's), each delivery's events added to its own `events`
ManyHandler = Callable[[AsyncSession, list[tuple[EventData, Delivery]]], Awaitable[None]]


async def claim(session: AsyncSession, envelope: Envelope, handler: str) -> bool:
    """True the first time this handler sees this event. A concurrent duplicate waits on the
    primary key until the first commits, then gets False."""
    result = await session.execute(
        text(
            "INSERT INTO inbox (event_id, handler, event_type) VALUES (:id, :handler, :type) "
            "ON CONFLICT DO NOTHING RETURNING event_id"
        ),
        {"id": envelope.id, "handler": handler, "type": envelope.type},
    )
    return result.first() is not None


# in one order (event, handler), so two bursts claiming the same events never wait for each other in a cycle
_CLAIM_ALL = text(
    "INSERT INTO inbox (event_id, handler, event_type) "
    "SELECT c.id, c.handler, c.type FROM unnest(CAST(:id AS uuid[]), CAST(:handler AS text[]), "
    "CAST(:type AS text[])) AS c(id, handler, type) ORDER BY c.id, c.handler "
    "ON CONFLICT DO NOTHING RETURNING event_id, handler"
)


async def claim_all(session: AsyncSession, claims: list[tuple[Envelope, str]]) -> set[tuple[uuid.UUID, str]]:
    """`claim` for several (event, handler) pairs in one statement: the pairs seen for the first time."""
    if not claims:
        return set()
    result = await session.execute(_CLAIM_ALL, {"id": [e.id for e, _ in claims], "handler": [h for _, h in claims],
                                                "type": [e.type for e, _ in claims]})
    return {(row.event_id, row.handler) for row in result}


@dataclass(frozen=True)
class Bound:
    """A mapped handler bound to the service's dependencies."""
    function: MappedHandler
    deps: object
    source: str

    async def caused(self, session: AsyncSession, data: EventData, envelope: Envelope) -> list[EventData]:
        """Runs the handler; the events it causes, not yet written."""
        delivery = Delivery(envelope, self.deps, moment=replayed())
        await self.function(session, data, delivery)
        return delivery.events

    async def __call__(self, session: AsyncSession, data: EventData, envelope: Envelope) -> None:
        await outbox.publish_all(session, await self.caused(session, data, envelope), source=self.source)


@dataclass(frozen=True)
class Registration:
    pattern: str
    name: str
    handle: EventHandler


class Consumers:
    """A service's event handlers. Each runs in its own transaction with its own inbox row, or with the others of
    its burst in one (`in_bursts`)."""

    def __init__(self, service: str, db: Database):
        self.service = service
        self.db = db
        self.registrations: list[Registration] = []
        self._burst_types: frozenset[str] = frozenset()
        self._latest_of: dict[str, Callable[[EventData], Hashable]] = {}
        self._together: dict[MappedHandler, ManyHandler] = {}
        self._bursts: BurstQueue | None = None
        self._handling = asyncio.Semaphore(8)  # deliveries handled at a time, each holding a connection (`attach`)

    def on(self, event_type: str, name: str | None = None) -> Callable[[EventHandler], EventHandler]:
        if event_type not in EVENTS:
            raise ValueError(f"unknown event type {event_type}; add it to pinbid_kit.events")

        def register(fn: EventHandler) -> EventHandler:
            self.registrations.append(Registration(event_type, name or f"{self.service}.{fn.__name__}", fn))
            return fn

        return register

    def register_map(self, handlers: dict[str, list[MappedHandler]], deps: object) -> None:
        """Each handler of the map under its own name (`<service>.<function>`: the inbox remembers what each one
        handled), bound to `deps`."""
        for event_type, functions in handlers.items():
            for function in functions:
                self.on(event_type, f"{self.service}.{function.__name__}")(Bound(function, deps, self.service))

    def in_bursts(self, *event_types: str, size: int = 16,
                  latest_of: dict[str, Callable[[EventData], Hashable]] | None = None,
                  together: dict[MappedHandler, ManyHandler] | None = None) -> None:
        """Deliveries of these types that wait together are handled together, up to `size` in one transaction
        (pinbid_kit.bursts; a burst that fails is handled again one delivery at a time). Their handlers must not
        rely on running in a transaction of their own (the database's `now()` is the burst's).

        `latest_of` maps an event type to what its events are the state of (a slot's id): of several events of one
        thing in a burst only the latest (by `occurredAt`, then arrival) is handled, the others are recorded as
        handled. Only for handlers that already ignore an event older than the state they keep (an upsert guarded
        by the event's time), for which handling the latest alone leaves what handling all in turn would.

        `together` maps a mapped handler to its form for many deliveries: the burst's deliveries of every handler
        that maps to one `ManyHandler` are handed to it in one call (in arrival order, after the burst's other
        handlers), which leaves what calling the handler on each in turn would."""
        unknown = sorted({*event_types, *(latest_of or {})} - set(EVENTS))
        if unknown:
            raise ValueError(f"unknown event types {unknown}")
        if not set(latest_of or {}) <= set(event_types):
            raise ValueError("latest_of names an event type not taken in bursts")
        self._burst_types = frozenset(event_types)
        self._latest_of = dict(latest_of or {})
        self._together = dict(together or {})
        self._bursts = BurstQueue(self._handle_burst_held, self._dispatch_one_held, size=size)

    @property
    def patterns(self) -> list[str]:
        return sorted({r.pattern for r in self.registrations})

    def attach(self, bus: Bus, *, at_once: int = 8) -> None:
        """Subscribes the handlers. The bus may hand over more deliveries than `at_once` (its prefetch); at most
        `at_once` are handled at a time, a burst counting one: the others wait holding no connection."""
        self._handling = asyncio.Semaphore(at_once)
        if self.registrations:
            bus.subscribe(self.service, self.patterns, self.dispatch)

    async def dispatch(self, envelope: Envelope, headers: dict[str, str]) -> None:
        """The bus's handler: returns once the delivery is handled and committed (or raises)."""
        if self._bursts is None or envelope.type not in self._burst_types:
            await self._dispatch_one_held(envelope, headers)
            return
        context.request_id.set(envelope.correlation_id)
        with as_of(moment_of(headers)):  # kept with the parked delivery, for the events it causes
            await self._bursts.submit(envelope, headers)

    async def _dispatch_one_held(self, envelope: Envelope, headers: dict[str, str]) -> None:
        async with self._handling:
            await self.dispatch_one(envelope, headers)

    async def _handle_burst_held(self, burst: list[Waiting]) -> None:
        async with self._handling:
            await self._handle_burst(burst)

    async def dispatch_one(self, envelope: Envelope, headers: dict[str, str]) -> None:
        """One delivery in a transaction of each handler's own (a failed burst's deliveries too, each in turn)."""
        context.request_id.set(envelope.correlation_id)
        with as_of(moment_of(headers)):  # an event of a replayed past is handled as of its moment
            for registration in self.registrations:
                if matches(registration.pattern, envelope.type):
                    await self.handle_once(registration, envelope)

    async def handle_once(self, registration: Registration, envelope: Envelope) -> bool:
        """Handles the event unless this handler already did. While the service's database is away the delivery
        is held, not failed: it spends none of the message's deliveries (see `outage`)."""
        data = EVENTS[envelope.type].model_validate(envelope.data)

        async def handle() -> bool:
            async with self.db.transaction() as session:
                if not await claim(session, envelope, registration.name):
                    return False
                await registration.handle(session, data, envelope)
                return True

        try:
            handled = await self.db.wait.outlast(handle)
        except Exception:
            record_event(self.service, envelope.type, "failed")
            raise
        if not handled:
            log.info("skipping %s for %s: already handled", envelope.id, registration.name)
        record_event(self.service, envelope.type, "handled" if handled else "duplicate")
        return handled

    async def _handle_burst(self, burst: list[Waiting]) -> None:
        """The burst in one transaction: one statement claims every (event, handler) pair, the handlers run in
        arrival order, one statement writes the events they caused, each made as its own delivery (correlation id,
        replayed moment, trace)."""
        work, superseded = self._burst_work(burst)

        async def handle() -> set[int]:
            handled: set[int] = set()
            async with self.db.transaction() as session:
                fresh = await claim_all(session, [(burst[i].envelope, r.name) for i, _, r in work])
                rows: list[dict] = []
                together: dict[ManyHandler, list[tuple[int, EventData, Bound]]] = {}
                for index, data, registration in work:
                    pair = (burst[index].envelope.id, registration.name)
                    if index in superseded or pair not in fresh:
                        continue
                    fresh.discard(pair)  # the same event twice in a burst is handled once
                    handled.add(index)
                    if (many := self._many_of(registration)) is not None:
                        together.setdefault(many, []).append((index, data, registration.handle))
                        continue
                    rows += await self._handle_in_burst(session, burst[index], data, registration)
                for many, items in together.items():
                    rows += await self._handle_together(session, burst, many, items)
                await outbox.write_rows(session, rows)
            return handled

        handled = await self.db.wait.outlast(handle)
        for index, waiting in enumerate(burst):
            result = "handled" if index in handled else "superseded" if index in superseded else "duplicate"
            record_event(self.service, waiting.envelope.type, result)

    def _burst_work(self, burst: list[Waiting]) -> tuple[list[tuple[int, EventData, Registration]], set[int]]:
        """Each delivery's (index, data, registration) to claim, in arrival order, and the deliveries superseded by
        a later event of the same thing (`latest_of`)."""
        work: list[tuple[int, EventData, Registration]] = []
        latest: dict[Hashable, int] = {}
        superseded: set[int] = set()
        for index, waiting in enumerate(burst):
            envelope = waiting.envelope
            data = EVENTS[envelope.type].model_validate(envelope.data)
            work += [(index, data, r) for r in self.registrations if matches(r.pattern, envelope.type)]
            if (key_of := self._latest_of.get(envelope.type)) is None:
                continue
            key = (envelope.type, key_of(data))
            previous = latest.get(key)
            if previous is not None and burst[previous].envelope.occurred_at > envelope.occurred_at:
                superseded.add(index)  # an older state arrived after a newer one
                continue
            if previous is not None:
                superseded.add(previous)
            latest[key] = index
        return work, superseded

    def _many_of(self, registration: Registration) -> ManyHandler | None:
        handle = registration.handle
        return self._together.get(handle.function) if isinstance(handle, Bound) else None

    async def _handle_together(self, session: AsyncSession, burst: list[Waiting], many: ManyHandler,
                               items: list[tuple[int, EventData, Bound]]) -> list[dict]:
        """One call of a handler's many-delivery form on its deliveries of a burst; the outbox rows of the events
        each caused, each made as its own delivery."""
        deliveries = [Delivery(burst[index].envelope, bound.deps, moment=moment_of(burst[index].headers))
                      for index, _, bound in items]
        await many(session, [(data, delivery) for (_, data, _), delivery in zip(items, deliveries, strict=True)])
        rows: list[dict] = []
        for (index, _, _), delivery in zip(items, deliveries, strict=True):
            rows += burst[index].context.run(outbox.outbox_rows, delivery.events, source=self.service)
        return rows

    async def _handle_in_burst(self, session: AsyncSession, waiting: Waiting, data: EventData,
                               registration: Registration) -> list[dict]:
        """One handler on one delivery of a burst; the outbox rows of the events it caused."""
        context.request_id.set(waiting.envelope.correlation_id)
        with as_of(moment_of(waiting.headers)):
            if isinstance(registration.handle, Bound):
                events = await registration.handle.caused(session, data, waiting.envelope)
                return waiting.context.run(outbox.outbox_rows, events, source=self.service)
            await registration.handle(session, data, waiting.envelope)  # it writes its own events
            return []
