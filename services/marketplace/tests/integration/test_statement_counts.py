"""How many SQL statements and committed transactions each hot call costs (counted with SQLAlchemy's cursor
events), so a change that adds a round trip to one of them fails here. COMMIT is not a statement; pool pings are
not counted."""

import asyncio

from pinbid_testing import counting_statements
from sqlalchemy import text

from .test_concurrency import six_slots_due


def counting(world):
    return counting_statements(world.service.db)


async def market(world, bids: int = 2):
    creator, posts = await world.creator(posts=3)
    slot = await world.slot(creator, posts[0], minBid=10)
    buyers = [await world.buyer(f"B{n}") for n in range(bids)]
    for n, buyer in enumerate(buyers):
        assert (await world.bid(buyer, slot["id"], 20 + 10 * n)).status_code == 201
    return creator, slot, buyers


async def test_an_accepted_bid_is_three_statements_in_autocommit_and_answers_without_reading_back(world):
    creator, slot, buyers = await market(world)
    newcomer = await world.buyer("New")
    with counting(world) as counted:
        response = await world.bid(newcomer, slot["id"], 45, autoBidEnabled=True, maxAutoBid=60,
                                   newCommentText="Hello #ad")
    assert response.status_code == 201, response.text
    body = response.json()
    # its own amount stays 45; the price is what it would pay now, the runner-up's maximum (30)
    assert (body["amount"], body["status"], body["pinSlot"]["currentBid"], body["pinSlot"]["bidCount"]) == (
        45, "ACTIVE", 30, 3)
    assert (body["maxAutoBid"], body["comment"], body["user"]["name"]) == (60, "Hello #ad", "New Inc")
    # the unlocked check, the read the rules need, the write of slot, bids and events guarded by the slot's version:
    # each its own transaction (no BEGIN or COMMIT round trip), and no lock held across a round trip
    assert len(counted.statements) == 3, counted.statements
    assert counted.commits == 0
    assert not any("FOR UPDATE" in statement for statement in counted.statements)
    assert "slots.version = " in counted.statements[2]
    assert "INSERT INTO outbox" in counted.statements[2] and "pg_notify" in counted.statements[2]
    async with world.service.db.transaction() as session:
        events = (await session.execute(text(
            "SELECT type FROM outbox WHERE envelope->'data'->>'slotId' = :slot ORDER BY seq DESC LIMIT 4"),
            {"slot": slot["id"]})).scalars().all()
    assert sorted(events) == sorted(["marketplace.bid.comment_changed.v1", "marketplace.bid.placed.v1",
                                     "marketplace.bid.outbid.v1", "marketplace.slot.updated.v1"])


async def test_a_refusal_is_one_read_without_a_lock_and_says_what_the_current_bid_is(world):
    creator, slot, buyers = await market(world)
    with counting(world) as counted:
        response = await world.bid(buyers[0], slot["id"], 20)
    assert response.status_code == 422
    body = response.json()
    # the price is the leader's second price: the runner-up's 20
    assert (body["code"], body["currentBid"], body["errors"][0]["field"]) == ("bid_too_low", 20, "amount")
    assert body["detail"].startswith("Your bid must be higher than the current bid ($20.00)")
    assert len(counted.statements) == 1 and "FOR UPDATE" not in counted.statements[0]
    assert counted.commits == 0

    world.clock.advance(days=3)
    with counting(world) as counted:
        ended = await world.bid(buyers[0], slot["id"], 500)
    assert ended.status_code == 409 and ended.json()["code"] == "auction_ended"
    assert len(counted.statements) == 1


async def test_the_first_refusal_of_a_slot_without_bids_has_a_null_current_bid(world):
    creator, slot, buyers = await market(world, bids=0)
    response = await world.bid(await world.buyer(), slot["id"], 5)
    assert response.status_code == 422
    assert (response.json()["code"], response.json()["currentBid"]) == ("bid_too_low", None)


