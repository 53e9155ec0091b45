"""The main journeys through the HTTP calls on a real database."""

import uuid
from datetime import datetime, timedelta

from pinbid_kit.events import payments as p
from pinbid_kit.events import social as s
from pinbid_testing import eventually
from sqlalchemy import text


async def outbox_types(world) -> list[str]:
    async with world.service.db.transaction() as session:
        return list(await session.scalars(text("SELECT type FROM outbox ORDER BY seq")))


async def test_a_slot_is_listed_found_and_shown(world):
    creator, posts = await world.creator()
    slot = await world.slot(creator, posts[0], title="Latte art reel", category="Food", buyNowPrice=100)
    assert slot["status"] == "ACTIVE" and slot["currentBid"] is None and slot["buyNowPrice"] == 100
    assert slot["post"]["imageUrl"].endswith(".jpg") and slot["user"]["influencerProfile"]["followers"] == 20_000
    buyer = await world.buyer()
    found = (await world.http.get("/marketplace/slots", params={"q": "LATTE", "category": "food"},
                                  headers=buyer)).json()
    assert found["total"] == 1 and found["slots"][0]["id"] == slot["id"] and found["totalPages"] == 1
    none = (await world.http.get("/marketplace/slots", params={"q": "nothing like it"}, headers=buyer)).json()
    assert none == {"slots": [], "total": 0, "totalIsExact": True, "totalPages": 0, "page": 1, "understood": None}
    detail = await world.http.get(f"/marketplace/slots/{slot['id']}", headers=buyer)
    assert detail.status_code == 200 and detail.json()["title"] == "Latte art reel"
    assert (await world.http.get("/marketplace/categories", headers=buyer)).json()[0] == "fashion"
    assert "marketplace.slot.created.v1" in await outbox_types(world)


async def test_second_price_auction_to_payment_and_pin(world):
    creator, posts = await world.creator()
    slot = await world.slot(creator, posts[0], minBid=10)
    alice, bob = await world.buyer("Alice"), await world.buyer("Bob")
    first = await world.bid(alice, slot["id"], 12, autoBidEnabled=True, maxAutoBid=50, newCommentText="Love it #ad")
    assert first.status_code == 201, first.text
    assert first.json()["status"] == "ACTIVE" and first.json()["amount"] == 12
    second = await world.bid(bob, slot["id"], 20)
    assert second.status_code == 201 and second.json()["status"] == "OUTBID"
    detail = (await world.http.get(f"/marketplace/slots/{slot['id']}", headers=bob)).json()
    # one price: Alice leads (her visible 21 is her own) and would pay Bob's 20 if it ended now
    assert detail["currentBid"] == 20 and detail["bidCount"] == 2
    again = await world.http.put(f"/buyer/bids/{second.json()['id']}", json={"amount": 60}, headers=bob)
    assert again.status_code == 200 and again.json()["status"] == "ACTIVE" and again.json()["amount"] == 60
    # Bob leads at his own 60 and would pay Alice's maximum: the price shown is the price charged below
    assert again.json()["pinSlot"]["currentBid"] == 50
    alice, bob = bob, alice  # Bob leads now; "alice" names the winner below
    ended = await world.http.post(f"/influencer/pin-slots/{slot['id']}/end-auction", headers=creator)
    assert ended.status_code == 200 and ended.json()["status"] == "CLOSED"
    again = await world.http.post(f"/influencer/pin-slots/{slot['id']}/end-auction", headers=creator)
    assert again.status_code == 409
    mine = (await world.http.get("/buyer/bids", headers=alice)).json()
    assert mine[0]["status"] == "PENDING_INFLUENCER_APPROVAL" and mine[0]["finalPrice"] == 50
    assert (await world.http.get("/buyer/bids", headers=bob)).json()[0]["status"] == "EXPIRED"
    figures = (await world.http.get("/influencer/dashboard-figures", headers=creator)).json()
    assert figures == {"activeSlots": 0, "pendingApprovals": 1, "completedJobs": 0}
    approvals = (await world.http.get("/influencer/approvals", headers=creator)).json()
    bid_id = approvals[0]["id"]
    assert approvals[0]["user"]["name"] == "Bob Inc" and approvals[0]["comment"] is None
    chosen = await world.http.post("/buyer/comment-submission", json={"bidId": approvals[0]["id"],
                                                                     "commentText": "Love it #ad"}, headers=alice)
    assert chosen.status_code == 200 and chosen.json()["comment"] == "Love it #ad"
    decided = await world.http.post(f"/influencer/approvals/{bid_id}", json={"status": "APPROVED"}, headers=creator)
    assert decided.status_code == 200 and decided.json()["status"] == "APPROVED"
    twice = await world.http.post(f"/influencer/approvals/{bid_id}", json={"status": "REJECTED"}, headers=creator)
    assert twice.status_code == 409
    ids = dict(bid_id=uuid.UUID(bid_id), buyer_id=uuid.UUID(alice["x-user"]), creator_id=uuid.UUID(creator["x-user"]))
    payment = uuid.uuid4()
    requested = p.PaymentRequested(payment_id=payment, amount_cents=5000, expires_at=world.clock.now, **ids)
    await world.deliver(requested)
    assert (await world.http.get("/buyer/bids", headers=alice)).json()[0]["status"] == "AWAITING_PAYMENT"
    completed = await world.deliver(p.PaymentCompleted(payment_id=payment, amount_cents=5000, **ids))
    await world.service.consumers.dispatch(completed, {})  # redelivered: no second effect
    won = (await world.http.get("/buyer/bids", headers=alice)).json()[0]
    assert won["status"] == "WON" and won["payment"]["status"] == "COMPLETED"
    paid_at = won["payment"]["paidAt"]
    assert datetime.fromisoformat(paid_at) == world.clock.now  # the transaction's date
    world.clock.advance(days=2)  # the pin and its likes come later: the transaction keeps its date
    await world.deliver(s.CommentPinned(bid_id=ids["bid_id"], slot_id=uuid.UUID(slot["id"]),
                                        creator_id=ids["creator_id"], buyer_id=ids["buyer_id"], comment_id="c1",
                                        comment_text="Love it #ad", pinned_at=world.clock.now))
    await world.deliver(s.CommentMetricsUpdated(bid_id=ids["bid_id"], likes=4, replies=1, clicks=2))
    pinned = (await world.http.get("/buyer/bids", headers=alice)).json()[0]
    assert pinned["status"] == "PINNED" and pinned["pinnedComment"]["status"] == "ACTIVE"
    assert pinned["payment"]["paidAt"] == paid_at and pinned["pinnedComment"]["likes"] == 4
    types = await outbox_types(world)
    for expected in ("marketplace.bid.placed.v1", "marketplace.bid.outbid.v1", "marketplace.auction.closed.v1",
                     "marketplace.bid.approved.v1", "marketplace.bid.comment_changed.v1"):
        assert expected in types
    assert types.count("marketplace.bid.awarded.v1") == 1
    await eventually(lambda: _all_sent(world))


