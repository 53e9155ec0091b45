"""The listing's total is exact whichever way it is counted: by count(*) over the filter, or (filtered by nothing
but a category) from the open-slot counts the slots trigger keeps, less the ended slots not yet closed."""

from datetime import timedelta

from pinbid_marketplace import open_counts
from sqlalchemy import text


async def total(world, headers, query: str = "") -> int:
    response = await world.http.get(f"/marketplace/slots?limit=1{query}", headers=headers)
    assert response.status_code == 200, response.text
    return response.json()["total"]


async def counted_by_hand(world, category: str | None = None) -> int:
    async with world.service.db.transaction() as session:
        return await session.scalar(text(
            "SELECT count(*) FROM slots WHERE status = 'ACTIVE' AND auction_end > :now "
            "AND (CAST(:category AS text) IS NULL OR category = :category)"),
            {"now": world.clock.now, "category": category})


async def test_totals_follow_slots_opening_closing_and_ending_before_the_closer_runs(world):
    creator, posts = await world.creator(posts=6)
    buyer = await world.buyer()
    slots = [await world.slot(creator, posts[n], category="food" if n % 2 else "tech", buyNowPrice=500,
                              auctionEnd=(world.clock.now + timedelta(hours=2 + 24 * n)).isoformat())
             for n in range(6)]
    assert (await total(world, buyer), await total(world, buyer, "&category=food")) == (6, 3)

    await world.http.post(f"/influencer/pin-slots/{slots[0]['id']}/end-auction", headers=creator)  # tech closes
    assert (await world.http.post("/buyer/buy-now", json={"pinSlotId": slots[1]["id"]},
                                  headers=buyer)).status_code == 201  # food closes
    assert (await total(world, buyer), await total(world, buyer, "&category=food")) == (4, 2)

    world.clock.advance(hours=51)  # slot 2 (tech) has ended; the closer has not run yet
    assert await total(world, buyer) == await counted_by_hand(world) == 3
    assert await total(world, buyer, "&category=tech") == await counted_by_hand(world, "tech") == 1
    assert await total(world, buyer, "&category=food&verified=true") == await counted_by_hand(world, "food") == 2

    assert await world.service.state["closer"].run_once() == 1
    await open_counts.fold(world.service.db)
    async with world.service.db.transaction() as session:
        rows = dict((await session.execute(text("SELECT category, open FROM open_slot_counts"))).tuples().all())
    assert rows == {"food": 2, "tech": 1}
    assert (await total(world, buyer), await total(world, buyer, "&category=all")) == (3, 3)