async def test_changing_a_bid_costs_three_statements(world):
    creator, slot, buyers = await market(world)
    mine = (await world.http.get("/buyer/bids", headers=buyers[0])).json()[0]
    with counting(world) as counted:
        response = await world.http.put(f"/buyer/bids/{mine['id']}", json={"amount": 50}, headers=buyers[0])
    assert response.status_code == 200, response.text
    assert (response.json()["id"], response.json()["status"], response.json()["amount"],
            response.json()["pinSlot"]["currentBid"]) == (mine["id"], "ACTIVE", 50, 30)
    assert len(counted.statements) == 3 and counted.commits == 0


async def test_ending_an_auction_and_deciding_cost_two_statements_each(world):
    creator, slot, buyers = await market(world)
    with counting(world) as counted:
        ended = await world.http.post(f"/influencer/pin-slots/{slot['id']}/end-auction", headers=creator)
    assert ended.status_code == 200, ended.text
    assert ended.json()["status"] == "CLOSED" and len(ended.json()["bids"]) == 2
    by_status = {b["status"]: b for b in ended.json()["bids"]}  # the test's clock stands still: same created_at
    assert sorted(by_status) == ["EXPIRED", "PENDING_INFLUENCER_APPROVAL"]
    assert by_status["PENDING_INFLUENCER_APPROVAL"]["user"]["name"] == "B1 Inc"
    assert len(counted.statements) == 2 and counted.commits == 1

    winner = by_status["PENDING_INFLUENCER_APPROVAL"]["id"]
    with counting(world) as counted:
        decided = await world.http.post(f"/influencer/approvals/{winner}", json={"status": "APPROVED"},
                                        headers=creator)
    assert decided.status_code == 200, decided.text
    assert (decided.json()["id"], decided.json()["status"], decided.json()["finalPrice"]) == (winner, "APPROVED", 20)
    assert len(counted.statements) == 2 and counted.commits == 1


async def test_the_closer_costs_two_statements_whatever_the_number_of_slots(world):
    await six_slots_due(world)
    with counting(world) as counted:
        closed = await world.service.state["closer"].run_once()
    assert closed == 6
    assert len(counted.statements) == 2 and counted.commits == 1
    with counting(world) as counted:
        assert await world.service.state["closer"].run_once() == 0
    assert len(counted.statements) == 1


async def test_bid_lists_and_figures_are_one_statement_each(world):
    creator, slot, buyers = await market(world)
    calls = [("/buyer/bids", buyers[0]), ("/buyer/dashboard-figures", buyers[0]),
             ("/influencer/dashboard-figures", creator), ("/influencer/approvals", creator),
             ("/marketplace/slots?sortBy=price-high&category=food", buyers[0])]
    for path, headers in calls:
        with counting(world) as counted:
            response = await world.http.get(path, headers=headers)
        assert response.status_code == 200, (path, response.text)
        assert len(counted.statements) == 1, (path, counted.statements)
    assert (await world.http.get("/buyer/dashboard-figures", headers=buyers[0])).json() == {
        "activeBids": 1, "wonAuctions": 0}
    assert (await world.http.get("/influencer/dashboard-figures", headers=creator)).json() == {
        "activeSlots": 1, "pendingApprovals": 0, "completedJobs": 0}


