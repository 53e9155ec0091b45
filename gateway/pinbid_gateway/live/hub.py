"""One hub per gateway process: the open streams, and the bus events fanned out to them.

Every gateway process receives every live event (its own exclusive, auto-deleted queue on RabbitMQ; the
in-process bus in the embedded run), so any number of gateway replicas serve streams. A stream that does not
read fast enough is ended once its bounded queue is full: the browser reconnects and refetches, and memory never
grows without end."""

import asyncio
import logging
import uuid
from collections import defaultdict
from dataclasses import dataclass, field

from pinbid_kit.envelope import Envelope
from pinbid_kit.events.identity import SessionsRevoked
from pinbid_kit.revocations import Revocations

from .messages import SESSIONS_REVOKED, Message, messages

log = logging.getLogger("pinbid.gateway.live")
QUEUE_SIZE = 256


@dataclass(eq=False)
class Connection:
    """An open stream: who reads it, the slots it watches, what waits to be sent, and why it ended."""

    user_id: uuid.UUID
    role: str
    token_version: int
    slots: frozenset[uuid.UUID]
    queue: asyncio.Queue = field(default_factory=lambda: asyncio.Queue(QUEUE_SIZE))
    # "revoked" or "expired": the stream sends `end` (the browser signs out); "too_slow": it just closes (the
    # browser reconnects and refetches)
    ended: str | None = None
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    # done when it ends (a future, not an event: the response waits on it beside its own task, with no task more)
    finished: asyncio.Future = field(default_factory=lambda: asyncio.get_running_loop().create_future())

    def offer(self, message: Message) -> None:
        if self.ended:
            return
        try:
            self.queue.put_nowait(message)
        except asyncio.QueueFull:
            self.end("too_slow")
            return
        self.wake.set()

    async def next(self) -> Message | None:
        """The next message, or None once the stream has ended."""
        while self.queue.empty() and not self.ended:
            self.wake.clear()
            await self.wake.wait()
        return None if self.ended else self.queue.get_nowait()

    def end(self, reason: str) -> None:
        if not self.ended:
            self.ended = reason
        self.wake.set()
        if not self.finished.done():
            self.finished.set_result(None)


class Hub:
    def __init__(self, revocations: Revocations | None = None) -> None:
        # fed here too: the gateway's own revocation handler may hear of a revocation after this hub, and a stream
        # opened in between would be let in and never ended
        self._revocations = revocations
        self._by_user: dict[uuid.UUID, set[Connection]] = defaultdict(set)
        self._by_slot: dict[uuid.UUID, set[Connection]] = defaultdict(set)

    @property
    def connections(self) -> int:
        return sum(len(c) for c in self._by_user.values())

    def open(self, user_id: uuid.UUID, role: str, token_version: int, slots: frozenset[uuid.UUID]) -> Connection:
        connection = Connection(user_id, role, token_version, slots)
        self._by_user[user_id].add(connection)
        for slot in slots:
            self._by_slot[slot].add(connection)
        return connection

    def close(self, connection: Connection) -> None:
        self._discard(self._by_user, connection.user_id, connection)
        for slot in connection.slots:
            self._discard(self._by_slot, slot, connection)

    async def on_event(self, envelope: Envelope, _headers: dict[str, str]) -> None:
        """The bus's broadcast handler: never fails, so a bad event cannot hold up the others."""
        try:
            self.publish(envelope)
        except Exception:
            log.exception("live: could not fan out %s (%s)", envelope.type, envelope.id)

    def publish(self, envelope: Envelope) -> None:
        if envelope.type == SESSIONS_REVOKED:
            revoked = SessionsRevoked.model_validate(envelope.data)
            if self._revocations is not None:
                self._revocations.apply(revoked.user_id, revoked.token_version)
            for connection in list(self._by_user.get(revoked.user_id, ())):
                if connection.token_version < revoked.token_version:
                    connection.end("revoked")
            return
        for message in messages(envelope):
            for connection in self._audience(message):
                connection.offer(message)

    def _audience(self, message: Message) -> set[Connection]:
        if message.user_id is not None:
            return set(self._by_user.get(message.user_id, ()))
        owners = set(self._by_user.get(message.creator_id, ())) if message.creator_id else set()
        # a brand may watch any slot it can open on the marketplace; a creator only their own
        watchers = {c for c in self._by_slot.get(message.slot_id, ()) if c.role == "BUYER"}
        return owners | watchers

    @staticmethod
    def _discard(index: dict[uuid.UUID, set[Connection]], key: uuid.UUID, connection: Connection) -> None:
        members = index.get(key)
        if members is not None:
            members.discard(connection)
            if not members:
                del index[key]
