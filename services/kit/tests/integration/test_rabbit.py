"""The RabbitMQ bus against a real broker: routing, dead-lettering, and the relay across an outage."""

import asyncio
import uuid

import aio_pika
import pytest
from pinbid_kit import outbox
from pinbid_kit.bus import RabbitBus
from pinbid_kit.bus.dead_letters import list_dead_letters, replay_dead_letters
from pinbid_kit.bus.rabbit import delete_queues, forget_deployment
from pinbid_kit.envelope import Envelope
from pinbid_kit.events.identity import SessionsRevoked, UserUpdated
from pinbid_kit.outbox import OutboxRelay
from pinbid_kit.runtime import watch_broker
from pinbid_testing import eventually
from prometheus_client import REGISTRY
from sqlalchemy import text


@pytest.fixture
async def queue_name(amqp_url):
    name = f"test.{uuid.uuid4().hex[:10]}"
    yield name
    await delete_queues(amqp_url, name)


def updated() -> Envelope:
    data = UserUpdated(user_id=uuid.uuid4(), email="a@b.co", name="A", role="BUYER")
    return Envelope(type=data.event_type, source="test", data=data.payload())


def revoked() -> Envelope:
    data = SessionsRevoked(user_id=uuid.uuid4(), token_version=2)
    return Envelope(type=data.event_type, source="test", data=data.payload())


class Collected:
    """A subscriber that keeps the ids of the events it is handed, in order, and says when `expected` have come."""

    def __init__(self, expected: int):
        self.expected = expected
        self.ids: list[uuid.UUID] = []
        self.all_in = asyncio.Event()

    async def handler(self, envelope: Envelope, headers: dict) -> None:
        self.ids.append(envelope.id)
        if len(self.ids) == self.expected:
            self.all_in.set()


async def test_events_reach_the_queue_bound_to_each_of_its_types(amqp_url, queue_name):
    bus = RabbitBus(amqp_url)
    got: list[tuple[str, str]] = []
    done = asyncio.Event()

    async def handler(envelope, headers):
        got.append((envelope.type, headers.get("traceparent", "")))
        if len(got) == 2:
            done.set()

    bus.subscribe(queue_name, ["identity.user.updated.v1", "identity.user.sessions_revoked.v1"], handler)
    await bus.start()
    try:
        await bus.publish(updated(), {"traceparent": "00-" + "1" * 32 + "-" + "2" * 16 + "-01"})
        await bus.publish(revoked(), {})
        await asyncio.wait_for(done.wait(), timeout=10)
    finally:
        await bus.stop()
    assert sorted(t for t, _ in got) == ["identity.user.sessions_revoked.v1", "identity.user.updated.v1"]
    # the consumer is in the publisher's trace (the span id is the publish span's, made by the middleware)
    traceparent = dict(got)["identity.user.updated.v1"]
    assert traceparent.split("-")[1] == "1" * 32



async def test_a_delivery_takes_no_worker_thread_and_no_span_without_an_exporter(amqp_url, queue_name, monkeypatch):
    """The handler gets the envelope on the event loop: FastStream would solve an injected message in a worker
    thread for every delivery. Without an exporter no telemetry middleware runs (nobody would read its spans)."""
    import anyio.to_thread
    from faststream.rabbit.opentelemetry import RabbitTelemetryMiddleware
    from pinbid_kit.bus import rabbit

    monkeypatch.setattr(rabbit, "exporting", lambda: False)
    hops = []
    real_run_sync = anyio.to_thread.run_sync

    async def counted_run_sync(func, *args, **kwargs):
        hops.append(func)
        return await real_run_sync(func, *args, **kwargs)

    monkeypatch.setattr(anyio.to_thread, "run_sync", counted_run_sync)
    bus = RabbitBus(amqp_url)
    assert not any(isinstance(m, type) and issubclass(m, RabbitTelemetryMiddleware) or
                   isinstance(m, RabbitTelemetryMiddleware) for m in bus.broker.middlewares)
    collected = Collected(expected=3)
    bus.subscribe(queue_name, ["identity.user.updated.v1"], collected.handler)
    await bus.start()
    try:
        sent = [updated() for _ in range(3)]
        for envelope in sent:
            await bus.publish(envelope, {})
        await asyncio.wait_for(collected.all_in.wait(), timeout=10)
    finally:
        await bus.stop()
    assert sorted(collected.ids) == sorted(e.id for e in sent)
    assert hops == []

