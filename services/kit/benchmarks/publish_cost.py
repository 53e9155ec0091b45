"""CPU per published event of the kit's RabbitMQ bus, against a real broker (127.0.0.1:5672, guest/guest): N events
published three at a time (an accepted bid's `slot.updated`, `bid.placed`, `bid.outbid`, as the relay hands them
over), each batch's confirms awaited together; the process's CPU per event.

  kit          `RabbitBus.publish_batch`: aio-pika's exchange directly (no exporter set)
  faststream   the same through FastStream's `broker.publish` (the path kept for an exporter's publish spans)

    uv run python services/kit/benchmarks/publish_cost.py kit 3000"""

import asyncio
import sys
import time
import uuid

from pinbid_kit.bus.rabbit import RabbitBus, forget_deployment
from pinbid_kit.envelope import Envelope

URL = "amqp://guest:guest@127.0.0.1:5672/"
TYPE = "marketplace.slot.updated.v1"
AT_ONCE = 3


async def main(mode: str, n: int) -> None:
    prefix = f"pubcost{uuid.uuid4().hex[:8]}"
    bus = RabbitBus(URL, prefix=prefix)
    await bus.start()
    if mode == "faststream":
        bus._events = None
    data = {"slotId": str(uuid.uuid4()), "currentBidCents": 1200, "bidCount": 3, "status": "ACTIVE"}
    traced = {"traceparent": "00-" + "1" * 32 + "-" + "2" * 16 + "-01"}
    items = [(Envelope(type=TYPE, source="bench", data=data), traced) for _ in range(n)]
    try:
        started = time.process_time()
        for i in range(0, n, AT_ONCE):
            outcomes = await bus.publish_batch(items[i:i + AT_ONCE])
            assert outcomes == [None] * len(outcomes), outcomes
        spent = time.process_time() - started
    finally:
        await bus.stop()
        await forget_deployment(URL, prefix)
    print(f"{mode}: {n} events published {AT_ONCE} at a time, {1e6 * spent / n:.0f} µs of CPU each")


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 3000))
