"""Marketplace's side of an operator's decisions (issue 22): a suspended user's open bids are withdrawn (the slot
re-ranked) and its open slots closed without sale, once whatever the redeliveries; a dispute decided with a refund
counts in the creator's record."""

import uuid
from datetime import timedelta

from pinbid_kit.events import identity as i
from pinbid_kit.events import payments as p
from pinbid_kit.events import social as s
from pinbid_marketplace.domain.tabs import Tab, tab_of
from pinbid_marketplace.slots import placements_on_post
from sqlalchemy import text

from .test_reliability import paid_placement, placement


async def slot_state(world, slot_id: str) -> dict:
    return (await world.http.get(f"/marketplace/slots/{slot_id}", headers=world.auth(uuid.uuid4(), "BUYER"))).json()


async def bid_statuses(world, slot_id: str) -> dict[str, tuple[str, float]]:
    async with world.service.db.autocommit() as conn:
        rows = (await conn.execute(text("SELECT buyer_id, status, amount FROM bids WHERE slot_id = :s"),
                                   {"s": slot_id})).all()
    return {str(r.buyer_id): (r.status, float(r.amount)) for r in rows}


async def test_a_suspended_leader_is_withdrawn_and_the_runner_up_leads_at_its_second_price(world):
    creator, posts = await world.creator(posts=2)
    leader, second, third = await world.buyer("L"), await world.buyer("S"), await world.buyer("T")
    slot = await world.slot(creator, posts[0], minBid=10)
    for buyer, amount, maximum in ((third, 80, None), (second, 100, 200), (leader, 150, 300)):
        extra = {"autoBidEnabled": True, "maxAutoBid": maximum} if maximum else {}
        assert (await world.bid(buyer, slot["id"], amount, **extra)).status_code == 201
    raised = await world.bid(leader, slot["id"], 210, autoBidEnabled=True, maxAutoBid=320)  # the leader raises
    assert raised.status_code == 201, raised.text
    before = await slot_state(world, slot["id"])
    assert before["currentBid"] == 200  # the runner-up's maximum
    assert (before["bidCount"], before["bidderCount"]) == (4, 3)  # four bid actions, three brands in the running
    other = await world.slot(creator, posts[1], minBid=10)
    await world.bid(leader, other["id"], 30)  # alone: withdrawn, the slot has no bid left

    suspended = i.UserSuspended(user_id=uuid.UUID(leader["x-user"]), reason="Shill bidding",
                                operator_id=uuid.uuid4(), suspended_at=world.clock.now)
    envelope = await world.deliver(suspended)
    statuses = await bid_statuses(world, slot["id"])
    assert statuses[leader["x-user"]][0] == "CANCELLED"
    assert statuses[second["x-user"]] == ("ACTIVE", 81.0)  # one step above the next maximum, 80
    assert statuses[third["x-user"]] == ("OUTBID", 80.0)
    shown = await slot_state(world, slot["id"])
    assert (shown["currentBid"], shown["status"]) == (80, "ACTIVE")  # what the new leader would pay
    # issue 31: the withdrawn bid no longer counts in what is shown; the bid order stays
    assert (shown["bidCount"], shown["bidderCount"]) == (4, 2)
    emptied = await slot_state(world, other["id"])
    assert (emptied["currentBid"], emptied["status"], emptied["bidderCount"]) == (None, "ACTIVE", 0)
    async with world.service.db.autocommit() as conn:  # the live stream hears the same number
        told = await conn.scalar(text(
            "SELECT envelope->'data'->>'bidderCount' FROM outbox WHERE type = 'marketplace.slot.updated.v1' "
            "AND envelope->'data'->>'slotId' = :s ORDER BY seq DESC LIMIT 1"), {"s": slot["id"]})
    assert told == "2"

    async with world.service.db.autocommit() as conn:
        outbox_before = await conn.scalar(text("SELECT count(*) FROM outbox"))
    await world.service.consumers.dispatch(envelope, {})  # redelivered: nothing more
    async with world.service.db.autocommit() as conn:
        assert await conn.scalar(text("SELECT count(*) FROM outbox")) == outbox_before
    assert await bid_statuses(world, slot["id"]) == statuses

    # the runner-up now wins the auction as usual
    ended = await world.http.post(f"/influencer/pin-slots/{slot['id']}/end-auction", headers=creator)
    winner = [b for b in ended.json()["bids"] if b["status"] == "PENDING_INFLUENCER_APPROVAL"]
    assert [b["user"]["name"] for b in winner] == ["S Inc"]
    assert ended.json()["bidderCount"] == 2  # the bids that stood at the close: the winner and the loser


