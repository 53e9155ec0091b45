"""One price for everyone, through the API: the current bid is what the leader would pay if the auction closed
now, on the slot, the listing (its price sort and filter) and the events; the close charges exactly it; a bid's own
amount and maximum stay its own; open auctions written by the first rule show the new price after migration 0015."""

import asyncio

from alembic import command
from pinbid_kit.migrations import alembic_config, upgrade
from sqlalchemy import text


async def detail(world, slot, headers):
    return (await world.http.get(f"/marketplace/slots/{slot['id']}", headers=headers)).json()


async def end(world, creator, slot) -> dict:
    ended = await world.http.post(f"/influencer/pin-slots/{slot['id']}/end-auction", headers=creator)
    assert ended.status_code == 200, ended.text
    return ended.json()


async def closed_event(world, slot) -> dict:
    async with world.service.db.autocommit() as conn:
        return await conn.scalar(text(
            "SELECT envelope->'data' FROM outbox WHERE type = 'marketplace.auction.closed.v1' "
            "AND envelope->'data'->>'slotId' = :slot"), {"slot": slot["id"]})


async def test_a_single_bid_of_25_on_a_20_minimum_shows_20_and_sells_at_20(world):
    creator, posts = await world.creator(posts=1)
    slot = await world.slot(creator, posts[0], minBid=20)
    brand = await world.buyer("Solo")
    placed = await world.bid(brand, slot["id"], 25)
    assert placed.status_code == 201, placed.text
    assert (placed.json()["amount"], placed.json()["pinSlot"]["currentBid"]) == (25, 20)
    assert (await detail(world, slot, brand))["currentBid"] == 20
    listed = (await world.http.get("/marketplace/slots", headers=brand)).json()["slots"]
    assert [s["currentBid"] for s in listed] == [20]
    mine = (await world.http.get("/buyer/bids", headers=brand)).json()[0]
    assert (mine["amount"], mine["pinSlot"]["currentBid"]) == (25, 20)  # its own amount, and the price

    closed = await end(world, creator, slot)
    winner = (await world.http.get("/buyer/bids", headers=brand)).json()[0]
    assert (closed["currentBid"], winner["status"], winner["finalPrice"]) == (20, "PENDING_INFLUENCER_APPROVAL", 20)
    assert (await closed_event(world, slot))["finalPriceCents"] == 2000


async def test_12_50_against_14_with_automatic_bidding_to_25_shows_and_sells_at_12_50(world):
    creator, posts = await world.creator(posts=1)
    slot = await world.slot(creator, posts[0], minBid=10)
    a, b = await world.buyer("A"), await world.buyer("B")
    assert (await world.bid(a, slot["id"], 12.50)).status_code == 201
    placed = await world.bid(b, slot["id"], 14, autoBidEnabled=True, maxAutoBid=25)
    assert placed.status_code == 201, placed.text
    assert (placed.json()["status"], placed.json()["amount"], placed.json()["maxAutoBid"]) == ("ACTIVE", 14, 25)
    for who in (a, b, creator):
        assert (await detail(world, slot, who))["currentBid"] == 12.5
    creators_view = (await world.http.get("/influencer/pin-slots/active", headers=creator)).json()[0]
    assert creators_view["currentBid"] == 12.5
    assert [p["price"] for p in creators_view["priceHistory"]] == [10, 10, 12.5]  # the chart: one price too
    mine = (await world.http.get("/buyer/bids", headers=b)).json()[0]
    assert (mine["amount"], mine["maxAutoBid"], mine["autoBidEnabled"]) == (14, 25, True)  # "your maximum"
    async with world.service.db.autocommit() as conn:
        placed_event = await conn.scalar(text(
            "SELECT envelope->'data' FROM outbox WHERE type = 'marketplace.bid.placed.v1' "
            "AND envelope->'data'->>'bidId' = :bid"), {"bid": placed.json()["id"]})
    assert (placed_event["currentBidCents"], placed_event["amountCents"]) == (1250, 1400)

    closed = await end(world, creator, slot)
    winner = (await world.http.get("/buyer/bids", headers=b)).json()[0]
    assert (winner["id"], winner["status"], winner["finalPrice"], closed["currentBid"]) == (
        placed.json()["id"], "PENDING_INFLUENCER_APPROVAL", 12.5, 12.5)
    assert (await closed_event(world, slot))["finalPriceCents"] == 1250


