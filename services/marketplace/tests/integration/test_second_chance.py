"""Second chance (issue 36, item 5): a slot whose winner was rejected or did not pay is offered to the runner-up at
its own last amount; the brand accepts (approved, payments asked) or declines; the offer lapses; a campaign's bid is
answered within its budget. Real PostgreSQL; concurrency with gather."""

import asyncio
import uuid
from datetime import timedelta
from decimal import Decimal

import pytest
from pinbid_kit.events import identity as i
from pinbid_kit.events import marketplace as m
from pinbid_kit.events import payments as p
from pinbid_kit.events import trust as t
from pinbid_marketplace.offer_ends import OfferLapses
from sqlalchemy import text


async def outbox_of(world, event_type: str) -> list[dict]:
    async with world.service.db.autocommit() as conn:
        rows = (await conn.execute(text("SELECT envelope FROM outbox WHERE type = :t ORDER BY seq"),
                                   {"t": event_type})).all()
    return [r.envelope["data"] for r in rows]


async def status_of(world, bid_id: str) -> str:
    async with world.service.db.autocommit() as conn:
        return await conn.scalar(text("SELECT status FROM bids WHERE id = :b"), {"b": bid_id})


async def closed_auction(world, bidders: int = 3):
    """A slot closed with `bidders` brands, ceilings 300 (the winner), 200, 150, 120: bids[n] is buyers[n]'s."""
    creator, posts = await world.creator(posts=1)
    slot = await world.slot(creator, posts[0], minBid=10)
    buyers = [await world.buyer(f"B{n}") for n in range(bidders)]
    bids: list[str] = [""] * bidders
    plan = [(210, 300), (160, 200), (150, None), (120, None)]
    for n in reversed(range(bidders)):  # the lowest first, each above the price
        amount, maximum = plan[n]
        extra = {"autoBidEnabled": True, "maxAutoBid": maximum} if maximum else {}
        extra["newCommentText"] = f"Try {buyers[n]['x-user'][:4]}"
        placed = await world.bid(buyers[n], slot["id"], amount, **extra)
        assert placed.status_code == 201, placed.text
        bids[n] = placed.json()["id"]
    ended = await world.http.post(f"/influencer/pin-slots/{slot['id']}/end-auction", headers=creator)
    assert ended.status_code == 200, ended.text
    return creator, slot, buyers, bids


async def rejected_winner(world, bidders: int = 3):
    creator, slot, buyers, bids = await closed_auction(world, bidders)
    decided = await world.http.post(f"/influencer/approvals/{bids[0]}", json={"status": "REJECTED"}, headers=creator)
    assert decided.status_code == 200, decided.text
    return creator, slot, buyers, bids


async def offer(world, creator, bid_id):
    return await world.http.post(f"/influencer/bids/{bid_id}/second-chance", headers=creator)


async def test_a_rejected_winners_slot_goes_to_the_runner_up_at_its_own_maximum(world):
    creator, slot, buyers, bids = await rejected_winner(world)
    listed = await world.http.get("/influencer/bids/second-chances", headers=creator)
    assert listed.status_code == 200
    [chance] = listed.json()
    assert chance["fallen"]["id"] == bids[0] and chance["openOffer"] is None
    assert (chance["runnerUp"]["id"], chance["runnerUp"]["user"]["name"], chance["runnerUpPrice"]) == (
        bids[1], "B1 Inc", 200)

    offered = await offer(world, creator, bids[0])
    assert offered.status_code == 200, offered.text
    body = offered.json()
    assert (body["id"], body["status"], body["amountOffered"]) == (bids[1], "OFFERED", 200)
    assert body["offerExpiresAt"] is not None
    [told] = await outbox_of(world, m.BidOffered.event_type)
    assert (told["bidId"], told["priceCents"], told["fallenBidId"]) == (bids[1], 20000, bids[0])
    mine = (await world.http.get("/buyer/bids", headers=buyers[1])).json()
    assert [(b["status"], b["tab"], b["amountOffered"]) for b in mine] == [("OFFERED", "active", 200)]

    accepted = await world.http.post(f"/buyer/bids/{bids[1]}/accept-offer", headers=buyers[1])
    assert accepted.status_code == 200, accepted.text
    won = accepted.json()
    assert (won["status"], won["finalPrice"], won["wonAuction"]) == ("APPROVED", 200, True)
    assert won["approvedComment"].endswith(f"Try {buyers[1]['x-user'][:4]}")  # the creator offered it: approved
    [approved] = [e for e in await outbox_of(world, m.BidApproved.event_type) if e["bidId"] == bids[1]]
    assert approved["finalPriceCents"] == 20000
    assert len(await outbox_of(world, m.OfferAccepted.event_type)) == 1
    shown = (await world.http.get(f"/marketplace/slots/{slot['id']}", headers=buyers[2])).json()
    assert (shown["currentBid"], shown["status"]) == (200, "CLOSED")
    async with world.service.db.autocommit() as conn:
        assert str(await conn.scalar(text("SELECT winning_bid_id FROM slots WHERE id = :s"),
                                     {"s": slot["id"]})) == bids[1]
        # the brand's answer is not the creator's decision: the creator's response time does not count it
        assert await conn.scalar(text("SELECT decided_at FROM bids WHERE id = :b"), {"b": bids[1]}) is None
    # the slot is sold again: nothing left to offer, and the creator's list is empty
    assert (await world.http.get("/influencer/bids/second-chances", headers=creator)).json() == []
    assert (await offer(world, creator, bids[0])).json()["code"] == "not_the_winner"


