"""CPU per bid, one bid at a time, inside a distributed run: N accepted bids on a fresh slot (each above the price
the last answer told), then N refused as too low, through the gateway; each process's CPU over them from /proc (as
hot_rates.py reads it, each process's idle work over the same seconds included). Without the open loop's queue and
its share of refused bids, the figure to compare two runs by, side by side.

  uv run python services/marketplace/benchmarks/bid_cpu.py --api http://127.0.0.1:8000/api \\
      --db postgresql://postgres@127.0.0.1:5432/pinbid_marketplace --var var [--bids 400]"""

import argparse
import asyncio
from collections import Counter
from pathlib import Path

import aiohttp
import httpx
from hot_rates import CpuMeter
from hot_slot import Bidder, Seen, new_hot_slot, register, register_buyers

BUYERS = 20


def per_bid(before: dict[str, float], after: dict[str, float], n: int) -> str:
    return ", ".join(f"{name} {(after[name] - before[name]) * 1000 / n:.2f}" for name in after
                     if after[name] - before[name] >= 0.01)


async def main(args) -> None:
    async with httpx.AsyncClient(base_url=args.api, timeout=30) as http:
        creator = await register(http, "INFLUENCER", 0)
        seen = Seen()  # each bids just above the last answer's price: every bid is accepted
        bidders = [Bidder(token, seen) for token in await register_buyers(http, BUYERS)]
        slot_id = await new_hot_slot(http, args.db, creator)
    meter = CpuMeter(args.var)
    async with aiohttp.ClientSession(args.api + "/") as session:
        await meter.settled()
        statuses: Counter = Counter()
        before = meter.read()
        for i in range(args.bids):
            await bidders[i % BUYERS].bid(session, slot_id, statuses)
        await meter.settled()  # the accepted bids' events handled
        after = meter.read()
        print(f"accepted {dict(statuses)}; CPU ms a bid: {per_bid(before, after, args.bids)}")
        statuses = Counter()
        before = meter.read()
        for i in range(args.bids):
            async with session.post("buyer/bids", json={"pinSlotId": slot_id, "amount": 1.5},
                                    headers=bidders[i % BUYERS].headers) as response:
                statuses[response.status] += 1
                await response.read()
        after = meter.read()
        print(f"refused  {dict(statuses)}; CPU ms a bid: {per_bid(before, after, args.bids)}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--api", default="http://127.0.0.1:8000/api")
    parser.add_argument("--db", default="postgresql://postgres@127.0.0.1:5432/pinbid_marketplace")
    parser.add_argument("--var", type=Path, required=True, help="the run's var folder (its run/*.pid)")
    parser.add_argument("--bids", type=int, default=400)
    asyncio.run(main(parser.parse_args()))
