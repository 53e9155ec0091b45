"""Broadcast queues whose handler never fails (the gateway's live hub), consumed with aio-pika directly.

Such a delivery has nothing to acknowledge, retry or dead-letter, and its exclusive queue dies with its connection:
what FastStream adds around a delivery (its context scopes, middlewares, parser and logging, about 45 µs of CPU
each, `services/kit/benchmarks/delivery_cost.py`) does nothing for it, and the live hub takes several deliveries for
each accepted bid. The robust connection declares the queues, their bindings and consumers again after a reconnect,
as FastStream's would."""

import logging
from dataclasses import dataclass

import aio_pika

from ..envelope import Envelope
from .base import Handler

log = logging.getLogger("pinbid.bus")


@dataclass(frozen=True)
class _Broadcast:
    queue: str
    patterns: list[str]
    handler: Handler


class Broadcasts:
    def __init__(self, url: str, exchange: str):
        self.url = url
        self.exchange = exchange
        self._wanted: list[_Broadcast] = []
        self._connection: aio_pika.abc.AbstractRobustConnection | None = None

    def add(self, queue: str, patterns: list[str], handler: Handler) -> None:
        self._wanted.append(_Broadcast(queue, patterns, handler))

    async def start(self) -> None:
        """After the exchange is declared."""
        if not self._wanted:
            return
        self._connection = await aio_pika.connect_robust(self.url, reconnect_interval=1.0)
        channel = await self._connection.channel()
        for wanted in self._wanted:
            queue = await channel.declare_queue(wanted.queue, durable=False, exclusive=True, auto_delete=True)
            for pattern in wanted.patterns:
                await queue.bind(self.exchange, routing_key=pattern)
            await queue.consume(_consumer(wanted.handler), no_ack=True)  # counted done as it is sent

    async def stop(self) -> None:
        if self._connection is not None:
            await self._connection.close()
            self._connection = None


def _consumer(handler: Handler):
    async def consume(message: aio_pika.abc.AbstractIncomingMessage) -> None:
        try:
            await handler(Envelope.from_json(message.body), {k: str(v) for k, v in (message.headers or {}).items()})
        except Exception:  # the handler's own promise broken: nothing would take the delivery again
            log.exception("a broadcast handler that never fails failed on %s", message.message_id)

    return consume
