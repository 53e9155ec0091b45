"""A consumer's bursts on real PostgreSQL: deliveries that wait together are handled in one transaction, each
exactly once whatever is redelivered or fails (pinbid_kit.inbox.Consumers.in_bursts, pinbid_kit.bursts)."""

import asyncio
import contextvars
import uuid
from datetime import UTC, datetime, timedelta

import aio_pika
import pytest
from pinbid_kit import context
from pinbid_kit.bursts import BurstQueue
from pinbid_kit.bus import InProcessBus, RabbitBus
from pinbid_kit.bus.rabbit import forget_deployment, prefixed
from pinbid_kit.clock import AS_OF_HEADER
from pinbid_kit.envelope import Envelope
from pinbid_kit.events.identity import UserRegistered, UserUpdated
from pinbid_kit.inbox import Consumers
from pinbid_testing import eventually
from prometheus_client import REGISTRY
from sqlalchemy import text

# the buses' own exchange: events other test files publish on the broker never reach these consumers' queue
PREFIX = f"bursts{uuid.uuid4().hex[:8]}"


@pytest.fixture
async def queue_name(amqp_url):
    """The consumers' queue ("test", their service's name), deleted after each test with the exchanges."""
    yield prefixed(PREFIX, "test")
    await forget_deployment(amqp_url, PREFIX, ["test"])

# one row per event handled: which event, in which transaction, the correlation id the handler saw
HANDLED = ("CREATE TABLE handled (event_id uuid NOT NULL, tx bigint NOT NULL DEFAULT txid_current(), "
           "correlation text)")


def updated(name: str = "A", *, user_id: uuid.UUID | None = None, at: datetime | None = None) -> Envelope:
    data = UserUpdated(user_id=user_id or uuid.uuid4(), email="a@b.co", name=name, role="BUYER")
    extra = {"occurred_at": at} if at else {}
    return Envelope(type=data.event_type, source="test", data=data.payload(), correlation_id=uuid.uuid4().hex,
                    **extra)


async def make_table(db, ddl: str) -> None:
    async with db.transaction() as s:
        await s.execute(text(ddl))


async def rows(db, sql: str) -> list:
    async with db.transaction() as s:
        return list((await s.execute(text(sql))).all())


def recording_consumers(db, fail: set[uuid.UUID] | None = None, failures: int = 1) -> tuple[Consumers, list]:
    """Consumers taking `user.updated` in bursts; each handling writes a `handled` row and causes a
    `user.registered` event. An event in `fail` raises its first `failures` times, after writing."""
    calls: list[uuid.UUID] = []

    async def record(session, data: UserUpdated, delivery) -> None:
        envelope = delivery.envelope
        calls.append(envelope.id)
        await session.execute(text("INSERT INTO handled (event_id, correlation) VALUES (:id, :c)"),
                              {"id": envelope.id, "c": context.request_id.get()})
        if envelope.id in (fail or set()) and calls.count(envelope.id) <= failures:
            raise RuntimeError("the handler fails on this event")
        delivery.events.append(UserRegistered(user_id=data.user_id, email=data.email, name=data.name,
                                              role="BUYER"))

    consumers = Consumers("test", db)
    consumers.register_map({UserUpdated.event_type: [record]}, deps=None)
    consumers.in_bursts(UserUpdated.event_type)
    return consumers, calls


async def test_deliveries_waiting_together_are_handled_in_one_transaction_with_one_outbox_write(db):
    await make_table(db, HANDLED)
    consumers, _ = recording_consumers(db)
    envelopes = [updated(f"U{n}") for n in range(6)]

    await asyncio.gather(*(consumers.dispatch(e, {}) for e in envelopes))

    handled = await rows(db, "SELECT event_id, tx, correlation FROM handled")
    assert sorted(r.event_id for r in handled) == sorted(e.id for e in envelopes)
    assert len({r.tx for r in handled}) == 1  # one transaction for the six
    # each handler saw its own delivery's correlation id, and each event it caused carries it
    assert {r.event_id: r.correlation for r in handled} == {e.id: e.correlation_id for e in envelopes}
    outbox = await rows(db, "SELECT xmin::text AS tx, envelope->>'correlationId' AS correlation FROM outbox")
    assert sorted(r.correlation for r in outbox) == sorted(e.correlation_id for e in envelopes)
    assert len({r.tx for r in outbox}) == 1
    inbox = await rows(db, "SELECT event_id FROM inbox")
    assert sorted(r.event_id for r in inbox) == sorted(e.id for e in envelopes)


