"""The transactional outbox and its relay.

`publish(session, data)` (or `publish_all` for a batch) writes events in the caller's transaction. The
relay claims unsent rows with FOR UPDATE SKIP LOCKED (so several relays never take the same row) and marks them
sent in the same statement, publishes each (the bus confirms) and commits; on failure it marks the refused rows
unsent again, backs off and retries forever: nothing is lost while the
broker is down. When a publish fails because the broker is down, the relay asks each round whether it answers
again; once it does, every waiting row is made due at once, so what piled up during an outage goes out as
soon as the broker is back, not when each row's backoff ends. A NOTIFY on commit wakes the relay at once; it
also polls as a fallback.
"""

import asyncio
import json
import logging
import random
from datetime import timedelta

import psycopg
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

from . import context
from .bus import Bus
from .clock import as_of_header
from .db import Database, async_url
from .envelope import Envelope
from .events import EventData
from .telemetry import inject_headers

log = logging.getLogger("pinbid.outbox")
NOTIFY_CHANNEL = "pinbid_outbox"

# the rows in the events' order (the relay publishes by seq) and the relay's wake-up, in one round trip
_WRITE = text(
    "WITH written AS (INSERT INTO outbox (id, type, envelope, headers) "
    "SELECT e.id, e.type, e.envelope, e.headers FROM unnest(CAST(:id AS uuid[]), CAST(:type AS text[]), "
    "CAST(:envelope AS jsonb[]), CAST(:headers AS jsonb[])) WITH ORDINALITY AS e(id, type, envelope, headers, n) "
    "ORDER BY e.n RETURNING 1) "
    f"SELECT pg_notify('{NOTIFY_CHANNEL}', '') WHERE EXISTS (SELECT FROM written)"
)

# the relay's round: due rows claimed and marked sent in one statement (locked until its commit) ...
_CLAIM = text(
    "UPDATE outbox SET sent_at = now() WHERE seq = ANY(ARRAY("
    "SELECT seq FROM outbox WHERE sent_at IS NULL AND next_attempt_at <= now() "
    "ORDER BY seq LIMIT :n FOR UPDATE SKIP LOCKED)) "
    "RETURNING seq, envelope, headers, attempts"
)
# ... and, when the bus refuses one, it and every later row of the batch made due again after a backoff
_UNSEND = text(
    "UPDATE outbox SET sent_at = NULL, attempts = attempts + 1, "
    "next_attempt_at = now() + :delay, last_error = :error "
    "WHERE seq >= :seq AND seq = ANY(:batch)"
)


async def publish(session: AsyncSession, data: EventData, *, source: str) -> Envelope:
    """Record `data` as an event in the outbox, in the caller's transaction."""
    return (await publish_all(session, [data], source=source))[0]


async def publish_all(session: AsyncSession, events: list[EventData], *, source: str) -> list[Envelope]:
    """Record several events in the caller's transaction: one row each, inserted with their NOTIFY in one
    statement."""
    if not events:
        return []
    envelopes = _envelopes(events, source)
    await write_rows(session, _rows(envelopes))
    return envelopes


async def write_rows(session: AsyncSession, rows: list[dict]) -> None:
    """Insert rows made by `outbox_rows` (several callers' at once: a consumer's burst), with the relay's NOTIFY,
    in one statement."""
    if rows:
        await session.execute(_WRITE, {key: [row[key] for row in rows]
                                       for key in ("id", "type", "envelope", "headers")})


def outbox_rows(events: list[EventData], *, source: str) -> list[dict]:
    """The outbox rows (id, type, and envelope and headers as JSON text) for `events`, for a caller that inserts
    them inside a statement of its own, with `pg_notify(NOTIFY_CHANNEL, '')` to wake the relay."""
    return _rows(_envelopes(events, source))


def _envelopes(events: list[EventData], source: str) -> list[Envelope]:
    correlation_id = context.request_id.get()
    return [Envelope(type=e.event_type, source=source, correlation_id=correlation_id, data=e.payload())
            for e in events]


def _rows(envelopes: list[Envelope]) -> list[dict]:
    headers = json.dumps({**inject_headers(), **as_of_header()})
    return [{"id": env.id, "type": env.type, "envelope": env.model_dump_json(by_alias=True), "headers": headers}
            for env in envelopes]


async def backlog(db: Database) -> tuple[int, float]:
    """Unsent rows and the age in seconds of the oldest one (0 when there is none): what pages someone when the
    relay cannot publish."""
    async with db.transaction() as session:
        row = (await session.execute(text(
            "SELECT count(*), coalesce(extract(epoch FROM now() - min(created_at)), 0) FROM outbox "
            "WHERE sent_at IS NULL"))).one()
    return int(row[0]), float(row[1])


