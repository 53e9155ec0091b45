"""How long a genuine "I pinned it" takes while another creator's account floods the upload routes with the largest
screenshots Pinbid accepts (40 megapixels in 5 MB), for bids that do not exist. Served over real sockets by uvicorn,
so the uploads stream at once as they would from many browsers; the flood starts first, and `after` seconds later
(its bodies have arrived) the creator's genuine "I pinned it" arrive at `rate` per second (an open loop: each
counted from when it was due). The same-run anchor is the same genuine load with no flood, printed beside it.

Run: `uv run python services/social/benchmarks/upload_contention.py [flood, 30] [rounds, 3] [after, 3.0] [rate, 2]`"""

import asyncio
import io
import statistics
import sys
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
from PIL import Image
from pinbid_kit import instagram_rules as ig
from pinbid_kit.envelope import Envelope
from pinbid_kit.events import EventData
from pinbid_kit.events.identity import UserRegistered
from pinbid_kit.events.marketplace import BidApproved, BidAwarded, CommentApproved, SlotCreated

sys.path.insert(0, str(Path(__file__).parent))
from _setup import service  # noqa: E402
from bench_screenshot import encoded, screen_like  # noqa: E402
from pinbid_testing import free_port, serving  # noqa: E402
from posts_latency import connect  # noqa: E402


async def deliver(svc, data: EventData) -> None:
    await svc.consumers.dispatch(Envelope(type=data.event_type, source="bench", data=data.payload()), {})


async def person(svc, role: str, handle: str | None) -> uuid.UUID:
    user_id = uuid.uuid4()
    await deliver(svc, UserRegistered(user_id=user_id, email=f"{user_id.hex[:8]}@example.com", name=handle or "B",
                                      role=role, instagram_handle=handle))
    return user_id


def small_png() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (270, 480), (250, 250, 250)).save(out, "PNG")
    return out.getvalue()


async def placements(svc, http, creator, buyer, headers, count: int) -> list[uuid.UUID]:
    """`count` paid placements on the creator's post, each with its comment posted for the creator to pin in the app."""
    await svc.state["pin_login"].set_method(creator, "MANUAL")
    post = (await http.get("/instagram/posts", headers=headers)).json()[0]["id"]
    slot = uuid.uuid4()
    await deliver(svc, SlotCreated(slot_id=slot, creator_id=creator, post_id=post, title="Bench", category="food",
                                   min_bid_cents=2500, auction_end=datetime.now(UTC) + timedelta(days=1),
                                   duration_days=7))
    bids = []
    for n in range(count):
        bid = uuid.uuid4()
        await deliver(svc, BidApproved(bid_id=bid, slot_id=slot, slot_title="Bench", creator_id=creator, buyer_id=buyer,
                                       final_price_cents=4000))
        await deliver(svc, BidAwarded(bid_id=bid, slot_id=slot, creator_id=creator, buyer_id=buyer, buyer_name="Leo",
                                      business_name="Northwind", post_id=post, comment_id=None,
                                      comment_text=f"Round {n}", final_price_cents=4000, duration_days=7))
        await deliver(svc, CommentApproved(bid_id=bid, slot_id=slot, creator_id=creator, buyer_id=buyer,
                                           comment_id=None, text=ig.disclosed(f"Round {n}", "@northwind"),
                                           approved_at=datetime.now(UTC)))
        posted = await http.put(f"/influencer/pin-comment/{bid}", headers=headers)
        assert posted.status_code == 200, posted.text
        bids.append(bid)
    return bids


async def confirm(http, headers, bid, data: bytes) -> tuple[float, int]:
    start = time.perf_counter()
    response = await http.post(f"/influencer/pin-comment/{bid}/confirm", headers=headers,
                               files={"screenshot": ("shot.png", data, "image/png")})
    return time.perf_counter() - start, response.status_code


async def open_loop(http, headers, bids: list[uuid.UUID], rate: float) -> list[float]:
    """One "I pinned it" due every 1/`rate` seconds, each for its own placement, whatever the earlier ones are
    doing; each one's time is counted from when it was due (a late start is the queue people would meet)."""
    start = time.perf_counter()

    async def one(n: int, bid: uuid.UUID) -> float:
        due = start + n / rate
        await asyncio.sleep(max(0.0, due - time.perf_counter()))
        response = await http.post(f"/influencer/pin-comment/{bid}/confirm", headers=headers,
                                   files={"screenshot": ("shot.png", small_png(), "image/png")})
        assert response.status_code == 200, response.text
        return time.perf_counter() - due

    return list(await asyncio.gather(*(one(n, bid) for n, bid in enumerate(bids))))


def ms(values: list[float]) -> str:
    ordered = sorted(values)
    return f"p50 {statistics.median(ordered) * 1000:.0f} ms, max {ordered[-1] * 1000:.0f} ms"


async def main(flood: int, rounds: int, after: float, rate: float = 2.0, each: int = 8) -> None:
    large = encoded(screen_like(), "PNG")
    port = free_port()
    async with service() as (svc, signer, _clock), serving(svc.app, port):
        creator, buyer = await person(svc, "INFLUENCER", "maya.makes"), await person(svc, "BUYER", None)
        flooder = await person(svc, "INFLUENCER", "flood.er")
        await connect(svc, creator)
        mine = {"Authorization": f"Bearer {signer.sign(creator, 'INFLUENCER', 0)}"}
        theirs = {"Authorization": f"Bearer {signer.sign(flooder, 'INFLUENCER', 0)}"}
        limits = httpx.Limits(max_connections=flood + each + 10)
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=600, limits=limits) as http:
            bids = await placements(svc, http, creator, buyer, mine, 2 * rounds * each)
            alone, flooded = [], []
            for n in range(rounds):
                mine_now = bids[2 * n * each:(2 * n + 2) * each]
                alone += await open_loop(http, mine, mine_now[:each], rate)  # the anchor: the same load, no flood
                start = time.perf_counter()
                floods = [asyncio.create_task(confirm(http, theirs, uuid.uuid4(), large)) for _ in range(flood)]
                await asyncio.sleep(after)
                flooded += await open_loop(http, mine, mine_now[each:], rate)
                answers = await asyncio.gather(*floods)
                assert {code for _, code in answers} == {404}, answers
                print(f"round {n + 1}: {each} genuine \"I pinned it\" at {rate:g}/s alone: {ms(alone[-each:])}; "
                      f"the same from {after:.1f} s into {flood} uploads of {len(large) / 2**20:.1f} MiB for "
                      f"made-up bids: {ms(flooded[-each:])} (the flood answered 404 within "
                      f"{time.perf_counter() - start:.1f} s)", flush=True)
    print(f"all rounds: alone {ms(alone)}; under the flood {ms(flooded)}")


if __name__ == "__main__":
    args = sys.argv[1:]
    asyncio.run(main(int(args[0]) if args else 30, int(args[1]) if len(args) > 1 else 3,
                     float(args[2]) if len(args) > 2 else 3.0, float(args[3]) if len(args) > 3 else 2.0))
