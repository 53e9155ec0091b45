"""The inbox: a consumer records (event id, handler) in the same transaction as its effect, so a
redelivered event has no second effect. `Consumers` wires a service's handlers to the bus.

A service keeps its handlers module-level in a map, event type -> handlers (cosmicpython's EVENT_HANDLERS), each
`async def handler(session, data, delivery)`; `Consumers.register_map(HANDLERS, deps)` binds them. Each runs in
its own transaction with a `Delivery`: the envelope, the service's dependencies, and the list it adds the events
it causes to, written once (one outbox statement with its NOTIFY) when it returns."""

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Generic, TypeVar

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

from . import context, outbox
from .bus import Bus, matches
from .clock import as_of, moment_of
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
    causes (written once when it returns)."""
    envelope: Envelope
    deps: D
    events: list[EventData] = field(default_factory=list)


MappedHandler = Callable[[AsyncSession, EventData, Delivery], Awaitable[None]]


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


@dataclass(frozen=True)
class Registration:
    pattern: str
    name: str
    handle: EventHandler


class Consumers:
    """A service's event handlers. Each runs in its own transaction with its own inbox row."""

    def __init__(self, service: str, db: Database):
        self.service = service
        self.db = db
        self.registrations: list[Registration] = []

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
                self.on(event_type, f"{self.service}.{function.__name__}")(partial(self._deliver, function, deps))

    async def _deliver(self, function: MappedHandler, deps: object, session: AsyncSession, data: EventData,
                       envelope: Envelope) -> None:
        delivery = Delivery(envelope, deps)
        await function(session, data, delivery)
        await outbox.publish_all(session, delivery.events, source=self.service)

    @property
    def patterns(self) -> list[str]:
        return sorted({r.pattern for r in self.registrations})

    def attach(self, bus: Bus) -> None:
        if self.registrations:
            bus.subscribe(self.service, self.patterns, self.dispatch)

    async def dispatch(self, envelope: Envelope, headers: dict[str, str]) -> None:
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