async def test_bids_arriving_together_share_one_transaction_and_each_answer_is_as_of_its_own_bid(world):
    creator, slot, buyers = await market(world, bids=0)
    bidders = [await world.buyer(f"C{n}") for n in range(12)]
    with counting(world) as counted:
        answers = await asyncio.gather(*[world.bid(b, slot["id"], 20 + n) for n, b in enumerate(bidders)])
    accepted = [a.json() for a in answers if a.status_code == 201]
    assert {a.status_code for a in answers} <= {201, 422} and accepted
    assert counted.commits < len(accepted)  # batched: fewer transactions than accepted bids
    assert counted.statements.count(counted.statements[0]) == len(answers)  # one unlocked check each
    # each answer saw the slot right after its own bid: counts rise one by one; the bid leads if it is the highest
    # so far, and the price is what the leader would pay, the second-highest so far (the minimum, 10, alone)
    accepted.sort(key=lambda a: a["pinSlot"]["bidCount"])
    assert [a["pinSlot"]["bidCount"] for a in accepted] == list(range(1, len(accepted) + 1))
    for n, answer in enumerate(accepted):
        so_far = sorted((a["amount"] for a in accepted[:n + 1]), reverse=True)
        assert answer["status"] == ("ACTIVE" if answer["amount"] == so_far[0] else "OUTBID")
        assert answer["pinSlot"]["currentBid"] == (so_far[1] if n else 10)
    listed = (await world.http.get(f"/marketplace/slots/{slot['id']}", headers=creator)).json()
    assert listed["bidCount"] == len(accepted)
    assert sum(1 for b in listed["bids"] if b["status"] == "ACTIVE") == 1


async def test_a_listing_page_past_the_end_still_has_its_exact_total(world):
    creator, slot, _ = await market(world, bids=0)
    with counting(world) as counted:
        listed = (await world.http.get("/marketplace/slots?page=5&limit=10", headers=creator)).json()
    assert (listed["slots"], listed["total"], listed["totalPages"]) == ([], 1, 1)
    assert len(counted.statements) == 2  # no row carries the total: it is counted on its own
    first = (await world.http.get("/marketplace/slots", headers=creator)).json()
    assert (len(first["slots"]), first["total"]) == (1, 1)


async def test_cancel_buy_now_and_a_new_comment_lock_write_once_and_answer_from_the_write(world):
    creator, slot, buyers = await market(world)
    outbid = (await world.http.get("/buyer/bids", headers=buyers[0])).json()[0]
    with counting(world) as counted:
        cancelled = await world.http.post(f"/buyer/bids/{outbid['id']}/cancel", headers=buyers[0])
    assert cancelled.status_code == 200, cancelled.text
    assert (cancelled.json()["id"], cancelled.json()["status"], cancelled.json()["user"]["name"]) == (
        outbid["id"], "CANCELLED", "B0 Inc")
    # the lock (slot marked changed, bid, buyer, the best bids) and the write: no read after the write
    assert len(counted.statements) == 2 and counted.commits == 1, counted.statements
    assert "FOR UPDATE" in counted.statements[0] and "version = version" in counted.statements[0]
    # it was the runner-up: the price falls to what the leader alone would pay, the minimum, told to watchers
    assert cancelled.json()["pinSlot"]["currentBid"] == 10
    assert counted.statements[1].count("INSERT INTO outbox") == 1

    leading = (await world.http.get("/buyer/bids", headers=buyers[1])).json()[0]
    with counting(world) as counted:
        commented = await world.http.post("/buyer/comment-submission", headers=buyers[1],
                                          json={"bidId": leading["id"], "commentText": "New words #ad"})
    assert commented.status_code == 200, commented.text
    assert (commented.json()["comment"], commented.json()["pinSlot"]["bidCount"]) == ("New words #ad", 2)
    assert len(counted.statements) == 2 and counted.commits == 1, counted.statements
    assert counted.statements[1].count("INSERT INTO outbox") == 1

    other, posts = await world.creator(posts=1, name="Nia")
    listed = await world.slot(other, posts[0], minBid=10, buyNowPrice=99)
    with counting(world) as counted:
        bought = await world.http.post("/buyer/buy-now", headers=buyers[0],
                                       json={"pinSlotId": listed["id"], "newCommentText": "Bought it #ad"})
    assert bought.status_code == 201, bought.text
    assert (bought.json()["status"], bought.json()["finalPrice"], bought.json()["pinSlot"]["status"]) == (
        "PENDING_INFLUENCER_APPROVAL", 99, "CLOSED")
    assert len(counted.statements) == 2 and counted.commits == 1, counted.statements
    assert counted.statements[1].count("INSERT INTO outbox") == 1  # three events, one insert