async def test_the_closer_charges_the_price_shown(world):
    creator, posts = await world.creator(posts=2)
    slots = [await world.slot(creator, post, minBid=10) for post in posts]
    a, b = await world.buyer("A"), await world.buyer("B")
    await world.bid(a, slots[0]["id"], 30, autoBidEnabled=True, maxAutoBid=90)
    await world.bid(b, slots[0]["id"], 44)
    await world.bid(a, slots[1]["id"], 70)
    shown = [(await detail(world, s, a))["currentBid"] for s in slots]
    assert shown == [44, 10]
    world.clock.advance(days=3)
    assert await world.service.state["closer"].run_once() == 2
    charged = [(await closed_event(world, s))["finalPriceCents"] for s in slots]
    assert charged == [4400, 1000]
    assert [(await detail(world, s, a))["currentBid"] for s in slots] == shown


async def test_the_listing_sorts_and_filters_by_the_price_the_leader_would_pay(world):
    creator, posts = await world.creator(posts=3)
    brand, rival = await world.buyer("Brand"), await world.buyer("Rival")
    high_alone = await world.slot(creator, posts[0], minBid=15, title="Alone at a high bid")  # bid 90: price 15
    contested = await world.slot(creator, posts[1], minBid=10, title="Contested")  # 40 against 30: price 30
    await world.slot(creator, posts[2], minBid=20, title="No bids")  # price 20
    await world.bid(brand, high_alone["id"], 90)
    await world.bid(rival, contested["id"], 30)
    await world.bid(brand, contested["id"], 40)

    async def listing(**params):
        found = (await world.http.get("/marketplace/slots", params=params, headers=brand)).json()["slots"]
        return [(s["title"], s["currentBid"] if s["currentBid"] is not None else s["minBid"]) for s in found]

    assert await listing(sortBy="price-low") == [("Alone at a high bid", 15), ("No bids", 20), ("Contested", 30)]
    assert await listing(sortBy="price-high") == [("Contested", 30), ("No bids", 20), ("Alone at a high bid", 15)]
    assert await listing(sortBy="price-low", maxPrice=25) == [("Alone at a high bid", 15), ("No bids", 20)]
    assert await listing(sortBy="price-low", minPrice=25) == [("Contested", 30)]


async def test_cancelling_the_runner_up_lowers_the_price_for_everyone(world):
    creator, posts = await world.creator(posts=1)
    slot = await world.slot(creator, posts[0], minBid=10)
    leader, runner, third = await world.buyer("L"), await world.buyer("R"), await world.buyer("T")
    await world.bid(leader, slot["id"], 15, autoBidEnabled=True, maxAutoBid=100)
    await world.bid(third, slot["id"], 20)
    runner_bid = (await world.bid(runner, slot["id"], 50)).json()
    assert (await detail(world, slot, leader))["currentBid"] == 50
    world.clock.advance(minutes=1)
    cancelled = await world.http.post(f"/buyer/bids/{runner_bid['id']}/cancel", headers=runner)
    assert cancelled.status_code == 200, cancelled.text
    shown = await detail(world, slot, leader)
    assert shown["currentBid"] == 20 and shown["priceHistory"][-1]["price"] == 20
    assert (shown["bidCount"], shown["bidderCount"]) == (3, 2)  # a cancelled bid is no longer counted (issue 31)
    async with world.service.db.autocommit() as conn:
        told = (await conn.execute(text(
            "SELECT envelope->'data'->>'currentBidCents' AS cents, envelope->'data'->>'bidderCount' AS bidders "
            "FROM outbox WHERE type = 'marketplace.slot.updated.v1' "
            "AND envelope->'data'->>'slotId' = :slot ORDER BY seq DESC LIMIT 1"), {"slot": slot["id"]})).one()
    assert (told.cents, told.bidders) == ("2000", "2")
    # cancelling a bid below the runner-up: the price stays at the minimum, one brand fewer in the running
    third_bid = (await world.http.get("/buyer/bids", headers=third)).json()[0]
    async with world.service.db.autocommit() as conn:
        events_before = await conn.scalar(text("SELECT count(*) FROM outbox"))
    cancelled = await world.http.post(f"/buyer/bids/{third_bid['id']}/cancel", headers=third)
    assert cancelled.status_code == 200 and cancelled.json()["pinSlot"]["currentBid"] == 10  # the leader alone
    assert cancelled.json()["pinSlot"]["bidderCount"] == 1
    closed = await end(world, creator, slot)
    assert closed["currentBid"] == 10 and (await closed_event(world, slot))["finalPriceCents"] == 1000
    async with world.service.db.autocommit() as conn:
        assert await conn.scalar(text("SELECT count(*) FROM outbox")) > events_before