def backoff(attempts: int) -> timedelta:
    """0.5 s, 1 s, 2 s ... capped at 60 s, with jitter so relays do not retry in lockstep."""
    seconds = min(0.5 * 2 ** max(attempts - 1, 0), 60.0)
    return timedelta(seconds=seconds * random.uniform(0.8, 1.2))


class OutboxRelay:
    def __init__(self, db: Database, bus: Bus, *, batch_size: int = 100, idle_seconds: float = 1.0,
                 retention: timedelta = timedelta(days=7), listen_url: str | None = None):
        self.db = db
        # LISTEN needs a session of its own: straight to PostgreSQL when db's URL goes through a pooler
        self.listen_url = async_url(listen_url) if listen_url else db.url
        self.bus = bus
        self.batch_size = batch_size
        self.idle_seconds = idle_seconds
        self.retention = retention
        self._wake = asyncio.Event()
        self._stopping = asyncio.Event()
        self._broker_down = False  # seen down after a failed publish: retry at once when it answers again

    def wake(self) -> None:
        self._wake.set()

    async def relay_once(self) -> int:
        """Publish one batch of due rows. Returns how many were published."""
        await self._retry_now_if_the_broker_is_back()
        published = 0
        async with self.db.connection_in_transaction() as conn:
            # claimed and marked sent in one statement (the rows stay locked until the commit); a row the bus
            # refuses, and every later one of the batch, is marked unsent again below before the commit
            rows = sorted((await conn.execute(_CLAIM, {"n": self.batch_size})).all(), key=lambda row: row.seq)
            envelopes = [Envelope.model_validate(row.envelope) for row in rows]
            outcomes = await self.bus.publish_batch(
                [(envelope, dict(row.headers)) for envelope, row in zip(envelopes, rows, strict=True)])
            published = len(rows)
            for row, envelope, exc in zip(rows, envelopes, outcomes, strict=True):
                if exc is not None:
                    # Keep order: stop at the first failure; the rest of the batch waits for the retry (any of
                    # them the broker took anyway is sent again, and the consumers' inbox skips it).
                    delay = backoff(row.attempts + 1)
                    log.warning("publishing %s failed (attempt %d), retrying in %.1fs: %r",
                                envelope.type, row.attempts + 1, delay.total_seconds(), exc)
                    self._broker_down = not await self.bus.ping()
                    await conn.execute(
                        _UNSEND,
                        {"delay": delay, "error": repr(exc)[:2000], "seq": row.seq,
                         "batch": [r.seq for r in rows]},
                    )
                    published = sum(1 for r in rows if r.seq < row.seq)
                    break
        return published

    async def _retry_now_if_the_broker_is_back(self) -> None:
        """Rows backing off since an outage need not wait out their backoff once the broker answers again."""
        if not self._broker_down or not await self.bus.ping():
            return
        self._broker_down = False
        async with self.db.transaction() as session:
            await session.execute(
                text("UPDATE outbox SET next_attempt_at = now() WHERE sent_at IS NULL AND next_attempt_at > now()")
            )

    async def purge_sent(self) -> int:
        async with self.db.transaction() as session:
            result = await session.execute(
                text("DELETE FROM outbox WHERE sent_at < now() - :keep"), {"keep": self.retention}
            )
            return result.rowcount or 0

    async def run(self) -> None:
        listener = asyncio.create_task(self._listen())
        rounds = 0
        try:
            while not self._stopping.is_set():
                self._wake.clear()
                try:
                    published = await self.db.wait.outlast(self.relay_once)
                except Exception:
                    log.exception("outbox relay round failed")
                    published = 0
                    await asyncio.sleep(1)
                rounds += 1
                if rounds % 10_000 == 0:
                    await self.purge_sent()
                if published < self.batch_size:
                    try:
                        await asyncio.wait_for(self._wake.wait(), timeout=self.idle_seconds)
                    except TimeoutError:
                        pass
        finally:
            listener.cancel()

    async def stop(self) -> None:
        self._stopping.set()
        self._wake.set()

    async def _listen(self) -> None:
        """LISTEN for commits that wrote to the outbox; reconnects with backoff."""
        dsn = self.listen_url.replace("postgresql+psycopg://", "postgresql://", 1)
        delay = 0.5
        while not self._stopping.is_set():
            try:
                async with await psycopg.AsyncConnection.connect(dsn, autocommit=True) as conn:
                    await conn.execute(f"LISTEN {NOTIFY_CHANNEL}")
                    delay = 0.5
                    async for _ in conn.notifies():
                        self._wake.set()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.debug("outbox listener reconnecting: %r", exc)
                await asyncio.sleep(delay)
                delay = min(delay * 2, 10)