async def test_a_redelivered_burst_and_duplicates_inside_one_have_no_second_effect(db):
    await make_table(db, HANDLED)
    consumers, calls = recording_consumers(db)
    envelopes = [updated(f"U{n}") for n in range(4)]
    duplicate_count = REGISTRY.get_sample_value("pinbid_events_handled_total", {
        "service": "test", "type": UserUpdated.event_type, "result": "duplicate"}) or 0.0

    # the same event twice in one burst, then the whole burst again
    await asyncio.gather(*(consumers.dispatch(e, {}) for e in [*envelopes, envelopes[0]]))
    await asyncio.gather(*(consumers.dispatch(e, {}) for e in envelopes))

    assert sorted(calls) == sorted(e.id for e in envelopes)
    assert len(await rows(db, "SELECT 1 FROM handled")) == 4
    assert len(await rows(db, "SELECT 1 FROM outbox")) == 4
    assert REGISTRY.get_sample_value("pinbid_events_handled_total", {
        "service": "test", "type": UserUpdated.event_type, "result": "duplicate"}) == duplicate_count + 5


async def test_a_failing_handler_fails_its_own_delivery_alone_and_the_others_are_handled_once(db):
    await make_table(db, HANDLED)
    envelopes = [updated(f"U{n}") for n in range(5)]
    bad = envelopes[2]
    consumers, calls = recording_consumers(db, fail={bad.id}, failures=2)  # in the burst, then alone

    outcomes = await asyncio.gather(*(consumers.dispatch(e, {}) for e in envelopes), return_exceptions=True)

    assert [type(o) for o in outcomes] == [type(None)] * 2 + [RuntimeError] + [type(None)] * 2
    # the burst's writes were rolled back: each good event is handled once, the bad one not at all
    handled = await rows(db, "SELECT event_id, tx FROM handled")
    assert sorted(r.event_id for r in handled) == sorted(e.id for e in envelopes if e is not bad)
    assert len({r.tx for r in handled}) == 4  # one at a time after the burst failed
    assert bad.id not in {r.event_id for r in await rows(db, "SELECT event_id FROM inbox")}
    # those before it in the burst ran twice (their first run rolled back), those after it once
    assert [calls.count(e.id) for e in envelopes] == [2, 2, 2, 1, 1]

    await consumers.dispatch(bad, {})  # its redelivery, the cause gone
    assert len(await rows(db, "SELECT 1 FROM handled")) == 5
    assert len(await rows(db, "SELECT 1 FROM outbox")) == 5


async def test_a_burst_outlasting_its_waiters_still_settles_each_delivery_once(db):
    """A bus handler that stops waiting (its task cancelled) leaves the burst to finish; the inbox covers the
    redelivery the bus then makes."""
    await make_table(db, HANDLED)
    consumers, calls = recording_consumers(db)
    envelopes = [updated(f"U{n}") for n in range(3)]
    waiters = [asyncio.create_task(consumers.dispatch(e, {})) for e in envelopes]
    await asyncio.sleep(0)
    waiters[0].cancel()
    await asyncio.gather(*waiters, return_exceptions=True)
    await asyncio.gather(*(consumers.dispatch(e, {}) for e in envelopes))  # all redelivered
    assert len(await rows(db, "SELECT 1 FROM handled")) == 3 and len(calls) == 3


def keeping_names(db) -> tuple[Consumers, list]:
    """Consumers keeping each user's latest name, an upsert guarded by the event's time (as social keeps a slot),
    taken in bursts with only the latest of each user handled."""
    applied: list[uuid.UUID] = []

    async def keep_name(session, data: UserUpdated, delivery) -> None:
        applied.append(delivery.envelope.id)
        await session.execute(text(
            "INSERT INTO names (user_id, name, at) VALUES (:user, :name, :at) ON CONFLICT (user_id) DO UPDATE "
            "SET name = excluded.name, at = excluded.at WHERE names.at <= excluded.at"),
            {"user": data.user_id, "name": data.name, "at": delivery.envelope.occurred_at})

    consumers = Consumers("test", db)
    consumers.register_map({UserUpdated.event_type: [keep_name]}, deps=None)
    consumers.in_bursts(UserUpdated.event_type, latest_of={UserUpdated.event_type: lambda d: d.user_id})
    return consumers, applied


