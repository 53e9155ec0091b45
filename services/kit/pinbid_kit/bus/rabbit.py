import asyncio
import logging
import uuid
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any

import aio_pika
from aio_pika import ExchangeType
from faststream.middlewares import AckPolicy
from faststream.rabbit import Channel, QueueType, RabbitBroker, RabbitExchange, RabbitMessage, RabbitQueue
from faststream.rabbit.opentelemetry import RabbitTelemetryMiddleware

from ..envelope import Envelope
from ..telemetry import context_of, exporting
from .base import Handler
from .broadcasts import Broadcasts

log = logging.getLogger("pinbid.bus")

EXCHANGE = "pinbid.events"
DEAD_LETTER_EXCHANGE = "pinbid.dead-letter"


async def _undecoded(message: RabbitMessage) -> RabbitMessage:
    """The subscriber's decoder: hands the handler the message itself, so its body is parsed once (as the
    envelope) instead of first into a copy nobody reads."""
    return message


def prefixed(prefix: str, name: str) -> str:
    """An exchange or queue name of the deployment named by `prefix` (BUS_PREFIX); empty keeps the name."""
    return f"{prefix}.{name}" if prefix else name


class RabbitBus:
    """RabbitMQ through FastStream. Durable topic exchange `pinbid.events`; one durable quorum queue per
    consuming service, bound to the event types it handles; a failed message is nacked (never acked)
    and redelivered until `x-delivery-limit`, then dead-lettered to `<queue>.dlq`.

    `prefix` (e.g. "staging") is put before every exchange and queue name, so deployments sharing a broker
    and vhost never see each other's events; empty keeps the plain names. `prefetch` bounds the messages
    handled at once by each subscription (aio-pika runs every delivered message's handler concurrently)."""

    def __init__(self, url: str, *, max_deliveries: int = 5, retry_base_seconds: float = 0.1, prefix: str = "",
                 prefetch: int = 8):
        self.url = url
        self.max_deliveries = max_deliveries
        self.retry_base_seconds = retry_base_seconds
        self.prefix = prefix
        # publish and process spans, with the trace context carried in the message headers; without an exporter
        # nobody reads a span, and the middleware would cost every publish and delivery for nothing
        # reconnect_interval: a broker back from an outage is found within a second, not five
        # apply_types=False: the one handler takes the message as its one argument (the decoder below), so
        # FastDepends' per-delivery model (arguments solved and validated against the signature) has nothing to do
        middlewares = [RabbitTelemetryMiddleware()] if exporting() else []
        self.broker = RabbitBroker(url, logger=None, graceful_timeout=10, middlewares=middlewares,
                                   default_channel=Channel(prefetch_count=prefetch), reconnect_interval=1.0,
                                   apply_types=False)
        self.exchange = RabbitExchange(self._name(EXCHANGE), type=ExchangeType.TOPIC, durable=True)
        self.dead_letter_exchange = RabbitExchange(self._name(DEAD_LETTER_EXCHANGE), type=ExchangeType.DIRECT,
                                                   durable=True)
        self._bindings: list[tuple[RabbitQueue, list[str]]] = []
        self._dead_letter_queues: list[str] = []
        self._monitor: aio_pika.abc.AbstractRobustConnection | None = None  # for queue depths only
        self._events: aio_pika.abc.AbstractExchange | None = None  # published on directly once started (_publish)
        self._unacknowledged = Broadcasts(url, self.exchange.name)  # broadcasts whose handler never fails

    def _name(self, name: str) -> str:
        return prefixed(self.prefix, name)

    def _register(self, queue: RabbitQueue, patterns: list[str], handler: Handler,
                  ack_policy: AckPolicy = AckPolicy.NACK_ON_ERROR) -> None:
        retry_base = self.retry_base_seconds

        # the message comes as the one argument (the decoder above), not injected as context: FastStream solves
        # an injected message in a worker thread, a thread hop for every delivery
        @self.broker.subscriber(queue, self.exchange, ack_policy=ack_policy, decoder=_undecoded)
        async def consume(message: Any) -> None:
            headers = {k: str(v) for k, v in (message.headers or {}).items()}
            envelope = Envelope.from_json(message.body)
            try:
                await handler(envelope, headers)
            except Exception:
                deliveries = int(headers.get("x-delivery-count", "0"))
                log.warning("handler failed for %s (%s), delivery %d", envelope.type, envelope.id, deliveries + 1,
                            exc_info=True)
                await asyncio.sleep(min(retry_base * 2**deliveries, 5.0))
                raise

        self._bindings.append((queue, patterns))

    def subscribe(self, queue: str, patterns: list[str], handler: Handler) -> None:
        queue = self._name(queue)
        rabbit_queue = RabbitQueue(
            queue,
            queue_type=QueueType.QUORUM,
            durable=True,
            routing_key=patterns[0],
            arguments={
                "x-delivery-limit": self.max_deliveries - 1,
                "x-dead-letter-exchange": self.dead_letter_exchange.name,
                "x-dead-letter-routing-key": queue,
            },
        )
        self._register(rabbit_queue, patterns, handler)
        self._dead_letter_queues.append(queue)

    def subscribe_broadcast(self, patterns: list[str], handler: Handler, *, never_fails: bool = False) -> None:
        name = self._name(f"broadcast.{uuid.uuid4().hex[:12]}")
        if never_fails and not exporting():  # with an exporter, FastStream's middleware makes its process spans
            self._unacknowledged.add(name, patterns, handler)
            return
        rabbit_queue = RabbitQueue(name, durable=False, exclusive=True, auto_delete=True, routing_key=patterns[0])
        # a handler that never fails has nothing to retry, and the exclusive queue dies with the connection: the
        # broker may count each delivery done as it sends it (no acknowledgement to write back for every one)
        ack_policy = AckPolicy.ACK_FIRST if never_fails else AckPolicy.NACK_ON_ERROR
        self._register(rabbit_queue, patterns, handler, ack_policy)

    async def start(self) -> None:
        await self.broker.start()
        exchange = await self.broker.declare_exchange(self.exchange)
        # the exchange FastStream's own publish uses (its channel confirms each publish); with an exporter, publishes
        # go through FastStream for its telemetry middleware's publish spans
        self._events = None if exporting() else exchange
        dead_letters = await self.broker.declare_exchange(self.dead_letter_exchange)
        for name in self._dead_letter_queues:
            dlq = await self.broker.declare_queue(RabbitQueue(f"{name}.dlq", durable=True))
            await dlq.bind(dead_letters, routing_key=name)
        for queue, patterns in self._bindings:
            declared = await self.broker.declare_queue(queue)
            for pattern in patterns[1:]:
                await declared.bind(exchange, routing_key=pattern)
        await self._unacknowledged.start()

    async def stop(self) -> None:
        self._events = None
        await self._unacknowledged.stop()
        await self.broker.stop()
        if self._monitor is not None:
            await self._monitor.close()
            self._monitor = None

    async def dead_letter_depths(self) -> dict[str, int]:
        """A passive declare answers a queue's message count without touching its messages."""
        if not self._dead_letter_queues:
            return {}
        if self._monitor is None:
            self._monitor = await aio_pika.connect_robust(self.url)
        async with self._monitor.channel() as channel:
            depths = {}
            for name in self._dead_letter_queues:
                dlq = await channel.declare_queue(f"{name}.dlq", passive=True)
                depths[name] = dlq.declaration_result.message_count
            return depths

    async def ping(self) -> bool:
        try:
            return await self.broker.ping(timeout=2)
        except Exception:
            return False

    async def publish(self, envelope: Envelope, headers: dict[str, str]) -> None:
        with context_of(headers):  # the middleware's publish span joins the trace that produced the event
            await self._publish(envelope, headers)

    async def publish_batch(self, items: list[tuple[Envelope, dict[str, str]]]) -> list[Exception | None]:
        """All at once on the channel, in order, each awaiting its own confirm: a backlog goes out at the
        broker's pace instead of one round trip per event."""
        outcomes = await asyncio.gather(*(self.publish(e, h) for e, h in items), return_exceptions=True)
        return [o if isinstance(o, Exception) else None for o in outcomes]

    async def _publish(self, envelope: Envelope, headers: dict[str, str]) -> None:
        if self._events is not None:
            # aio-pika's publish is what FastStream's ends in; the command, middleware chain and encoder around it
            # cost about 20 of a publish's 170 µs of CPU (services/kit/benchmarks/publish_cost.py)
            await self._events.publish(aio_pika.Message(
                envelope.to_json(), headers=headers, content_type="application/json",
                delivery_mode=aio_pika.DeliveryMode.PERSISTENT, message_id=str(envelope.id),
                correlation_id=envelope.correlation_id or str(uuid.uuid4()), type=envelope.type,
                timestamp=datetime.now(UTC)), routing_key=envelope.routing_key, mandatory=False, timeout=10)
            return
        await self.broker.publish(
            envelope.to_json(),
            exchange=self.exchange,
            routing_key=envelope.routing_key,
            mandatory=False,
            persist=True,
            headers=headers,
            content_type="application/json",
            message_id=str(envelope.id),
            correlation_id=envelope.correlation_id,
            message_type=envelope.type,
            timeout=10,
        )


async def delete_queues(url: str, queue: str) -> None:
    """Delete a service's queue and its dead-letter queue (tests and benchmarks clean up after themselves)."""
    connection = await aio_pika.connect(url)
    async with connection:
        channel = await connection.channel()
        for name in (queue, f"{queue}.dlq"):
            await channel.queue_delete(name)


async def forget_deployment(url: str, prefix: str, queues: Iterable[str] = ()) -> None:
    """Delete what the deployment named by `prefix` made on the broker: the given services' queues (each with its
    dead-letter queue) and its two exchanges (tests and benchmarks clean up after themselves)."""
    for queue in queues:
        await delete_queues(url, prefixed(prefix, queue))
    connection = await aio_pika.connect(url)
    async with connection:
        channel = await connection.channel()
        for exchange in (EXCHANGE, DEAD_LETTER_EXCHANGE):
            await channel.exchange_delete(prefixed(prefix, exchange))
