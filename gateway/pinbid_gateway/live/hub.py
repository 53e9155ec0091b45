"""One hub per gateway process: the open streams, and the bus events fanned out to them.

Every gateway process receives every live event (its own exclusive, auto-deleted queue on RabbitMQ; the
in-process bus in the embedded run), so any number of gateway replicas serve streams. Each message is encoded once
and its bytes shared by every stream it goes to. A stream that does not read fast enough is ended once its bounded
queue is full: the browser reconnects and refetches, and memory never grows without end."""

import asyncio
import logging
import uuid
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field

from pinbid_kit.envelope import Envelope
from pinbid_kit.events.identity import SessionsRevoked
from pinbid_kit.revocations import Revocations

from ..metrics import OPEN_STREAMS
from .messages import SESSIONS_REVOKED, Message, messages

log = logging.getLogger("pinbid.gateway.live")
# frames (shared bytes: each message is encoded once for all its streams) a stream may fall behind by
QUEUE_SIZE = 256


@dataclass(eq=False)
class Connection:
    """An open stream: who reads it, the slots it watches, the frames waiting to be sent, and why it ended
    ("revoked" or "expired": the stream sends `end`, the browser signs out; "too_slow": cut loose without it, the
    browser reconnects and refetches; "gone": the reader left)."""

    user_id: uuid.UUID
    role: str
    token_version: int
    slots: frozenset[uuid.UUID]
    frames: list[bytes] = field(default_factory=list)  # a list: an empty deque takes 600 bytes, 10,000 times
    ended: str | None = None
    # told once when the stream ends (the stream cuts a writer that cannot finish)
    on_end: Callable[[str], None] | None = None
    _waiter: asyncio.Future | None = None

    def offer(self, frame: bytes) -> None:
        if self.ended:
            return
        if len(self.frames) >= QUEUE_SIZE:
            self.end("too_slow")
            return
        self.frames.append(frame)
        self._wake()

    async def next(self) -> list[bytes] | None:
        """Every frame waiting (at least one), or None once the stream has ended."""
        while not self.frames and not self.ended:
            self._waiter = asyncio.get_running_loop().create_future()
            try:
                await self._waiter
            finally:
                self._waiter = None
        if self.ended:
            return None
        frames, self.frames = self.frames, []
        return frames

    def end(self, reason: str) -> None:
        if self.ended:
            return
        self.ended = reason
        self.frames = []
        self._wake()
        if self.on_end is not None:
            self.on_end(reason)

    def _wake(self) -> None:
        if self._waiter is not None and not self._waiter.done():
            self._waiter.set_result(None)


class Hub:
    def __init__(self, revocations: Revocations | None = None) -> None:
        # fed here too: the gateway's own revocation handler may hear of a revocation after this hub, and a stream
        # opened in between would be let in and never ended
        self._revocations = revocations
        self._by_user: dict[uuid.UUID, set[Connection]] = defaultdict(set)
        self._by_slot: dict[uuid.UUID, set[Connection]] = defaultdict(set)
        self.connections = 0

    def open(self, user_id: uuid.UUID, role: str, token_version: int, slots: frozenset[uuid.UUID]) -> Connection:
        connection = Connection(user_id, role, token_version, slots)
        self._by_user[user_id].add(connection)
        for slot in slots:
            self._by_slot[slot].add(connection)
        self.connections += 1
        OPEN_STREAMS.inc()
        return connection

    def close(self, connection: Connection) -> None:
        if connection not in self._by_user.get(connection.user_id, ()):
            return
        self._discard(self._by_user, connection.user_id, connection)
        for slot in connection.slots:
            self._discard(self._by_slot, slot, connection)
        self.connections -= 1
        OPEN_STREAMS.dec()

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
            frame = message.frame  # encoded once, the same bytes for every stream
            for connection in self._audience(message):
                connection.offer(frame)

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