async def test_only_the_latest_change_of_each_thing_in_a_burst_is_handled_and_leaves_what_all_in_turn_would(db):
    await make_table(db, "CREATE TABLE names (user_id uuid PRIMARY KEY, name text NOT NULL, at timestamptz NOT NULL)")
    consumers, applied = keeping_names(db)
    start = datetime(2026, 11, 27, 12, tzinfo=UTC)
    alice, bob = uuid.uuid4(), uuid.uuid4()
    # out of order, with a tie at the latest moment (the later arrival wins, as handling in turn would have it)
    changes = [updated("A2", user_id=alice, at=start + timedelta(seconds=2)),
               updated("B1", user_id=bob, at=start + timedelta(seconds=1)),
               updated("A3", user_id=alice, at=start + timedelta(seconds=3)),
               updated("A1", user_id=alice, at=start + timedelta(seconds=1)),
               updated("B3", user_id=bob, at=start + timedelta(seconds=3)),
               updated("B3'", user_id=bob, at=start + timedelta(seconds=3)),
               updated("B2", user_id=bob, at=start + timedelta(seconds=2))]

    await asyncio.gather(*(consumers.dispatch(e, {}) for e in changes))
    in_bursts = {r.user_id: r.name for r in await rows(db, "SELECT user_id, name FROM names")}

    assert sorted(applied) == sorted([changes[2].id, changes[5].id])  # one handling per user
    assert len(await rows(db, "SELECT 1 FROM inbox")) == len(changes)  # every change recorded as handled
    await asyncio.gather(*(consumers.dispatch(e, {}) for e in changes))  # redelivered: nothing more
    assert len(applied) == 2

    # the same changes handled one at a time, in the same order, in a fresh table
    await make_table(db, "TRUNCATE names, inbox")
    for change in changes:
        await consumers.dispatch(change, {})
    in_turn = {r.user_id: r.name for r in await rows(db, "SELECT user_id, name FROM names")}
    assert in_bursts == in_turn == {alice: "A3", bob: "B3'"}


def together_consumers(db) -> tuple[Consumers, list]:
    """Consumers taking `user.updated` and `user.registered` in bursts, both handlers with one form for many
    deliveries: it records each call's deliveries, writes one `handled` row each in one statement and causes one
    event each."""
    calls: list[list[uuid.UUID]] = []

    async def record_all(session, handled: list) -> None:
        calls.append([delivery.envelope.id for _, delivery in handled])
        await session.execute(text("INSERT INTO handled (event_id) SELECT unnest(CAST(:ids AS uuid[]))"),
                              {"ids": [delivery.envelope.id for _, delivery in handled]})
        for data, delivery in handled:
            delivery.events.append(UserRegistered(user_id=data.user_id, email="a@b.co", name=str(delivery.moment),
                                                  role="BUYER"))

    async def record_updated(session, data, delivery) -> None:
        await record_all(session, [(data, delivery)])

    async def record_registered(session, data, delivery) -> None:
        await record_all(session, [(data, delivery)])

    consumers = Consumers("test", db)
    consumers.register_map({UserUpdated.event_type: [record_updated],
                            UserRegistered.event_type: [record_registered]}, deps=None)
    consumers.in_bursts(UserUpdated.event_type, UserRegistered.event_type,
                        together={record_updated: record_all, record_registered: record_all})
    return consumers, calls


def registered(name: str) -> Envelope:
    data = UserRegistered(user_id=uuid.uuid4(), email="a@b.co", name=name, role="BUYER")
    return Envelope(type=data.event_type, source="test", data=data.payload(), correlation_id=uuid.uuid4().hex)


async def test_handlers_taken_together_get_their_bursts_deliveries_in_one_call_each_event_made_as_its_own(db):
    await make_table(db, HANDLED)
    consumers, calls = together_consumers(db)
    moment = datetime(2026, 1, 2, 3, tzinfo=UTC)
    envelopes = [updated("U0"), registered("R1"), updated("U2"), registered("R3")]
    headers = [{}, {AS_OF_HEADER: moment.isoformat()}, {}, {}]

    await asyncio.gather(*(consumers.dispatch(e, h) for e, h in zip(envelopes, headers, strict=True)))
    await asyncio.gather(*(consumers.dispatch(e, {}) for e in envelopes))  # redelivered: nothing more

    assert calls == [[e.id for e in envelopes]]  # one call, in arrival order, for both handlers' deliveries
    handled = await rows(db, "SELECT event_id, tx FROM handled")
    assert sorted(r.event_id for r in handled) == sorted(e.id for e in envelopes) and len({r.tx for r in handled}) == 1
    outbox = await rows(db, "SELECT envelope->>'correlationId' AS correlation, envelope->'data'->>'name' AS moment, "
                            "headers FROM outbox ORDER BY seq")
    assert [r.correlation for r in outbox] == [e.correlation_id for e in envelopes]  # each made as its delivery
    assert [r.moment for r in outbox] == ["None", str(moment), "None", "None"]  # each delivery's replayed moment
    assert AS_OF_HEADER in outbox[1].headers and AS_OF_HEADER not in outbox[0].headers