async def test_a_winner_that_did_not_pay_can_be_passed_on_and_a_decline_frees_the_next_runner_up(world):
    creator, slot, buyers, bids = await closed_auction(world)
    assert (await offer(world, creator, bids[0])).json()["code"] == "winner_not_fallen"  # still waiting
    await world.http.post(f"/influencer/approvals/{bids[0]}", json={"status": "APPROVED"}, headers=creator)
    assert (await offer(world, creator, bids[0])).json()["code"] == "winner_not_fallen"  # approved, may still pay
    payment = uuid.uuid4()
    ids = {"payment_id": payment, "bid_id": uuid.UUID(bids[0]), "buyer_id": uuid.UUID(buyers[0]["x-user"]),
           "creator_id": uuid.UUID(creator["x-user"])}
    await world.deliver(p.PaymentRequested(**ids, amount_cents=20000, expires_at=world.clock.now))
    await world.deliver(p.PaymentExpired(**ids))

    assert (await offer(world, creator, bids[0])).status_code == 200
    second = await offer(world, creator, bids[0])
    assert (second.status_code, second.json()["code"]) == (409, "offer_open")
    declined = await world.http.post(f"/buyer/bids/{bids[1]}/decline-offer", headers=buyers[1])
    assert (declined.status_code, declined.json()["status"]) == (200, "EXPIRED")
    [told] = await outbox_of(world, m.OfferDeclined.event_type)
    assert told["reason"] == "DECLINED"
    again = await world.http.post(f"/buyer/bids/{bids[1]}/accept-offer", headers=buyers[1])
    assert (again.status_code, again.json()["code"]) == (409, "no_offer")

    nxt = await offer(world, creator, bids[0])  # once per runner-up: the next one, at its own amount
    assert (nxt.json()["id"], nxt.json()["amountOffered"]) == (bids[2], 150)
    assert (await world.http.post(f"/buyer/bids/{bids[2]}/decline-offer", headers=buyers[2])).status_code == 200
    none_left = await offer(world, creator, bids[0])
    assert (none_left.status_code, none_left.json()["code"]) == (409, "no_runner_up")


async def test_only_the_slots_creator_offers_and_only_the_offered_brand_answers(world):
    creator, slot, buyers, bids = await rejected_winner(world)
    stranger, _ = await world.creator(posts=1)
    assert (await offer(world, stranger, bids[0])).status_code == 404
    assert (await offer(world, creator, str(uuid.uuid4()))).status_code == 404
    assert (await offer(world, creator, "not-a-uuid")).status_code == 422
    assert (await offer(world, buyers[1], bids[0])).status_code == 403  # a brand cannot
    await offer(world, creator, bids[0])
    assert (await world.http.post(f"/buyer/bids/{bids[1]}/accept-offer", headers=buyers[2])).status_code == 404
    assert (await world.http.post(f"/buyer/bids/{bids[2]}/accept-offer", headers=buyers[2])).json()["code"] \
        == "no_offer"