async def _all_sent(world) -> bool:
    async with world.service.db.transaction() as session:
        return await session.scalar(text("SELECT count(*) FROM outbox WHERE sent_at IS NULL")) == 0


async def test_the_closer_closes_due_auctions_and_buy_now(world):
    creator, posts = await world.creator()
    due = await world.slot(creator, posts[0])
    unsold = await world.slot(creator, posts[1])
    quick = await world.slot(creator, posts[2], buyNowPrice=80)
    buyer = await world.buyer()
    assert (await world.bid(buyer, due["id"], 15)).status_code == 201
    bought = await world.http.post("/buyer/buy-now", json={"pinSlotId": quick["id"]}, headers=buyer)
    assert bought.status_code == 201 and bought.json()["finalPrice"] == 80
    assert bought.json()["status"] == "PENDING_INFLUENCER_APPROVAL"
    world.clock.advance(days=3)
    assert await world.service.state["closer"].run_once() == 2
    assert await world.service.state["closer"].run_once() == 0
    won = (await world.http.get(f"/marketplace/slots/{due['id']}", headers=buyer)).json()
    assert won["status"] == "CLOSED" and won["outcome"] == "SOLD"
    assert (await world.http.get(f"/marketplace/slots/{unsold['id']}", headers=buyer)).json()["outcome"] == "UNSOLD"
    late = await world.bid(buyer, due["id"], 100)
    assert late.status_code == 409 and late.json()["detail"] == "This auction has ended."


async def test_a_post_with_three_pins_taken_cannot_be_listed_again(world):
    creator, posts = await world.creator(posts=1)
    buyers = [await world.buyer(f"Brand {n}") for n in range(4)]
    for n in range(3):
        listed = await world.http.post("/buyer/buy-now", headers=buyers[n], json={
            "pinSlotId": (await world.slot(creator, posts[0], buyNowPrice=50))["id"]})
        assert listed.status_code == 201, listed.text  # each sale holds one of the post's three pins
    full = await world.http.post("/influencer/pin-slots", headers=creator, json={
        "postId": posts[0], "title": "Fourth", "category": "food", "minBid": 10,
        "auctionEnd": (world.clock.now + timedelta(days=2)).isoformat()})
    assert full.status_code == 409 and full.json()["code"] == "post_full"
    assert "3 pinned comments" in full.json()["detail"]