async def test_a_message_that_keeps_failing_is_dead_lettered_not_acked(amqp_url, queue_name):
    bus = RabbitBus(amqp_url, max_deliveries=3, retry_base_seconds=0.01)
    deliveries = []

    async def broken(envelope, headers):
        deliveries.append(envelope.id)
        raise RuntimeError("cannot handle")

    bus.subscribe(queue_name, ["identity.user.updated.v1"], broken)
    await bus.start()
    sent = updated()
    try:
        await bus.publish(sent, {})
        connection = await aio_pika.connect(amqp_url)
        async with connection:
            channel = await connection.channel()

            async def dead_lettered() -> bool:
                dlq = await channel.declare_queue(f"{queue_name}.dlq", passive=True)
                return dlq.declaration_result.message_count == 1

            await eventually(dead_lettered, within=10)
            dlq = await channel.declare_queue(f"{queue_name}.dlq", passive=True)
            message = await dlq.get(no_ack=True)
            assert Envelope.from_json(message.body).id == sent.id
    finally:
        await bus.stop()
    assert deliveries == [sent.id] * 3


async def test_relay_over_rabbitmq_loses_nothing_across_an_outage(amqp_url, queue_name, new_database):
    from pinbid_kit.db import Database, async_url
    from sqlalchemy import create_engine

    from .conftest import metadata

    url = new_database()
    engine = create_engine(async_url(url))
    metadata.create_all(engine)
    engine.dispose()
    db = Database(url)
    async with db.transaction() as s:
        ids = [(await outbox.publish(s, UserUpdated(user_id=uuid.uuid4(), email=f"{n}@x.co", name="N", role="BUYER"),
                                     source="test")).id for n in range(50)]

    unreachable = RabbitBus("amqp://guest:guest@127.0.0.1:1/")  # the broker is "down": never connected
    assert await OutboxRelay(db, unreachable).relay_once() == 0
    async with db.transaction() as s:
        assert await s.scalar(text("SELECT count(*) FROM outbox WHERE sent_at IS NULL")) == 50
        await s.execute(text("UPDATE outbox SET next_attempt_at = now()"))

    bus = RabbitBus(amqp_url)
    received = Collected(50)
    bus.subscribe(queue_name, ["identity.user.updated.v1"], received.handler)
    await bus.start()
    try:
        relay = OutboxRelay(db, bus)
        while await relay.relay_once():
            pass
        await asyncio.wait_for(received.all_in.wait(), timeout=15)
    finally:
        await bus.stop()
        await db.dispose()
    assert sorted(received.ids) == sorted(ids)


async def test_runs_with_different_prefixes_on_one_broker_do_not_see_each_others_events(amqp_url):
    """Two deployments (two `make up` runs with their own PINBID_DB_PREFIX) subscribe the same service queue."""
    prefixes = [f"run{uuid.uuid4().hex[:6]}", f"run{uuid.uuid4().hex[:6]}"]
    buses = [RabbitBus(amqp_url, prefix=p) for p in prefixes]
    got: list[list[uuid.UUID]] = [[], []]
    for bus, seen in zip(buses, got, strict=True):
        async def handler(envelope, headers, seen=seen):
            seen.append(envelope.id)

        bus.subscribe("payments", ["identity.user.updated.v1"], handler)
    for bus in buses:
        await bus.start()
    try:
        first, second = updated(), updated()
        await buses[0].publish(first, {})
        await buses[1].publish(second, {})
        # A stray copy of `first` or `second` would be queued before these closing events (publishes are
        # confirmed, queues are first in first out), so it shows up before each run has seen its own last one.
        closing = [updated(), updated()]
        await buses[0].publish(closing[0], {})
        await buses[1].publish(closing[1], {})
        await eventually(lambda: closing[0].id in got[0] and closing[1].id in got[1], within=10)
    finally:
        for bus in buses:
            await bus.stop()
        for prefix in prefixes:
            await forget_deployment(amqp_url, prefix, ["payments"])
    assert [sorted(seen) for seen in got] == [sorted([first.id, closing[0].id]), sorted([second.id, closing[1].id])]


