"""Bids from a creator's associates (issue 22): a hard signal shared with the creator refuses the bid (403
associated_account, one statement); soft signals and bid patterns raise a flag an operator lists and clears. The
issue's shill: a creator's second brand account bids 100, 200, 300, 395 against an honest brand whose hidden
maximum is 400."""

import asyncio
import uuid
from datetime import UTC, datetime

from pinbid_kit.events import identity as i
from pinbid_kit.events import payments as p
from pinbid_kit.events import social as s
from pinbid_kit.events.trust import signal_hash
from pinbid_testing import counting_statements, eventually
from sqlalchemy import text

from .conftest import snapshot


async def signal(world, event, user: dict, kind: str, value: str) -> None:
    await world.deliver(event(user_id=uuid.UUID(user["x-user"]), kind=kind, value_hash=signal_hash(kind, value),
                              observed_at=datetime.now(UTC)))


def operator(world) -> dict[str, str]:
    return world.auth(uuid.uuid4(), "OPERATOR")


async def flags_of(world, status: str | None = None, *, wait_for: int = 0) -> list[dict]:
    """The flags as an operator sees them; waits (up to 10 s) until there are `wait_for` of them: marketplace
    reviews a closed auction when it hears its own AuctionClosed through the bus."""
    query = f"?status={status}" if status else ""
    listed: list[dict] = []

    async def enough() -> bool:
        nonlocal listed
        response = await world.http.get(f"/ops/flags{query}", headers=operator(world))
        assert response.status_code == 200, response.text
        listed = response.json()
        return len(listed) >= wait_for

    await eventually(enough, within=10)
    return listed


async def reviewed(world, slot_id: str) -> None:
    """Waits until marketplace reviewed the slot's bidders (its own AuctionClosed handled through the inbox): what
    the review flags is there from then on, and what it does not is never coming."""
    async def done() -> bool:
        async with world.service.db.autocommit() as conn:
            return (await conn.execute(text(
                "SELECT 1 FROM inbox JOIN outbox ON outbox.id = inbox.event_id "
                "WHERE inbox.handler = 'marketplace.review_bidders' AND outbox.envelope->'data'->>'slotId' = :slot"),
                {"slot": slot_id})).first() is not None

    await eventually(done, within=10)


async def shill_auction(world, creator, post, shill, honest) -> dict:
    slot = await world.slot(creator, post, minBid=10)
    assert (await world.bid(honest, slot["id"], 50, autoBidEnabled=True, maxAutoBid=400)).status_code == 201
    for amount in (100, 200, 300, 395):
        placed = await world.bid(shill, slot["id"], amount)
        assert placed.status_code == 201, placed.text
    return slot


async def test_a_bidder_holding_the_creators_instagram_account_is_refused_in_one_statement_and_nothing_changes(world):
    creator, posts = await world.creator(posts=2)
    shill, honest = await world.buyer("Second"), await world.buyer("Honest")
    for user in (creator, shill):
        await signal(world, s.SocialAccountSignal, user, "INSTAGRAM_ACCOUNT", "ig-of-maya")
    slot = await world.slot(creator, posts[0], minBid=10, buyNowPrice=500)
    assert (await world.bid(honest, slot["id"], 50, autoBidEnabled=True, maxAutoBid=400)).status_code == 201

    before = await snapshot(world)
    with counting_statements(world.service.db) as counted:
        refused = await world.bid(shill, slot["id"], 100)
    assert refused.status_code == 403
    assert refused.json()["code"] == "associated_account"
    assert refused.json()["detail"] == ("This account is tied to the creator of this slot (same Instagram account), "
                                        "so it cannot bid on their slots.")
    assert len(counted.statements) == 1 and "FOR UPDATE" not in counted.statements[0]
    assert await snapshot(world) == before

    # Buy Now too (on a slot without bids), and the honest brand is not touched by it
    other = await world.slot(creator, posts[1], minBid=10, buyNowPrice=500)
    before = await snapshot(world)
    bought = await world.http.post("/buyer/buy-now", json={"pinSlotId": other["id"]}, headers=shill)
    assert bought.status_code == 403 and bought.json()["code"] == "associated_account"
    assert await snapshot(world) == before
    assert (await world.bid(honest, other["id"], 20)).status_code == 201


async def test_a_shared_mailbox_refuses_too_and_one_roles_signals_and_soft_ones_do_not(world):
    creator, posts = await world.creator(posts=1)
    mailbox, payout, card, device = (await world.buyer("M"), await world.buyer("P"), await world.buyer("C"),
                                     await world.buyer("D"))
    await signal(world, i.IdentityAccountSignal, creator, "EMAIL", "maya@creator.test")
    await signal(world, p.PaymentsAccountSignal, mailbox, "EMAIL", "maya@creator.test")
    # a payout account (creators) and a card (brands) are each held in one role only: they never bar a bid
    await signal(world, p.PaymentsAccountSignal, creator, "PAYOUT_ACCOUNT", "acct_1")
    await signal(world, p.PaymentsAccountSignal, payout, "PAYOUT_ACCOUNT", "acct_1")
    await signal(world, p.PaymentsAccountSignal, creator, "CARD", "fp_9")
    await signal(world, p.PaymentsAccountSignal, card, "CARD", "fp_9")
    await signal(world, i.IdentityAccountSignal, creator, "DEVICE", "dev-1")
    await signal(world, i.IdentityAccountSignal, device, "DEVICE", "dev-1")
    await signal(world, i.IdentityAccountSignal, device, "DEVICE", "dev-1")  # seen again: one row
    slot = await world.slot(creator, posts[0], minBid=10)
    refused = await world.bid(mailbox, slot["id"], 20)
    assert refused.status_code == 403 and "same email address" in refused.json()["detail"]
    assert (await world.bid(payout, slot["id"], 20)).status_code == 201
    assert (await world.bid(card, slot["id"], 21)).status_code == 201
    assert (await world.bid(device, slot["id"], 22)).status_code == 201  # a soft signal never refuses
    async with world.service.db.autocommit() as conn:
        assert await conn.scalar(text("SELECT count(*) FROM account_signals WHERE kind = 'DEVICE'")) == 2