async def test_an_offer_lapses_after_its_window_and_cannot_be_accepted_after(world):
    creator, slot, buyers, bids = await rejected_winner(world)
    await offer(world, creator, bids[0])
    job = OfferLapses(world.service.db, world.service.state["settings"], world.clock)
    assert await job.run_once() == 0
    world.clock.advance(hours=world.service.state["settings"].second_chance_hours)
    late = await world.http.post(f"/buyer/bids/{bids[1]}/accept-offer", headers=buyers[1])
    assert (late.status_code, late.json()["code"]) == (409, "offer_lapsed")  # before the job too
    # two runs at once (and the service's own job, which may run meanwhile): one of them lapses it
    assert sum(await asyncio.gather(job.run_once(), job.run_once())) <= 1
    assert await status_of(world, bids[1]) == "EXPIRED"
    [told] = await outbox_of(world, m.OfferDeclined.event_type)
    assert told["reason"] == "LAPSED"
    assert (await offer(world, creator, bids[0])).json()["id"] == bids[2]


async def test_two_offers_at_once_make_one_and_two_accepts_at_once_win_once(world):
    creator, slot, buyers, bids = await rejected_winner(world)
    answers = await asyncio.gather(*(offer(world, creator, bids[0]) for _ in range(10)))
    assert sorted(r.status_code for r in answers) == [200] + [409] * 9
    assert len(await outbox_of(world, m.BidOffered.event_type)) == 1
    accepts = await asyncio.gather(*(world.http.post(f"/buyer/bids/{bids[1]}/accept-offer", headers=buyers[1])
                                     for _ in range(10)),
                                   world.http.post(f"/buyer/bids/{bids[1]}/decline-offer", headers=buyers[1]))
    assert sorted(r.status_code for r in accepts).count(200) == 1
    answered = len(await outbox_of(world, m.OfferAccepted.event_type)) + len(
        await outbox_of(world, m.OfferDeclined.event_type))
    assert answered == 1
    approvals = [e for e in await outbox_of(world, m.BidApproved.event_type) if e["bidId"] == bids[1]]
    assert len(approvals) == len(await outbox_of(world, m.OfferAccepted.event_type))


async def test_a_suspended_brand_is_skipped_and_its_open_offer_withdrawn(world):
    creator, slot, buyers, bids = await rejected_winner(world, bidders=4)
    suspend = i.UserSuspended(user_id=uuid.UUID(buyers[1]["x-user"]), reason="Shill bidding",
                              operator_id=uuid.uuid4(), suspended_at=world.clock.now)
    await world.deliver(suspend)
    first = await offer(world, creator, bids[0])
    assert first.json()["id"] == bids[2]  # the suspended runner-up is passed over
    await world.deliver(i.UserSuspended(user_id=uuid.UUID(buyers[2]["x-user"]), reason="Fraud",
                                        operator_id=uuid.uuid4(), suspended_at=world.clock.now))
    assert await status_of(world, bids[2]) == "EXPIRED"  # withdrawn
    [told] = await outbox_of(world, m.OfferDeclined.event_type)
    assert told["reason"] == "WITHDRAWN"
    # a brand whose token still works for a moment cannot take it either
    restored_then = await offer(world, creator, bids[0])
    assert restored_then.json()["id"] == bids[3]
    await world.deliver(i.UserSuspended(user_id=uuid.UUID(buyers[3]["x-user"]), reason="Fraud",
                                        operator_id=uuid.uuid4(), suspended_at=world.clock.now))
    late = await world.http.post(f"/buyer/bids/{bids[3]}/accept-offer", headers=buyers[3])
    assert (late.status_code, late.json()["code"]) == (409, "no_offer")
    # a restored brand may be offered again (once per runner-up still holds: bid 1 was never offered)
    await world.deliver(i.UserRestored(user_id=uuid.UUID(buyers[1]["x-user"]), reason="Cleared",
                                       operator_id=uuid.uuid4(), restored_at=world.clock.now))
    assert (await offer(world, creator, bids[0])).json()["id"] == bids[1]


async def test_an_account_tied_to_the_creator_is_not_offered_the_slot(world):
    creator, slot, buyers, bids = await rejected_winner(world)
    shared = t.signal_hash("EMAIL", "same@person.test")
    for user in (creator["x-user"], buyers[1]["x-user"]):
        await world.deliver(i.IdentityAccountSignal(user_id=uuid.UUID(user), kind="EMAIL", value_hash=shared,
                                                    observed_at=world.clock.now))
    assert (await offer(world, creator, bids[0])).json()["id"] == bids[2]


