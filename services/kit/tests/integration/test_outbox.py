import asyncio
import uuid

import pytest
from pinbid_kit import outbox
from pinbid_kit.bus import InProcessBus
from pinbid_kit.bus.base import publish_in_turn
from pinbid_kit.envelope import Envelope
from pinbid_kit.events.identity import UserUpdated
from pinbid_kit.outbox import OutboxRelay
from pinbid_testing import counting_statements, eventually
from sqlalchemy import func, insert, select, text

from .conftest import widgets


def event(n: int = 0) -> UserUpdated:
    return UserUpdated(user_id=uuid.uuid4(), email=f"u{n}@x.co", name=f"U{n}", role="BUYER")


class RecordingBus:
    """Records what was published; can be switched 'down' to simulate a broker outage."""

    def __init__(self):
        self.published: list[Envelope] = []
        self.down = False

    async def publish(self, envelope: Envelope, headers: dict[str, str]) -> None:
        if self.down:
            raise ConnectionError("broker down")
        await asyncio.sleep(0)
        self.published.append(envelope)

    async def publish_batch(self, items):
        return await publish_in_turn(self.publish, items)

    async def ping(self) -> bool:
        return not self.down


async def outbox_count(db, *, sent: bool | None = None) -> int:
    condition = "" if sent is None else ("WHERE sent_at IS NOT NULL" if sent else "WHERE sent_at IS NULL")
    async with db.transaction() as s:
        return await s.scalar(text(f"SELECT count(*) FROM outbox {condition}"))


async def test_outbox_row_is_written_in_the_same_transaction_as_the_change(db):
    async with db.transaction() as s:
        await s.execute(insert(widgets).values(id=1, name="kept"))
        await outbox.publish(s, event(), source="test")
    with pytest.raises(RuntimeError):
        async with db.transaction() as s:
            await s.execute(insert(widgets).values(id=2, name="rolled back"))
            await outbox.publish(s, event(), source="test")
            raise RuntimeError("the change fails after the event was written")
    async with db.transaction() as s:
        assert await s.scalar(select(func.count()).select_from(widgets)) == 1
    assert await outbox_count(db) == 1



async def test_a_batch_of_events_is_one_statement_in_the_events_order(db):
    """publish_all writes the rows and wakes the relay in one round trip; the relay publishes by seq, so the rows
    keep the order the use case gave."""
    events = [event(n) for n in range(12)]
    with counting_statements(db) as counted:
        async with db.transaction() as s:
            envelopes = await outbox.publish_all(s, events, source="test")
    assert len(counted.statements) == 1 and counted.outbox_writes() == (1, 1)
    async with db.transaction() as s:
        rows = (await s.execute(text("SELECT id, envelope->'data'->>'name' FROM outbox ORDER BY seq"))).all()
    assert [row[0] for row in rows] == [e.id for e in envelopes]
    assert [row[1] for row in rows] == [f"U{n}" for n in range(12)]


async def test_a_relay_round_that_publishes_everything_is_one_statement(db):
    """The rows are claimed and marked sent by one UPDATE … RETURNING, committed once the bus has taken them all."""
    async with db.transaction() as s:
        await outbox.publish_all(s, [event(n) for n in range(3)], source="test")
    bus = RecordingBus()
    with counting_statements(db) as counted:
        assert await OutboxRelay(db, bus).relay_once() == 3
    assert len(counted.statements) == 1 and counted.commits == 1
    assert [e.data["name"] for e in bus.published] == ["U0", "U1", "U2"]
    assert await outbox_count(db, sent=True) == 3

async def test_relay_delivers_everything_after_a_broker_outage(db):
    bus = RecordingBus()
    relay = OutboxRelay(db, bus, batch_size=10)
    written = []
    async with db.transaction() as s:
        for n in range(25):
            written.append((await outbox.publish(s, event(n), source="test")).id)
    bus.down = True
    assert await relay.relay_once() == 0
    async with db.transaction() as s:
        row = (await s.execute(text("SELECT attempts, last_error, next_attempt_at > now() AS later "
                                    "FROM outbox ORDER BY seq LIMIT 1"))).one()
    assert row.attempts == 1 and "broker down" in row.last_error and row.later
    bus.down = False
    async with db.transaction() as s:  # the retry is due now rather than after the backoff
        await s.execute(text("UPDATE outbox SET next_attempt_at = now()"))
    while await relay.relay_once():
        pass
    assert [e.id for e in bus.published] == written
    assert await outbox_count(db, sent=False) == 0