async def test_the_shill_with_only_soft_signals_is_flagged_with_reasons_and_the_honest_brand_is_not(world):
    creator, posts = await world.creator(posts=1)
    shill, honest = await world.buyer("Second"), await world.buyer("Honest")
    await signal(world, i.IdentityAccountSignal, creator, "DEVICE", "phone-1")
    await signal(world, i.IdentityAccountSignal, shill, "DEVICE", "phone-1")
    slot = await shill_auction(world, creator, posts[0], shill, honest)
    ended = await world.http.post(f"/influencer/pin-slots/{slot['id']}/end-auction", headers=creator)
    assert ended.status_code == 200 and ended.json()["currentBid"] == 395  # the second price, charged

    [flag] = await flags_of(world, "OPEN", wait_for=1)
    assert (flag["userId"], flag["creatorId"], flag["status"]) == (shill["x-user"], creator["x-user"], "OPEN")
    assert flag["userName"] == "Second Inc" and flag["creatorName"] == "Maya"
    # the device (40), three raises without a win (20), the probe that stopped just under the winner's maximum (30)
    assert flag["score"] == 90
    assert flag["reasons"] == ["signed in from a device the creator also uses",
                               "raised its bids 3 times on this creator's auctions and never won",
                               "stopped at 395.00, just under the winner's maximum of 400.00"]


async def test_the_shill_without_any_signal_is_still_flagged_by_its_bids_and_an_operator_clears_it_once(world):
    creator, posts = await world.creator(posts=1)
    shill, honest = await world.buyer("Second"), await world.buyer("Honest")
    slot = await shill_auction(world, creator, posts[0], shill, honest)
    await world.http.post(f"/influencer/pin-slots/{slot['id']}/end-auction", headers=creator)
    [flag] = await flags_of(world, wait_for=1)
    assert flag["score"] == 50 and len(flag["reasons"]) == 2 and flag["userId"] == shill["x-user"]

    assert (await world.http.get("/ops/flags", headers=honest)).status_code == 403  # operators only
    forbidden = await world.http.post(f"/ops/flags/{flag['id']}/clear", json={"reason": "x"}, headers=creator)
    assert forbidden.status_code == 403
    first, second = await asyncio.gather(*[
        world.http.post(f"/ops/flags/{flag['id']}/clear", json={"reason": "Known agency, checked"},
                        headers=operator(world)) for _ in range(2)])
    assert sorted([first.status_code, second.status_code]) == [200, 409]
    cleared = first if first.status_code == 200 else second
    assert (cleared.json()["status"], cleared.json()["clearReason"]) == ("CLEARED", "Known agency, checked")
    assert (await world.http.get("/ops/flags?status=OPEN", headers=operator(world))).json() == []
    async with world.service.db.autocommit() as conn:
        actions = (await conn.execute(text("SELECT envelope FROM outbox WHERE type = 'marketplace.operator.acted.v1'"))
                   ).scalars().all()
    assert len(actions) == 1
    assert (actions[0]["data"]["action"], actions[0]["data"]["objectId"]) == ("flag.clear", flag["id"])
    missing = await world.http.post(f"/ops/flags/{uuid.uuid4()}/clear", json={"reason": "x"},
                                    headers=operator(world))
    assert missing.status_code == 404


async def test_an_honest_lone_maximum_just_under_the_winner_raises_no_flag(world):
    creator, posts = await world.creator(posts=1)
    first, second = await world.buyer("A"), await world.buyer("B")
    slot = await world.slot(creator, posts[0], minBid=10)
    await world.bid(first, slot["id"], 50, autoBidEnabled=True, maxAutoBid=400)
    await world.bid(second, slot["id"], 60, autoBidEnabled=True, maxAutoBid=395)  # one maximum, no probing
    await world.http.post(f"/influencer/pin-slots/{slot['id']}/end-auction", headers=creator)
    await reviewed(world, slot["id"])
    assert await flags_of(world) == []


async def test_a_live_bid_raised_after_the_tie_became_known_is_refused_too(world):
    creator, posts = await world.creator(posts=1)
    shill, honest = await world.buyer("Second"), await world.buyer("Honest")
    slot = await world.slot(creator, posts[0], minBid=10)
    assert (await world.bid(honest, slot["id"], 50, autoBidEnabled=True, maxAutoBid=400)).status_code == 201
    bid = (await world.bid(shill, slot["id"], 100)).json()  # before the tie was known
    for user in (creator, shill):
        await signal(world, s.SocialAccountSignal, user, "INSTAGRAM_ACCOUNT", "ig-shared")
    raised = await world.http.put(f"/buyer/bids/{bid['id']}", json={"amount": 200}, headers=shill)
    assert raised.status_code == 403 and raised.json()["code"] == "associated_account"
    again = await world.bid(shill, slot["id"], 200)
    assert again.status_code == 403