async def test_without_an_exporter_an_event_goes_out_on_aio_pikas_exchange_as_faststream_sent_it(amqp_url,
                                                                                                   monkeypatch):
    """FastStream's publish (its command, middlewares, encoder) is left out when no span is made; the message is the
    same: the envelope as JSON, persistent, its id, type and correlation id, the headers given, a confirm awaited."""
    from pinbid_kit.bus import rabbit

    monkeypatch.setattr(rabbit, "exporting", lambda: False)
    bus = RabbitBus(amqp_url, prefix=f"t{uuid.uuid4().hex[:8]}")
    await bus.start()

    async def not_this_way(*args, **kwargs):
        raise AssertionError("published through FastStream")

    monkeypatch.setattr(bus.broker, "publish", not_this_way)
    connection = await aio_pika.connect(amqp_url)
    try:
        channel = await connection.channel()
        queue = await channel.declare_queue(exclusive=True)
        await queue.bind(rabbit.prefixed(bus.prefix, rabbit.EXCHANGE), routing_key="identity.user.updated.v1")
        sent = Envelope(**{**updated().model_dump(), "correlation_id": "req-1"})
        assert await bus.publish_batch([(sent, {"traceparent": "00-" + "1" * 32 + "-" + "2" * 16 + "-01"})]) == [None]
        message = await _first_message(queue)
    finally:
        await connection.close()
        await bus.stop()
        await forget_deployment(amqp_url, bus.prefix)
    assert Envelope.from_json(message.body) == sent
    assert (message.message_id, message.type, message.correlation_id, message.content_type) == (
        str(sent.id), "identity.user.updated.v1", "req-1", "application/json")
    assert message.delivery_mode == aio_pika.DeliveryMode.PERSISTENT
    assert message.headers == {"traceparent": "00-" + "1" * 32 + "-" + "2" * 16 + "-01"}


async def _first_message(queue) -> aio_pika.abc.AbstractIncomingMessage:
    got: list = []

    async def arrived() -> bool:
        got.append(await queue.get(fail=False, no_ack=True))
        return got[-1] is not None

    await eventually(arrived, within=10)
    return got[-1]


async def test_a_batch_is_published_at_once_and_arrives_in_order(amqp_url, queue_name):
    bus = RabbitBus(amqp_url, prefetch=1)  # one at a time: the queue's order is the order handled
    got = Collected(50)
    bus.subscribe(queue_name, ["identity.user.updated.v1"], got.handler)
    await bus.start()
    batch = [updated() for _ in range(50)]
    try:
        assert await bus.publish_batch([(e, {}) for e in batch]) == [None] * 50  # every one confirmed
        await asyncio.wait_for(got.all_in.wait(), timeout=20)
    finally:
        await bus.stop()
    assert got.ids == [e.id for e in batch]


async def test_a_backlog_is_handled_a_few_at_a_time_not_all_at_once(amqp_url, queue_name):
    """After an outage the whole backlog arrives together; unbounded, every message got a handler (and a
    database connection) at once, the pool ran dry and the events were dead-lettered."""
    bus = RabbitBus(amqp_url, prefetch=3)
    active, most, handled = 0, 0, 0
    done = asyncio.Event()

    async def handler(envelope, headers):
        nonlocal active, most, handled
        active += 1
        most = max(most, active)
        await asyncio.sleep(0.02)
        active -= 1
        handled += 1
        if handled == 30:
            done.set()

    bus.subscribe(queue_name, ["identity.user.updated.v1"], handler)
    await bus.start()
    try:
        for _ in range(30):
            await bus.publish(updated(), {})
        await asyncio.wait_for(done.wait(), timeout=20)
    finally:
        await bus.stop()
    assert 1 <= most <= 3


def dead_letters_gauge(queue: str) -> float | None:
    return REGISTRY.get_sample_value("pinbid_dead_letters", {"service": "dlq-test", "queue": queue})


