"""CPU per delivery of the kit's RabbitMQ bus, against a real broker (127.0.0.1:5672, guest/guest):

  kit        N events already waiting in a service queue, taken by `RabbitBus.subscribe` with a handler that does
             nothing: the process's CPU from the start of consuming to the last delivery, per delivery
  aio-pika   the same N taken with aio-pika directly (the envelope parsed, each acknowledged): the floor
  broadcast  N events published and taken on a broadcast queue in this one process (publishing included:
             compare with `broadcast-never-fails`, not with the others)
  broadcast-never-fails   the same, `subscribe_broadcast(..., never_fails=True)`

    uv run python services/kit/benchmarks/delivery_cost.py kit 5000"""

import asyncio
import sys
import time
import uuid

import aio_pika
from pinbid_kit.bus.rabbit import RabbitBus, forget_deployment
from pinbid_kit.envelope import Envelope

URL = "amqp://guest:guest@127.0.0.1:5672/"
QUEUE = "delivery-cost"
TYPE = "marketplace.slot.updated.v1"


def events(n: int) -> list[tuple[Envelope, dict[str, str]]]:
    data = {"slotId": str(uuid.uuid4()), "currentBidCents": 1200, "bidCount": 3, "status": "ACTIVE"}
    return [(Envelope(type=TYPE, source="bench", data=data), {}) for _ in range(n)]


async def publish(prefix: str, items: list[tuple[Envelope, dict[str, str]]]) -> None:
    publisher = RabbitBus(URL, prefix=prefix)
    await publisher.start()
    for i in range(0, len(items), 500):
        await publisher.publish_batch(items[i:i + 500])
    await publisher.stop()


class Counted:
    def __init__(self, n: int):
        self.n, self.got, self.done = n, 0, asyncio.Event()

    async def handler(self, envelope: Envelope, headers: dict[str, str]) -> None:
        self.got += 1
        if self.got == self.n:
            self.done.set()


async def waiting_in_queue(prefix: str, n: int) -> None:
    """Declare the queue (a consumer started and stopped), then fill it."""
    declaring = RabbitBus(URL, prefix=prefix)
    declaring.subscribe(QUEUE, [TYPE], Counted(0).handler)
    await declaring.start()
    await declaring.stop()
    await publish(prefix, events(n))


async def kit(prefix: str, n: int) -> float:
    await waiting_in_queue(prefix, n)
    counted = Counted(n)
    bus = RabbitBus(URL, prefix=prefix, prefetch=32)
    bus.subscribe(QUEUE, [TYPE], counted.handler)
    started = time.process_time()
    await bus.start()
    await asyncio.wait_for(counted.done.wait(), 120)
    spent = time.process_time() - started
    await bus.stop()
    return spent


async def plain(prefix: str, n: int) -> float:
    await waiting_in_queue(prefix, n)
    counted = Counted(n)
    started = time.process_time()
    connection = await aio_pika.connect_robust(URL)
    channel = await connection.channel()
    await channel.set_qos(prefetch_count=32)
    queue = await channel.get_queue(f"{prefix}.{QUEUE}", ensure=False)

    async def on_message(message: aio_pika.abc.AbstractIncomingMessage) -> None:
        headers = {k: str(v) for k, v in (message.headers or {}).items()}
        await counted.handler(Envelope.from_json(message.body), headers)
        await message.ack()

    await queue.consume(on_message)
    await asyncio.wait_for(counted.done.wait(), 120)
    spent = time.process_time() - started
    await connection.close()
    return spent


async def broadcast(prefix: str, n: int, *, never_fails: bool) -> float:
    counted = Counted(n)
    bus = RabbitBus(URL, prefix=prefix, prefetch=32)
    bus.subscribe_broadcast([TYPE], counted.handler, never_fails=never_fails)
    await bus.start()
    items = events(n)
    started = time.process_time()
    await publish(prefix, items)
    await asyncio.wait_for(counted.done.wait(), 120)
    spent = time.process_time() - started
    await bus.stop()
    return spent


async def main(mode: str, n: int) -> None:
    prefix = f"cost{uuid.uuid4().hex[:8]}"
    runs = {"kit": lambda: kit(prefix, n), "aio-pika": lambda: plain(prefix, n),
            "broadcast": lambda: broadcast(prefix, n, never_fails=False),
            "broadcast-never-fails": lambda: broadcast(prefix, n, never_fails=True)}
    try:
        spent = await runs[mode]()
    finally:
        await forget_deployment(URL, prefix, [QUEUE])
    print(f"{mode}: {n} deliveries, {1e6 * spent / n:.0f} µs of CPU each")


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 5000))
