"""What an accepted bid costs after its answer: the events the marketplace's relay publishes for it (slot.updated,
bid.placed to the creator, bid.outbid to the brand that lost the lead) put on the run's bus at a constant rate,
without the HTTP part, and the CPU each process of the run spends on them (identity's notices and their
notification.created events, social's copy of the slot, the gateway's live hub), read from /proc as hot_rates.py
reads it. The accepted bid's own path (gateway hop, bidding, the marketplace's relay) is hot_rates.py's.

Checks: every bid.placed became one notice for the creator and every bid.outbid one for the brand (identity's
database), and social's copy of the slot shows the last bid count.

Inside a distributed run (the bus prefix is the run's database prefix; --var is its var folder):
  uv run python services/marketplace/benchmarks/after_answer.py --api http://127.0.0.1:8000/api \\
      --pg postgresql://postgres@127.0.0.1:5432 --prefix pinbid --amqp amqp://guest:guest@127.0.0.1:5672/ \\
      --var var [--bids 1500] [--rate 50]"""

import argparse
import asyncio
import sys
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import psycopg
from pinbid_kit.bus.rabbit import RabbitBus
from pinbid_kit.envelope import Envelope
from pinbid_kit.events import marketplace as m

sys.path.insert(0, str(Path(__file__).parent))
from hot_rates import CpuMeter  # noqa: E402
from hot_slot import register  # noqa: E402


def envelopes(n: int, slot_id: uuid.UUID, creator: uuid.UUID, buyers: list[uuid.UUID]) -> list[Envelope]:
    """Bid i's three events, as the marketplace writes them for an accepted bid that takes the lead."""
    end = datetime.now(UTC) + timedelta(days=1)
    out = []
    for i in range(n):
        buyer, previous = buyers[i % len(buyers)], buyers[(i - 1) % len(buyers)]
        cents = 1000 + 10 * i
        correlation = uuid.uuid4().hex
        for data in (
            m.SlotUpdated(slot_id=slot_id, creator_id=creator, post_id="bench-post", status="ACTIVE",
                          current_bid_cents=cents, bid_count=i + 1, bidder_count=len(buyers), auction_end=end),
            m.BidPlaced(bid_id=uuid.uuid4(), slot_id=slot_id, slot_title="Hot slot", creator_id=creator,
                        buyer_id=buyer, buyer_name="Bench Buyer", current_bid_cents=cents),
            m.BidOutbid(bid_id=uuid.uuid4(), slot_id=slot_id, slot_title="Hot slot", buyer_id=previous,
                        current_bid_cents=cents, auction_end=end),
        ):
            out.append(Envelope(type=data.event_type, source="marketplace", correlation_id=correlation,
                                data=data.payload()))
    return out


async def main(args) -> dict:
    async with httpx.AsyncClient(base_url=args.api, timeout=30) as http:
        creator = uuid.UUID((await register(http, "INFLUENCER", 0))[1])
        buyers = [uuid.UUID((await register(http, "BUYER", i + 1))[1]) for i in range(2)]
    slot_id = uuid.uuid4()
    events = envelopes(args.bids, slot_id, creator, buyers)
    bus = RabbitBus(args.amqp, prefix=args.prefix)
    await bus.start()
    meter = CpuMeter(Path(args.var))
    await meter.settled()
    before = meter.read()
    started = time.perf_counter()
    try:
        for i in range(args.bids):
            due = started + i / args.rate
            if due > time.perf_counter():
                await asyncio.sleep(due - time.perf_counter())
            await bus.publish_batch([(e, {}) for e in events[3 * i:3 * i + 3]])
    finally:
        await bus.stop()
    notices = await wait_for_notices(args, creator, buyers, args.bids)
    await meter.settled()
    after = meter.read()
    per_bid = {name: (after[name] - before[name]) * 1000 / args.bids for name in meter.pids}
    with psycopg.connect(f"{args.pg}/{args.prefix}_social") as conn:
        bid_count = conn.execute("SELECT bid_count FROM slots WHERE slot_id = %s", (slot_id,)).fetchone()
    checks = {"one notice per bid.placed and per bid.outbid": notices == 2 * args.bids,
              "social's slot shows the last bid count": bid_count is not None and bid_count[0] == args.bids}
    print(f"{args.bids} accepted bids' events at {args.rate:.0f}/s; CPU ms a bid after its answer: "
          + ", ".join(f"{name} {ms:.2f}" for name, ms in per_bid.items() if ms >= 0.01)
          + f"; services {sum(per_bid.values()):.2f}")
    for name, ok in checks.items():
        print(f"  {'OK  ' if ok else 'FAIL'} {name}")
    return {"cpu_ms_per_bid": per_bid, "checks": checks}


async def wait_for_notices(args, creator: uuid.UUID, buyers: list[uuid.UUID], bids: int) -> int:
    deadline = time.monotonic() + 120
    count = 0
    while time.monotonic() < deadline:
        with psycopg.connect(f"{args.pg}/{args.prefix}_identity") as conn:
            count = conn.execute("SELECT count(*) FROM notifications WHERE user_id = ANY(%s)",
                                 ([creator, *buyers],)).fetchone()[0]
        if count >= 2 * bids:
            return count
        await asyncio.sleep(0.5)
    return count


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--api", required=True)
    p.add_argument("--pg", default="postgresql://postgres@127.0.0.1:5432")
    p.add_argument("--prefix", required=True, help="the run's database prefix (its bus prefix too)")
    p.add_argument("--amqp", default="amqp://guest:guest@127.0.0.1:5672/")
    p.add_argument("--var", required=True, help="the run's var folder (its run/*.pid files)")
    p.add_argument("--bids", type=int, default=1500)
    p.add_argument("--rate", type=float, default=50.0)
    return p


if __name__ == "__main__":
    result = asyncio.run(main(parser().parse_args()))
    sys.exit(0 if all(result["checks"].values()) else 1)