async def test_a_handler_taken_together_alone_in_its_burst_takes_its_one_delivery_path(db):
    await make_table(db, HANDLED)
    consumers, calls = together_consumers(db)
    event = updated("U0")
    await consumers.dispatch(event, {AS_OF_HEADER: "2026-01-02T03:00:00+00:00"})
    assert calls == [[event.id]]
    assert [r.moment for r in await rows(db, "SELECT envelope->'data'->>'name' AS moment FROM outbox")] == [
        "2026-01-02 03:00:00+00:00"]


async def queue_depth(amqp_url: str, queue: str) -> int:
    connection = await aio_pika.connect(amqp_url)
    async with connection:
        channel = await connection.channel()
        return (await channel.declare_queue(queue, passive=True)).declaration_result.message_count


async def test_over_rabbitmq_a_failing_handler_in_a_burst_loses_and_doubles_nothing(db, amqp_url, queue_name):
    await make_table(db, HANDLED)
    envelopes = [updated(f"U{n}") for n in range(24)]
    bad = envelopes[5]
    consumers, _ = recording_consumers(db, fail={bad.id}, failures=2)  # its burst, then alone: delivered again
    bus = RabbitBus(amqp_url, prefix=PREFIX, prefetch=8, retry_base_seconds=0.01)
    consumers.attach(bus)
    await bus.start()
    try:
        assert await bus.publish_batch([(e, {}) for e in envelopes]) == [None] * 24
        await eventually(lambda: count_rows(db, "handled", 24))
    finally:
        await bus.stop()
    handled = await rows(db, "SELECT event_id, tx FROM handled")
    assert sorted(r.event_id for r in handled) == sorted(e.id for e in envelopes)  # each once
    assert len({r.tx for r in handled}) < 24  # bursts formed
    assert len(await rows(db, "SELECT 1 FROM outbox")) == 24
    assert await queue_depth(amqp_url, queue_name) == 0  # every delivery acknowledged
    assert await queue_depth(amqp_url, f"{queue_name}.dlq") == 0


async def count_rows(db, table: str, expected: int) -> bool:
    return len(await rows(db, f"SELECT 1 FROM {table}")) >= expected