async def test_rows_failed_during_an_outage_go_out_as_soon_as_the_broker_is_back(db):
    bus = RecordingBus()
    relay = OutboxRelay(db, bus, batch_size=100)
    async with db.transaction() as s:
        written = [(await outbox.publish(s, event(n), source="test")).id for n in range(5)]
    bus.down = True
    for _ in range(3):  # several failed rounds: the backoff has grown past the test's patience
        async with db.transaction() as s:
            await s.execute(text("UPDATE outbox SET next_attempt_at = now()"))
        assert await relay.relay_once() == 0
    async with db.transaction() as s:
        waiting = await s.scalar(text("SELECT min(next_attempt_at - now()) FROM outbox WHERE sent_at IS NULL"))
    assert waiting.total_seconds() > 1.5
    assert await relay.relay_once() == 0  # still down: nothing is made due, nothing is sent

    bus.down = False
    assert await relay.relay_once() == 5  # no waiting out the backoff
    assert [e.id for e in bus.published] == written
    assert await outbox_count(db, sent=False) == 0


async def test_a_publish_refused_while_the_broker_answers_keeps_its_backoff(db):
    class RefusingBus(RecordingBus):
        async def publish(self, envelope: Envelope, headers: dict[str, str]) -> None:
            raise ValueError("message refused")

    relay = OutboxRelay(db, RefusingBus())
    async with db.transaction() as s:
        await outbox.publish(s, event(), source="test")
    assert await relay.relay_once() == 0
    assert await relay.relay_once() == 0
    async with db.transaction() as s:
        row = (await s.execute(text("SELECT attempts, next_attempt_at > now() AS later FROM outbox"))).one()
    assert row.attempts == 1 and row.later


async def test_two_relays_at_once_publish_each_row_exactly_once(db):
    async with db.transaction() as s:
        for n in range(400):
            await outbox.publish(s, event(n), source="test")
    bus = RecordingBus()
    relays = [OutboxRelay(db, bus, batch_size=20), OutboxRelay(db, bus, batch_size=20)]

    async def drain(relay):
        rounds = 0
        while await relay.relay_once():
            rounds += 1
        return rounds

    rounds = await asyncio.gather(*(drain(r) for r in relays))
    ids = [e.id for e in bus.published]
    assert len(ids) == 400 and len(set(ids)) == 400
    assert all(r > 0 for r in rounds), "both relays took part"


async def test_relay_wakes_on_commit_through_notify(db):
    bus = InProcessBus()
    received = asyncio.Event()

    async def handler(envelope, headers):
        received.set()

    bus.subscribe("t", ["#"], handler)
    await bus.start()
    relay = OutboxRelay(db, bus, idle_seconds=30)  # only NOTIFY can wake it within the test's time
    task = asyncio.create_task(relay.run())
    await eventually(lambda: _listening(db), within=10)
    async with db.transaction() as s:
        await outbox.publish(s, event(), source="test")
    await asyncio.wait_for(received.wait(), timeout=5)
    await relay.stop()
    await task


async def test_trace_context_travels_with_the_event(db):
    from opentelemetry import trace
    from opentelemetry.sdk.trace import TracerProvider

    tracer = TracerProvider().get_tracer("t")
    with tracer.start_as_current_span("request") as span:
        async with db.transaction() as s:
            await outbox.publish(s, event(), source="test")
        trace_id = format(span.get_span_context().trace_id, "032x")
    async with db.transaction() as s:
        headers = await s.scalar(text("SELECT headers FROM outbox"))
    assert headers["traceparent"].split("-")[1] == trace_id
    assert trace is not None


async def test_the_backlog_gauges_show_what_waits_and_for_how_long(db):
    from pinbid_kit.runtime import OUTBOX_OLDEST, OUTBOX_UNSENT, watch_outbox

    assert await outbox.backlog(db) == (0, 0.0)
    async with db.transaction() as s:
        await outbox.publish_all(s, [event(1), event(2), event(3)], source="test")
        await s.execute(text("UPDATE outbox SET created_at = now() - interval '90 seconds' WHERE seq = "
                             "(SELECT min(seq) FROM outbox)"))
    unsent, oldest = await outbox.backlog(db)
    assert unsent == 3 and 89 <= oldest < 120

    watcher = asyncio.create_task(watch_outbox("backlog-test", db, every_seconds=0.05))
    try:
        await eventually(lambda: _gauge_is(OUTBOX_UNSENT, 3), within=10, every=0.02)
        assert OUTBOX_OLDEST.labels("backlog-test")._value.get() >= 89
        await OutboxRelay(db, RecordingBus(), idle_seconds=0.05).relay_once()
        await eventually(lambda: _gauge_is(OUTBOX_UNSENT, 0), within=10, every=0.02)
        assert OUTBOX_OLDEST.labels("backlog-test")._value.get() == 0
    finally:
        watcher.cancel()


async def _listening(db) -> bool:
    """The relay's listener has run its LISTEN (a commit's NOTIFY would now wake it)."""
    async with db.transaction() as s:
        found = await s.scalar(text("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                                    "AND state = 'idle' AND query LIKE 'LISTEN %'"))
    return found > 0


def _gauge_is(gauge, expected: float) -> bool:
    return gauge.labels("backlog-test")._value.get() == expected