async def test_a_suspended_creators_open_slots_close_without_sale_and_their_bidders_are_told(world):
    creator, posts = await world.creator(posts=2)
    brand = await world.buyer()
    open_one = await world.slot(creator, posts[0], minBid=10)
    await world.bid(brand, open_one["id"], 40)
    quiet = await world.slot(creator, posts[1], minBid=10)
    await world.deliver(i.UserSuspended(user_id=uuid.UUID(creator["x-user"]), reason="Fake account",
                                        operator_id=uuid.uuid4(), suspended_at=world.clock.now))
    for slot in (open_one, quiet):
        shown = await slot_state(world, slot["id"])
        assert shown["status"] == "CLOSED", shown
    assert (await bid_statuses(world, open_one["id"]))[brand["x-user"]][0] == "EXPIRED"
    async with world.service.db.autocommit() as conn:
        closed = (await conn.execute(text("SELECT envelope FROM outbox WHERE type = 'marketplace.auction.closed.v1'"))
                  ).scalars().all()
        outcomes = await conn.execute(text("SELECT outcome, winning_bid_id FROM slots WHERE creator_id = :c"),
                                      {"c": creator["x-user"]})
        assert set(outcomes.all()) == {("UNSOLD", None)}
    assert sorted(e["data"]["slotId"] for e in closed) == sorted([open_one["id"], quiet["id"]])
    assert {e["data"]["outcome"] for e in closed} == {"UNSOLD"}
    brand_views = (await world.http.get("/buyer/bids", headers=brand)).json()
    assert brand_views[0]["status"] == "EXPIRED"


async def test_a_dispute_refunded_counts_in_the_creators_record_once_and_continue_does_not(world):
    creator, posts = await world.creator(posts=3)
    kept, refunded, continued = [await placement(world, creator, posts[n], minutes_to_decide=5) for n in range(3)]
    await world.deliver(s.PlacementCompleted(completed_at=world.clock.now, **kept))
    buyer = uuid.uuid4()

    def decided(event, outcome):
        return s.DisputeDecided(dispute_id=uuid.uuid4(), bid_id=event["bid_id"], slot_id=event["slot_id"],
                                creator_id=event["creator_id"], buyer_id=buyer, outcome=outcome, reason="r",
                                operator_id=uuid.uuid4(), decided_at=world.clock.now + timedelta(days=2))

    envelope = await world.deliver(decided(refunded, "REFUND_ALL"))
    await world.service.consumers.dispatch(envelope, {})
    await world.deliver(decided(continued, "CONTINUE"))
    # the tracker's later unpin of the refunded placement does not count it twice
    await world.deliver(s.CommentUnpinned(comment_id="c", unpinned_at=world.clock.now, reason="UNPINNED",
                                          **refunded))
    record = (await world.http.get("/influencer/record", headers=creator)).json()
    assert (record["placements"], record["kept"], record["endedEarly"], record["disputedPlacements"],
            record["keptPercent"]) == (2, 1, 0, 1, 50)


async def test_a_placement_ended_on_a_refund_is_past_and_frees_its_pin_once(world):
    creator, posts = await world.creator(posts=3)
    running, completed, unpinned = [await placement(world, creator, posts[n], minutes_to_decide=5) for n in range(3)]
    await world.deliver(s.PlacementCompleted(completed_at=world.clock.now, **completed))
    await world.deliver(s.CommentUnpinned(comment_id="c", unpinned_at=world.clock.now, reason="UNPINNED", **unpinned))
    for event in (running, completed, unpinned):
        ended = s.PlacementEnded(buyer_id=uuid.uuid4(), method="MANUAL", reason="Refunded: operator refund",
                                 ended_at=world.clock.now, **event)
        envelope = await world.deliver(ended)
        await world.service.consumers.dispatch(envelope, {})  # redelivered
        await world.deliver(ended)  # announced again
    # the tracker's late reading of the running one changes nothing
    await world.deliver(s.PlacementCompleted(completed_at=world.clock.now, **running))
    async with world.service.db.transaction() as session:
        statuses = dict((await session.execute(text("SELECT id, pinned_status FROM bids"))).all())
        held = [await placements_on_post(session, post) for post in posts]
    assert [statuses[e["bid_id"]] for e in (running, completed, unpinned)] == ["ENDED", "ENDED", "UNPINNED"]
    assert held == [0, 0, 0]  # none holds one of its post's pins any more
    assert tab_of("PINNED", "ENDED") is Tab.PAST
    record = (await world.http.get("/influencer/record", headers=creator)).json()
    assert (record["placements"], record["kept"], record["endedEarly"]) == (1, 0, 1)


