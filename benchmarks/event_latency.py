"""Event latency from the producer's commit to the consumer's handler, p50/p99, through the real outbox
relay, on RabbitMQ and on the in-process bus. Events are written one transaction at a time at a steady
pace (latency, not throughput), into a fresh database on the local PostgreSQL."""

import asyncio
import time
import uuid

import psycopg
from pinbid_kit import outbox
from pinbid_kit.bus import InProcessBus, RabbitBus
from pinbid_kit.bus.rabbit import delete_queues
from pinbid_kit.db import Database, async_url
from pinbid_kit.events.identity import UserUpdated
from pinbid_kit.inbox import Consumers
from pinbid_kit.outbox import OutboxRelay
from pinbid_kit.tables import add_messaging_tables
from sqlalchemy import create_engine

from .common import summary

PG = "postgresql://postgres@127.0.0.1:5432"
AMQP = "amqp://guest:guest@127.0.0.1:5672/"
EVENTS = 500
PACE_SECONDS = 0.004


def fresh_database() -> str:
    from sqlalchemy import MetaData

    name = f"bench_events_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    metadata = MetaData()
    add_messaging_tables(metadata)
    engine = create_engine(async_url(f"{PG}/{name}"))
    metadata.create_all(engine)
    engine.dispose()
    return name


async def measure(bus, label: str) -> None:
    name = fresh_database()
    db = Database(f"{PG}/{name}")
    committed: dict[str, float] = {}
    latencies: list[float] = []
    done = asyncio.Event()
    consumers = Consumers(f"bench-{uuid.uuid4().hex[:6]}", db)

    @consumers.on(UserUpdated.event_type)
    async def received(session, data, envelope) -> None:
        latencies.append(time.perf_counter() - committed[data.name])
        if len(latencies) == EVENTS:
            done.set()

    consumers.attach(bus)
    await bus.start()
    relay = OutboxRelay(db, bus)
    relay_task = asyncio.create_task(relay.run())
    await asyncio.sleep(0.5)
    for n in range(EVENTS):
        key = f"e{n}"
        async with db.transaction() as session:
            await outbox.publish(session, UserUpdated(user_id=uuid.uuid4(), email="b@x.co", name=key, role="BUYER"),
                                 source="bench")
        committed[key] = time.perf_counter()
        await asyncio.sleep(PACE_SECONDS)
    await asyncio.wait_for(done.wait(), timeout=60)
    await relay.stop()
    await relay_task
    await bus.stop()
    if isinstance(bus, RabbitBus):
        await delete_queues(AMQP, consumers.service)
    await db.dispose()
    with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE "{name}" WITH (FORCE)')
    print(summary(f"event latency, commit to consumer, {label}", latencies))


async def main() -> None:
    await measure(InProcessBus(), "in-process bus")
    rabbit = RabbitBus(AMQP)
    await measure(rabbit, "RabbitMQ")


if __name__ == "__main__":
    asyncio.run(main())