@pytest.mark.parametrize("committed", [False, True], ids=["before-commit", "after-commit"])
async def test_a_consumer_lost_mid_burst_leaves_each_event_handled_once_by_the_next(db, amqp_url, queue_name,
                                                                                    committed):
    """A consumer dies in a burst (its connection closed, its work stopped), inside the burst's transaction or
    after its commit but before the acknowledgements: the broker gives the burst's deliveries to the next
    consumer, which handles each event the dead one did not commit, and only those."""
    await make_table(db, HANDLED)
    envelopes = [updated(f"U{n}") for n in range(6)]
    first_in, release_first, stuck = asyncio.Event(), asyncio.Event(), asyncio.Event()
    hang_in_handler = asyncio.Event()

    def consumers() -> Consumers:
        async def handle(session, data: UserUpdated, delivery) -> None:  # one name: one inbox handler
            await session.execute(text("INSERT INTO handled (event_id) VALUES (:id)"), {"id": delivery.envelope.id})
            if not first_in.is_set():  # the first delivery waits: if it came alone, the others gather behind it
                first_in.set()
                await release_first.wait()
            if hang_in_handler.is_set():
                stuck.set()
                await asyncio.Event().wait()

        made = Consumers("test", db)
        made.register_map({UserUpdated.event_type: [handle]}, deps=None)
        made.in_bursts(UserUpdated.event_type)
        return made

    first = consumers()
    bursts: list[set[uuid.UUID]] = []
    handle_burst = first._bursts.handle_burst

    async def dying(burst) -> None:
        bursts.append({waiting.envelope.id for waiting in burst})
        if not committed:
            hang_in_handler.set()
        await handle_burst(burst)
        stuck.set()
        await asyncio.Event().wait()

    first._bursts.handle_burst = dying
    done = {"first": 0, "next": 0}  # deliveries each consumer finished (committed, then acknowledged)

    def counted(consumers: Consumers, name: str):
        async def dispatch(envelope, headers) -> None:
            await consumers.dispatch(envelope, headers)
            done[name] += 1
        return dispatch

    lost = RabbitBus(amqp_url, prefix=PREFIX, prefetch=8)
    lost.subscribe("test", first.patterns, counted(first, "first"))
    await lost.start()
    await lost.publish_batch([(e, {}) for e in envelopes])
    await asyncio.wait_for(first_in.wait(), timeout=15)
    # before the first goes on, the others have joined it in a burst or wait for the next one
    await eventually(lambda: bursts or len(first._bursts._waiting) >= 2)
    release_first.set()
    await asyncio.wait_for(stuck.wait(), timeout=15)
    drainer = first._bursts._drainer
    await lost.broker._connection.close()  # the consumer is gone: its unacknowledged deliveries go back
    drainer.cancel()  # and nothing more of its work runs
    await asyncio.gather(drainer, return_exceptions=True)
    await lost.stop()
    hang_in_handler.clear()
    [died_in] = bursts
    assert len(died_in) >= 2
    inbox = {r.event_id for r in await rows(db, "SELECT event_id FROM inbox")}
    assert inbox & died_in == (died_in if committed else set())

    following = consumers()
    bus = RabbitBus(amqp_url, prefix=PREFIX, prefetch=8)
    bus.subscribe("test", following.patterns, counted(following, "next"))
    await bus.start()
    try:
        # every delivery the first did not finish was finished by the next (a finished one whose acknowledgement was
        # lost comes again too, and counts twice)
        await eventually(lambda: done["first"] + done["next"] >= 6)
    finally:
        await bus.stop()
    handled = await rows(db, "SELECT event_id FROM handled")
    assert sorted(r.event_id for r in handled) == sorted(e.id for e in envelopes)
    assert await queue_depth(amqp_url, queue_name) == 0


async def test_a_delivery_handled_alone_runs_in_its_own_bus_handlers_context():
    """A delivery that makes a burst of one, or is handled again alone after its burst failed, writes its events in
    its own context (the trace its bus handler joined), not in that of the delivery that started the drainer."""
    trace: contextvars.ContextVar[str] = contextvars.ContextVar("trace", default="none")
    seen: list[tuple[str, str]] = []

    async def one(envelope, headers) -> None:
        seen.append((envelope.data["name"], trace.get()))

    async def failing_burst(burst) -> None:
        raise RuntimeError("the burst fails")

    queue = BurstQueue(failing_burst, one)

    async def delivered(envelope: Envelope) -> None:
        trace.set(f"trace of {envelope.data['name']}")
        await queue.submit(envelope, {})

    await asyncio.gather(*(delivered(updated(name)) for name in ("A", "B", "C")))
    await delivered(updated("D"))
    assert seen == [(n, f"trace of {n}") for n in "ABCD"]


async def test_no_more_deliveries_are_handled_at_a_time_than_attach_allows_a_burst_counting_one(db):
    """The bus may hand over more deliveries than the pool has connections (its prefetch): those beyond `at_once`
    wait, holding none, and a burst holds one place however many deliveries it takes."""
    running, most = 0, 0
    release = asyncio.Event()

    async def hold(session, data, delivery) -> None:
        nonlocal running, most
        running += 1
        most = max(most, running)
        await release.wait()  # each handler holds its place until the test lets them all go
        running -= 1

    consumers = Consumers("test", db)
    consumers.register_map({UserUpdated.event_type: [hold], UserRegistered.event_type: [hold]}, deps=None)
    consumers.in_bursts(UserRegistered.event_type)
    consumers.attach(InProcessBus(), at_once=2)

    async def handle_all(envelopes: list[Envelope]) -> None:
        nonlocal most
        release.clear()
        most = 0
        dispatched = asyncio.gather(*(consumers.dispatch(e, {}) for e in envelopes))
        await eventually(lambda: running >= 2)
        release.set()
        await dispatched

    await handle_all([updated(f"U{n}") for n in range(6)])
    assert most == 2
    # the burst's six in one place, one after another; the three others share the second place
    await handle_all([*(registered(f"R{n}") for n in range(6)), updated("U"), updated("V"), updated("W")])
    assert most == 2
    assert len(await rows(db, "SELECT 1 FROM inbox")) == 6 + 9