async def test_open_auctions_show_the_new_price_after_the_migration(world):
    creator, posts = await world.creator(posts=3)
    open_slot = await world.slot(creator, posts[0], minBid=10)
    alone = await world.slot(creator, posts[1], minBid=20)
    closed = await world.slot(creator, posts[2], minBid=10)
    a, b = await world.buyer("A"), await world.buyer("B")
    await world.bid(a, open_slot["id"], 12.50)
    await world.bid(b, open_slot["id"], 14, autoBidEnabled=True, maxAutoBid=25)
    await world.bid(a, alone["id"], 25)
    await world.bid(a, closed["id"], 30)
    await world.bid(b, closed["id"], 40)
    await end(world, creator, closed)
    url = world.service.db.url
    # back to the first rule: an open slot showed its leader's visible amount; a closed one keeps its price
    await asyncio.to_thread(command.downgrade, alembic_config(url, "pinbid_marketplace"), "0014")
    async with world.service.db.autocommit() as conn:
        await conn.execute(text("DISCARD ALL"))
        # read in SQL: the models hold the columns of later migrations (0016 refunded, 0017 bidder_count)
        shown_before = [float(await conn.scalar(text("SELECT current_bid FROM slots WHERE id = :id"), {"id": s["id"]}))
                        for s in (open_slot, alone, closed)]
    assert shown_before == [14, 25, 30]
    async with world.service.db.autocommit() as conn:
        bids_before = (await conn.execute(text("SELECT id, amount, ceiling, status FROM bids ORDER BY id"))).all()

    await asyncio.to_thread(upgrade, url, "pinbid_marketplace")
    assert [(await detail(world, s, a))["currentBid"] for s in (open_slot, alone, closed)] == [12.5, 20, 30]
    async with world.service.db.autocommit() as conn:
        assert (await conn.execute(text("SELECT id, amount, ceiling, status FROM bids ORDER BY id"))).all() == \
            bids_before  # the bids keep their amounts and maxima
    chart = (await detail(world, open_slot, a))["priceHistory"]
    assert chart[-1]["price"] == 12.5
    # and the auction goes on under the new rule: the close charges what is shown
    assert (await end(world, creator, open_slot))["currentBid"] == 12.5
    assert (await closed_event(world, open_slot))["finalPriceCents"] == 1250


async def test_cancelling_a_bid_below_the_runner_up_keeps_the_price_and_counts_one_brand_fewer(world):
    """Issue 31: the count shown is the brands in the running; a cancel that leaves the price is still told."""
    creator, posts = await world.creator(posts=1)
    slot = await world.slot(creator, posts[0], minBid=10)
    leader, runner, third = await world.buyer("L"), await world.buyer("R"), await world.buyer("T")
    third_bid = (await world.bid(third, slot["id"], 20)).json()
    await world.bid(runner, slot["id"], 50)
    await world.bid(leader, slot["id"], 60, autoBidEnabled=True, maxAutoBid=100)
    world.clock.advance(minutes=1)
    cancelled = await world.http.post(f"/buyer/bids/{third_bid['id']}/cancel", headers=third)
    assert cancelled.status_code == 200, cancelled.text
    shown = await detail(world, slot, leader)
    assert (shown["currentBid"], shown["bidCount"], shown["bidderCount"]) == (50, 3, 2)
    async with world.service.db.autocommit() as conn:
        told = await conn.scalar(text(
            "SELECT envelope->'data'->>'bidderCount' FROM outbox WHERE type = 'marketplace.slot.updated.v1' "
            "AND envelope->'data'->>'slotId' = :slot ORDER BY seq DESC LIMIT 1"), {"slot": slot["id"]})
    assert told == "2"
