"""Operators' view of a service's dead-letter queue `<queue>.dlq` on RabbitMQ: list what is there, and
re-drive it into the service's own queue once the cause is fixed.

A replayed event goes to that one queue only (through the default exchange), with its own id, so the
service's inbox still skips any handler that had already handled it. The dead-letter copy is acknowledged
only after the broker confirmed the new publication: nothing is lost if a replay stops half way."""

from dataclasses import dataclass
from datetime import datetime

import aio_pika

from ..envelope import Envelope
from .rabbit import prefixed

_BROKER_HEADERS = ("x-death", "x-delivery-count", "x-first-death-exchange", "x-first-death-queue",
                   "x-first-death-reason", "x-last-death-exchange", "x-last-death-queue", "x-last-death-reason")


@dataclass(frozen=True)
class DeadLetter:
    event_id: str
    event_type: str
    occurred_at: datetime
    reason: str


def _reason(message: aio_pika.abc.AbstractIncomingMessage, max_deliveries: int | None) -> str:
    """Why, and after how many deliveries. x-death's count is how often the message was dead-lettered (1), not
    how often it was delivered; a quorum queue dead-letters at its delivery limit, which is the bus's setting."""
    deaths = (message.headers or {}).get("x-death") or []
    first = deaths[0] if deaths else {}
    if not first:
        return "unknown"
    reason = str(first.get("reason", "unknown"))
    if reason == "delivery_limit" and max_deliveries is not None:
        return f"{reason} after {max_deliveries} deliveries"
    return reason


async def list_dead_letters(url: str, queue: str, *, prefix: str = "", limit: int = 1000,
                            max_deliveries: int | None = None) -> list[DeadLetter]:
    """Reads up to `limit` dead letters without taking them: they go back when the channel closes."""
    found: list[DeadLetter] = []
    connection = await aio_pika.connect(url)
    async with connection:
        channel = await connection.channel()
        dlq = await channel.declare_queue(f"{prefixed(prefix, queue)}.dlq", passive=True)
        while len(found) < limit:
            message = await dlq.get(no_ack=False, fail=False)
            if message is None:
                break
            envelope = Envelope.from_json(message.body)
            found.append(DeadLetter(str(envelope.id), envelope.type, envelope.occurred_at,
                                     _reason(message, max_deliveries)))
    return found


async def replay_dead_letters(url: str, queue: str, *, prefix: str = "", limit: int = 100_000) -> int:
    """Puts every dead letter of `queue` back on that queue; returns how many."""
    replayed = 0
    connection = await aio_pika.connect(url)
    async with connection:
        channel = await connection.channel(publisher_confirms=True)
        target = prefixed(prefix, queue)
        dlq = await channel.declare_queue(f"{prefixed(prefix, queue)}.dlq", passive=True)
        while replayed < limit:
            message = await dlq.get(no_ack=False, fail=False)
            if message is None:
                break
            envelope = Envelope.from_json(message.body)
            headers = {k: v for k, v in (message.headers or {}).items() if k not in _BROKER_HEADERS}
            await channel.default_exchange.publish(
                aio_pika.Message(message.body, headers=headers, content_type="application/json",
                                 message_id=str(envelope.id), correlation_id=message.correlation_id,
                                 type=envelope.type, delivery_mode=aio_pika.DeliveryMode.PERSISTENT),
                routing_key=target)
            await message.ack()
            replayed += 1
    return replayed