async def campaign_world(world, *, budget: str, funded: str, status: str = "ACTIVE"):
    """A closed auction whose runner-up is a campaign's bid of `budget` (and `funded`)."""
    creator, slot, buyers, bids = await rejected_winner(world)
    campaign_id = uuid.uuid4()
    async with world.service.db.transaction() as session:
        await session.execute(text(
            "INSERT INTO campaigns (id, buyer_id, name, status, filters, budget, max_per_slot, funded, comment_text, "
            "starts_at, ends_at, version, created_at, updated_at) VALUES (:id, :buyer, 'Fitness November', :status, "
            "'{}', :budget, 300, :funded, 'Try it', :now, :ends, 1, :now, :now)"),
            {"id": campaign_id, "buyer": buyers[1]["x-user"], "status": status, "budget": Decimal(budget),
             "funded": Decimal(funded), "now": world.clock.now, "ends": world.clock.now + timedelta(days=30)})
        await session.execute(text("UPDATE bids SET campaign_id = :c WHERE id = :b"),
                              {"c": campaign_id, "b": bids[1]})
    return creator, slot, buyers, bids, campaign_id


async def deliver_own(world, event_type: str) -> None:
    """Marketplace's own events that marketplace consumes, as the bus would deliver them."""
    for data in await outbox_of(world, event_type):
        await world.deliver(m.BidOffered.model_validate(data), source="marketplace")


async def test_a_campaigns_runner_up_accepts_within_its_budget(world):
    creator, slot, buyers, bids, campaign_id = await campaign_world(world, budget="500", funded="500")
    assert (await offer(world, creator, bids[0])).status_code == 200
    await deliver_own(world, m.BidOffered.event_type)
    assert await status_of(world, bids[1]) == "APPROVED"
    [approved] = [e for e in await outbox_of(world, m.BidApproved.event_type) if e["bidId"] == bids[1]]
    assert approved["campaignId"] == str(campaign_id)  # payments draws it from the campaign's balance
    [figures] = await outbox_of(world, "marketplace.campaign.updated.v1")  # its committed rose by the price
    assert (figures["campaignId"], figures["committedCents"], figures["version"]) == (str(campaign_id), 20000, 2)
    await deliver_own(world, m.BidOffered.event_type)  # redelivered: nothing more
    assert len(await outbox_of(world, m.OfferAccepted.event_type)) == 1


@pytest.mark.parametrize(("funded", "status"), [("150", "ACTIVE"), ("500", "PAUSED")])
async def test_a_campaign_declines_what_its_budget_or_its_state_cannot_take(world, funded, status):
    creator, slot, buyers, bids, campaign_id = await campaign_world(world, budget="500", funded=funded,
                                                                   status=status)
    await offer(world, creator, bids[0])
    await deliver_own(world, m.BidOffered.event_type)
    assert await status_of(world, bids[1]) == "EXPIRED"
    [told] = await outbox_of(world, m.OfferDeclined.event_type)
    assert told["reason"] == "OVER_BUDGET"
    nxt = await offer(world, creator, bids[0])
    assert nxt.json()["id"] == bids[2]


async def test_a_brand_cannot_accept_its_campaigns_offer_past_the_budget_by_hand(world):
    creator, slot, buyers, bids = await rejected_winner(world)
    await offer(world, creator, bids[0])  # offered as a brand's own bid: no campaign answers it
    campaign_id = uuid.uuid4()
    async with world.service.db.transaction() as session:  # ... and found to be a campaign's when answered
        await session.execute(text(
            "INSERT INTO campaigns (id, buyer_id, name, status, filters, budget, max_per_slot, funded, comment_text, "
            "starts_at, ends_at, version, created_at, updated_at) VALUES (:id, :buyer, 'Fitness November', "
            "'ACTIVE', '{}', 500, 300, 150, 'Try it', :now, :ends, 1, :now, :now)"),
            {"id": campaign_id, "buyer": buyers[1]["x-user"], "now": world.clock.now,
             "ends": world.clock.now + timedelta(days=30)})
        await session.execute(text("UPDATE bids SET campaign_id = :c WHERE id = :b"), {"c": campaign_id, "b": bids[1]})
    by_hand = await world.http.post(f"/buyer/bids/{bids[1]}/accept-offer", headers=buyers[1])
    assert (by_hand.status_code, by_hand.json()["code"]) == (409, "campaign_budget")
    assert await status_of(world, bids[1]) == "OFFERED"  # still the brand's to decline, or to lapse


