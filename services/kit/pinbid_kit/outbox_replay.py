"""Replays a producer's recent events from its own outbox to one consumer's queue on RabbitMQ: for a service
added to an existing install, or restored from a backup, that missed events while it was not there.

Only the event types the consumer subscribes to are sent, in the order they were written, to that consumer's
queue alone (through the default exchange); its inbox skips any it had already handled, so a replay is safe to
repeat. Published rows are kept `OUTBOX_RETENTION_DAYS` (7 by default): that is how far back a replay reaches."""

from datetime import datetime

import aio_pika
from sqlalchemy import text

from .bus import matches
from .bus.rabbit import prefixed
from .db import Database


async def replay_outbox(db: Database, amqp_url: str, *, queue: str, patterns: list[str], since: datetime,
                        prefix: str = "", batch: int = 500) -> int:
    """Publishes the producer's events since `since` that match `patterns` to `queue`; returns how many."""
    target = prefixed(prefix, queue)
    replayed, after = 0, 0
    connection = await aio_pika.connect(amqp_url)
    async with connection:
        channel = await connection.channel(publisher_confirms=True)
        await channel.declare_queue(target, passive=True)  # the consumer must have declared it (started once)
        while True:
            async with db.transaction() as session:
                rows = (await session.execute(text(
                    "SELECT seq, type, envelope::text AS body, headers FROM outbox "
                    "WHERE created_at >= :since AND seq > :after ORDER BY seq LIMIT :batch"),
                    {"since": since, "after": after, "batch": batch})).all()
            if not rows:
                return replayed
            for row in rows:
                after = row.seq
                if not any(matches(pattern, row.type) for pattern in patterns):
                    continue
                await channel.default_exchange.publish(
                    aio_pika.Message(row.body.encode(), headers=dict(row.headers or {}),
                                     content_type="application/json", type=row.type,
                                     delivery_mode=aio_pika.DeliveryMode.PERSISTENT),
                    routing_key=target)
                replayed += 1