async def test_an_end_delivered_before_its_pin_stays_the_end(world):
    """Redeliveries out of order: a placement's unpin, completion or end on a refund reaches marketplace before its
    pin. The late pin records the comment and moves the bid to PINNED, but the placement stays over: not live,
    holding none of its post's pins, counted once in the creator's record."""
    creator, posts = await world.creator(posts=3)
    placed = [await paid_placement(world, creator, post, minutes_to_decide=5) for post in posts]
    (unpinned, unpinned_pin), (completed, completed_pin), (ended, ended_pin) = placed
    await world.deliver(s.CommentUnpinned(comment_id="c", unpinned_at=world.clock.now, reason="UNPINNED", **unpinned))
    await world.deliver(s.PlacementCompleted(completed_at=world.clock.now, **completed))
    await world.deliver(s.PlacementEnded(buyer_id=uuid.uuid4(), method="SESSION", reason="Refunded in full by Pinbid.",
                                         ended_at=world.clock.now, **ended))
    for _, pin in placed:
        await world.deliver(pin)
    async with world.service.db.transaction() as session:
        rows = {row.id: tuple(row)[1:] for row in
                (await session.execute(text("SELECT id, status, pinned_status, pinned_text FROM bids"))).all()}
        held = [await placements_on_post(session, post) for post in posts]
    assert [rows[ids["bid_id"]] for ids in (unpinned, completed, ended)] == [
        ("PINNED", "UNPINNED", "Ad · x: Hello"), ("PINNED", "COMPLETED", "Ad · x: Hello"),
        ("PINNED", "ENDED", "Ad · x: Hello")]
    assert held == [0, 0, 0]
    record = (await world.http.get("/influencer/record", headers=creator)).json()
    assert (record["placements"], record["kept"], record["endedEarly"]) == (2, 1, 1)


async def test_a_refunded_placement_shows_what_was_paid_and_given_back_and_is_past(world):
    """Issue 31: the brand's bid carries what its refunds gave back, from payments' events: the unearned share of
    an early end, then everything once refunded in full, whatever the order and the redeliveries; a bid refunded
    in full is past (pinned or never pinned) and no longer counted among the won."""
    creator, posts = await world.creator(posts=2)
    partly, fully = [await placement(world, creator, posts[n], minutes_to_decide=5) for n in range(2)]
    buyer_ids = {}
    async with world.service.db.transaction() as session:
        for row in (await session.execute(text("SELECT id, buyer_id, payment_id FROM bids"))).all():
            buyer_ids[row.id] = (row.buyer_id, row.payment_id)

    def money_event(kind, ids, **amounts):
        buyer, payment = buyer_ids[ids["bid_id"]]
        return kind(payment_id=payment, bid_id=ids["bid_id"], buyer_id=buyer, creator_id=ids["creator_id"],
                    amount_cents=1000, **amounts)  # the second price: the minimum, 10.00

    unearned = money_event(p.PaymentPartiallyRefunded, partly, refund_cents=750, reason="DISPUTE")
    envelope = await world.deliver(unearned)
    await world.service.consumers.dispatch(envelope, {})  # redelivered
    await world.deliver(s.DisputeDecided(dispute_id=uuid.uuid4(), slot_id=partly["slot_id"], buyer_id=buyer_ids[
        partly["bid_id"]][0], outcome="REFUND_UNEARNED", reason="r", operator_id=uuid.uuid4(),
        decided_at=world.clock.now, bid_id=partly["bid_id"], creator_id=partly["creator_id"]))
    # the full refund of the other arrives before its partial one (out of order): the partial one takes nothing off
    await world.deliver(money_event(p.PaymentRefunded, fully, reason="dispute_refund_all", refund_cents=250,
                                    recovered_cents=0, owed_cents=0))
    await world.deliver(money_event(p.PaymentPartiallyRefunded, fully, refund_cents=750, reason="DISPUTE"))

    for ids, refunded, outcome, tab in ((partly, 7.5, "REFUND_UNEARNED", "live"), (fully, 10.0, None, "past")):
        headers = world.auth(buyer_ids[ids["bid_id"]][0], "BUYER")
        [bid] = (await world.http.get("/buyer/bids", headers=headers)).json()
        assert (bid["refunded"], bid["disputeOutcome"], bid["tab"], bid["finalPrice"]) == (
            refunded, outcome, tab, 10.0)
    assert tab_of("WON", None, "REFUNDED") is Tab.PAST and tab_of("PINNED", "ACTIVE", "COMPLETED") is Tab.LIVE
    figures = await world.http.get("/buyer/dashboard-figures", headers=world.auth(buyer_ids[fully["bid_id"]][0],
                                                                                   "BUYER"))
    assert figures.json() == {"activeBids": 0, "wonAuctions": 0}