async def test_a_suspended_creators_open_offer_is_withdrawn_once_whatever_the_redeliveries(world):
    creator, slot, buyers, bids = await rejected_winner(world)
    await offer(world, creator, bids[0])
    suspended = i.UserSuspended(user_id=uuid.UUID(creator["x-user"]), reason="Fake followers",
                                operator_id=uuid.uuid4(), suspended_at=world.clock.now)
    await world.deliver(suspended)
    await world.deliver(suspended)  # a second delivery (a new envelope): nothing left to withdraw
    assert await status_of(world, bids[1]) == "EXPIRED"
    assert [e["reason"] for e in await outbox_of(world, m.OfferDeclined.event_type)] == ["WITHDRAWN"]
    late = await world.http.post(f"/buyer/bids/{bids[1]}/accept-offer", headers=buyers[1])
    assert (late.status_code, late.json()["code"]) == (409, "no_offer")


async def test_the_creators_list_holds_each_fallen_winner_with_its_own_runner_up(world):
    creator, posts = await world.creator(posts=2)
    brands = [await world.buyer(f"C{n}") for n in range(3)]
    winners = []
    for post, (loser, winner) in zip(posts, ((brands[0], brands[1]), (brands[1], brands[2])), strict=True):
        slot = await world.slot(creator, post, minBid=10)
        lost = (await world.bid(loser, slot["id"], 20)).json()["id"]
        won = (await world.bid(winner, slot["id"], 30)).json()["id"]
        await world.http.post(f"/influencer/pin-slots/{slot['id']}/end-auction", headers=creator)
        await world.http.post(f"/influencer/approvals/{won}", json={"status": "REJECTED"}, headers=creator)
        winners.append((won, lost))
    listed = (await world.http.get("/influencer/bids/second-chances", headers=creator)).json()
    assert sorted((c["fallen"]["id"], c["runnerUp"]["id"], c["runnerUpPrice"]) for c in listed) == sorted(
        (won, lost, 20) for won, lost in winners)
    other, _ = await world.creator(posts=1)
    assert (await world.http.get("/influencer/bids/second-chances", headers=other)).json() == []


async def fill_the_post(world, creator, slot) -> None:
    """The post listed again and sold three times: each winner holds one of its pins."""
    for n in range(3):
        again = await world.slot(creator, slot["post"]["instagramId"], minBid=10)
        won = await world.bid(await world.buyer(f"R{n}"), again["id"], 20)
        assert won.status_code == 201, won.text
        await world.http.post(f"/influencer/pin-slots/{again['id']}/end-auction", headers=creator)


async def test_no_offer_once_the_posts_three_pins_are_taken_by_its_relisted_slots(world):
    creator, slot, buyers, bids = await rejected_winner(world)
    await fill_the_post(world, creator, slot)
    refused = await offer(world, creator, bids[0])
    assert (refused.status_code, refused.json()["code"]) == (409, "post_full")
    assert await status_of(world, bids[1]) == "EXPIRED"


async def test_an_offer_cannot_be_taken_once_the_posts_pins_are_taken_meanwhile(world):
    creator, slot, buyers, bids = await rejected_winner(world)
    await offer(world, creator, bids[0])
    await fill_the_post(world, creator, slot)
    refused = await world.http.post(f"/buyer/bids/{bids[1]}/accept-offer", headers=buyers[1])
    assert (refused.status_code, refused.json()["code"]) == (409, "post_full")


async def test_an_accepted_offer_left_unpaid_falls_through_in_turn_and_the_next_runner_up_is_offered(world):
    creator, slot, buyers, bids = await rejected_winner(world)
    await offer(world, creator, bids[0])
    await world.http.post(f"/buyer/bids/{bids[1]}/accept-offer", headers=buyers[1])
    ids = {"payment_id": uuid.uuid4(), "bid_id": uuid.UUID(bids[1]), "buyer_id": uuid.UUID(buyers[1]["x-user"]),
           "creator_id": uuid.UUID(creator["x-user"])}
    await world.deliver(p.PaymentRequested(**ids, amount_cents=20000, expires_at=world.clock.now))
    await world.deliver(p.PaymentExpired(**ids))
    assert (await offer(world, creator, bids[0])).json()["code"] == "not_the_winner"  # the slot's winner moved on
    nxt = await offer(world, creator, bids[1])
    assert (nxt.status_code, nxt.json()["id"], nxt.json()["amountOffered"]) == (200, bids[2], 150)