async def test_dead_letters_are_counted_listed_and_replayed_into_the_service_once_fixed(amqp_url, queue_name):
    bus = RabbitBus(amqp_url, max_deliveries=2, retry_base_seconds=0.01)
    broken = True
    handled: list[uuid.UUID] = []
    both = asyncio.Event()

    async def handler(envelope, headers):
        if broken:
            raise RuntimeError("cannot handle yet")
        handled.append(envelope.id)
        if len(handled) == 2:
            both.set()

    bus.subscribe(queue_name, ["identity.user.updated.v1"], handler)
    await bus.start()
    first, second = updated(), updated()
    try:
        await bus.publish(first, {})
        await bus.publish(second, {})
        await eventually(lambda: _counts(list_dead_letters(amqp_url, queue_name), 2), within=10)
        letters = await list_dead_letters(amqp_url, queue_name)
        assert {letter.event_id for letter in letters} == {str(first.id), str(second.id)}
        assert all(letter.event_type == "identity.user.updated.v1" for letter in letters)
        said = await list_dead_letters(amqp_url, queue_name, max_deliveries=bus.max_deliveries)
        assert {letter.reason for letter in said} == {"delivery_limit after 2 deliveries"}
        assert len(await list_dead_letters(amqp_url, queue_name)) == 2  # listing takes nothing away
        assert await bus.dead_letter_depths() == {queue_name: 2}
        watch = asyncio.create_task(watch_broker("dlq-test", bus, every_seconds=0.05))
        await eventually(lambda: _equals(dead_letters_gauge(queue_name), 2))  # what the alert reads

        broken = False
        assert await replay_dead_letters(amqp_url, queue_name) == 2
        await asyncio.wait_for(both.wait(), timeout=10)
        await eventually(lambda: _equals(dead_letters_gauge(queue_name), 0))
        watch.cancel()
    finally:
        await bus.stop()
    assert sorted(handled) == sorted([first.id, second.id])
    assert await list_dead_letters(amqp_url, queue_name) == []


async def _equals(value: object, expected: object) -> bool:
    return value == expected

async def _counts(listing, expected: int) -> bool:
    return len(await listing) == expected


async def test_a_handler_that_never_fails_takes_its_broadcasts_without_acknowledging_each(amqp_url):
    """With acknowledgements a prefetch of one hands over one delivery at a time (a held handler would see one);
    a broadcast handler that never fails is handed every delivery as it comes: the broker counts each done as it
    sends it."""
    bus = RabbitBus(amqp_url, prefix=f"t{uuid.uuid4().hex[:8]}", prefetch=1)
    entered, release = 0, asyncio.Event()

    async def held(envelope, headers):
        nonlocal entered
        entered += 1
        await release.wait()

    bus.subscribe_broadcast(["identity.user.updated.v1"], held, never_fails=True)
    await bus.start()
    try:
        await bus.publish_batch([(updated(), {}) for _ in range(3)])
        await eventually(lambda: _equals(entered, 3))
    finally:
        release.set()
        await bus.stop()
        await forget_deployment(amqp_url, bus.prefix)


async def test_a_broadcast_that_never_fails_is_taken_by_aio_pika_on_each_of_its_types_and_outlives_a_broken_promise(
        amqp_url, monkeypatch, caplog):
    """Without an exporter no FastStream subscriber takes it (nothing of FastStream's per-delivery work is needed);
    every type bound arrives with its headers, and a handler that fails after all is logged, not retried, and the
    deliveries after it still come."""
    from pinbid_kit.bus import rabbit

    monkeypatch.setattr(rabbit, "exporting", lambda: False)
    bus = RabbitBus(amqp_url, prefix=f"t{uuid.uuid4().hex[:8]}")
    got: list[tuple[str, str]] = []
    breaks = updated()

    async def hub(envelope, headers):
        if envelope.id == breaks.id:
            raise RuntimeError("a promise broken")
        got.append((envelope.type, headers.get("traceparent", "")))

    bus.subscribe_broadcast(["identity.user.updated.v1", "identity.user.sessions_revoked.v1"], hub, never_fails=True)
    assert bus.broker.subscribers == []
    await bus.start()
    try:
        await bus.publish(breaks, {})
        await bus.publish(updated(), {"traceparent": "t1"})
        await bus.publish(revoked(), {})
        await eventually(lambda: _equals(len(got), 2))
    finally:
        await bus.stop()
        await forget_deployment(amqp_url, bus.prefix)
    assert got == [("identity.user.updated.v1", "t1"), ("identity.user.sessions_revoked.v1", "")]
    assert "a broadcast handler that never fails failed" in caplog.text
