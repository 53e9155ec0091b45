"""A campaign as the runner-up (issue 36, item 5; docs/decisions/campaigns.md "A campaign's released bid stays the
runner-up"): a campaign cancels its outbid bid to free the ceiling, yet the bid stays eligible for a second chance,
and the campaign answers the offer at once within its budget. A brand's own cancel stays ineligible. Real
PostgreSQL, with the relay delivering marketplace's own events to itself as in the running product."""

import asyncio
import uuid
from dataclasses import dataclass

import pytest
from pinbid_kit import outbox
from pinbid_kit.events import campaigns as ce
from pinbid_kit.events import marketplace as m
from pinbid_marketplace import SERVICE
from pinbid_testing.waiting import eventually
from sqlalchemy import text

from .test_campaign_bidding import a_campaign_bidding, bids_of, campaign, campaigns_never_release, new_campaign, settled
from .test_second_chance import offer, outbox_of, status_of


async def released_bid(world, campaign_id: str) -> str:
    """The campaign's one bid once its campaign has released it (cancelled when outbid, marked released)."""
    async def released() -> bool:
        return [r.status for r in await bids_of(world, campaign_id)] == ["CANCELLED"]
    await eventually(released)
    await settled(world)
    async with world.service.db.autocommit() as conn:
        row = (await conn.execute(text("SELECT id, released_at FROM bids WHERE campaign_id = :c"),
                                  {"c": campaign_id})).one()
    assert row.released_at is not None
    return str(row.id)


@dataclass
class Fallen:
    """A closed slot whose winner the creator rejected, and whose runner-up is a campaign's released bid."""

    creator: dict
    brand: dict
    campaign_id: str
    slot_id: str
    released: str  # the campaign's bid, released when outbid
    winner: str  # the rival's, rejected
    third: str  # a lower bid that lost at the close


async def outbid_early_then_winner_rejected(world, *, budget: int = 200, others: int = 0) -> Fallen:
    """A slot the campaign bid on (ceiling 40) and that a rival took at once (ceiling 50): the campaign released its
    bid days before the close. A third brand bid 30 before the rival (outbid at once by the campaign's proxy).
    `others` more fitting slots listed after the release take the campaign's budget. The auction closes and the
    creator rejects the rival."""
    creator, posts = await world.creator(posts=1 + others)
    slot = await world.slot(creator, posts[0], category="fitness")
    brand, rival, third = await world.buyer(), await world.buyer("Rival"), await world.buyer("Third")
    c = await new_campaign(world, brand, budget=budget)
    await eventually(lambda: _bid_count(world, c["id"], 1))
    assert (await world.bid(third, slot["id"], 30)).status_code == 201
    assert (await world.bid(rival, slot["id"], 50)).status_code == 201
    released = await released_bid(world, c["id"])
    for k in range(others):
        await world.slot(creator, posts[1 + k], category="fitness")
    await settled(world)
    ended = await world.http.post(f"/influencer/pin-slots/{slot['id']}/end-auction", headers=creator)
    assert ended.status_code == 200, ended.text
    winner = await _winner(world, slot["id"])
    assert winner == await _bid_of(world, slot["id"], rival)
    decided = await world.http.post(f"/influencer/approvals/{winner}", json={"status": "REJECTED"}, headers=creator)
    assert decided.status_code == 200, decided.text
    return Fallen(creator, brand, c["id"], slot["id"], released, winner, await _bid_of(world, slot["id"], third))


async def _bid_count(world, campaign_id: str, n: int) -> bool:
    return len(await bids_of(world, campaign_id)) == n


async def _winner(world, slot_id: str) -> str:
    async with world.service.db.autocommit() as conn:
        return str(await conn.scalar(text("SELECT winning_bid_id FROM slots WHERE id = :s"), {"s": slot_id}))


async def _bid_of(world, slot_id: str, buyer) -> str:
    async with world.service.db.autocommit() as conn:
        return str(await conn.scalar(text("SELECT id FROM bids WHERE slot_id = :s AND buyer_id = :b"),
                                     {"s": slot_id, "b": buyer["x-user"]}))


async def deliver_offers_again(world) -> None:
    for data in await outbox_of(world, m.BidOffered.event_type):
        await world.deliver(m.BidOffered.model_validate(data), source="marketplace")


async def test_a_campaign_outbid_early_is_the_runner_up_and_takes_the_offer_within_its_budget(world):
    f = await outbid_early_then_winner_rejected(world)
    [chance] = (await world.http.get("/influencer/bids/second-chances", headers=f.creator)).json()
    assert (chance["fallen"]["id"], chance["runnerUp"]["id"], chance["runnerUpPrice"]) == (f.winner, f.released, 40)

    offered = await offer(world, f.creator, f.winner)
    assert offered.status_code == 200, offered.text
    assert (offered.json()["id"], offered.json()["amountOffered"]) == (f.released, 40)
    await settled(world)  # the relay delivers the BidOffered; the campaign answers it
    assert await status_of(world, f.released) == "APPROVED"
    assert await _winner(world, f.slot_id) == f.released
    [approved] = [e for e in await outbox_of(world, m.BidApproved.event_type) if e["bidId"] == f.released]
    assert (approved["campaignId"], approved["finalPriceCents"]) == (f.campaign_id, 4000)  # drawn from the balance
    detail = await campaign(world, f.brand, f.campaign_id)
    assert (detail["committed"], detail["available"], detail["counts"]["won"]) == (40, 160, 1)

    # the offer delivered again: nothing more
    updates = len(await outbox_of(world, ce.CampaignUpdated.event_type))
    await deliver_offers_again(world)
    await settled(world)
    assert len(await outbox_of(world, m.OfferAccepted.event_type)) == 1
    assert len(await outbox_of(world, ce.CampaignUpdated.event_type)) == updates
    assert (await campaign(world, f.brand, f.campaign_id))["committed"] == 40


async def test_a_budget_that_cannot_take_the_offer_declines_and_the_next_runner_up_is_offered(world):
    # 200 of budget: after the release, five more slots take 5 x 40, so nothing is left for the offer's 40
    f = await outbid_early_then_winner_rejected(world, others=5)
    detail = await campaign(world, f.brand, f.campaign_id)
    assert (detail["status"], detail["committed"]) == ("OUT_OF_BUDGET", 200)
    assert (await offer(world, f.creator, f.winner)).json()["id"] == f.released
    await settled(world)
    assert await status_of(world, f.released) == "EXPIRED"
    [told] = await outbox_of(world, m.OfferDeclined.event_type)
    assert (told["bidId"], told["reason"]) == (f.released, "OVER_BUDGET")
    assert (await campaign(world, f.brand, f.campaign_id))["committed"] == 200  # nothing reserved past the budget
    assert (await offer(world, f.creator, f.winner)).json()["id"] == f.third


@pytest.mark.parametrize("step", ["pause", "end"])
async def test_a_paused_or_ended_campaign_declines(world, step):
    f = await outbid_early_then_winner_rejected(world)
    assert (await world.http.post(f"/buyer/campaigns/{f.campaign_id}/{step}", headers=f.brand)).status_code == 200
    await settled(world)
    await offer(world, f.creator, f.winner)
    await settled(world)
    assert await status_of(world, f.released) == "EXPIRED"
    assert [e["reason"] for e in await outbox_of(world, m.OfferDeclined.event_type)] == ["OVER_BUDGET"]


async def test_a_campaign_bid_the_brand_cancelled_by_hand_is_never_offered(world, monkeypatch):
    campaigns_never_release(world, monkeypatch)
    creator, slot, brand, c = await a_campaign_bidding(world)
    rival = await world.buyer("Rival")
    assert (await world.bid(rival, slot["id"], 50)).status_code == 201
    await settled(world)
    [(_, _, _, status, _, _)] = await bids_of(world, c["id"])
    assert status == "OUTBID"
    [bid_id] = [str(i) for i in await _ids(world, c["id"])]
    cancelled = await world.http.post(f"/buyer/bids/{bid_id}/cancel", headers=brand)
    assert cancelled.status_code == 200, cancelled.text
    await world.http.post(f"/influencer/pin-slots/{slot['id']}/end-auction", headers=creator)
    winner = await _winner(world, slot["id"])
    await world.http.post(f"/influencer/approvals/{winner}", json={"status": "REJECTED"}, headers=creator)
    refused = await offer(world, creator, winner)
    assert (refused.status_code, refused.json()["code"]) == (409, "no_runner_up")


async def _ids(world, campaign_id: str) -> list:
    async with world.service.db.autocommit() as conn:
        return list(await conn.scalars(text("SELECT id FROM bids WHERE campaign_id = :c"), {"c": campaign_id}))


async def test_fifty_accept_attempts_at_once_reserve_the_price_once(world, monkeypatch):
    chance = world.service.state["second_chance"]
    answer = chance.answer_for_campaign

    async def held(session, bid_id):  # the bus's delivery is late: the attempts below race for it
        return []
    f = await outbid_early_then_winner_rejected(world)
    monkeypatch.setattr(chance, "answer_for_campaign", held)
    await offer(world, f.creator, f.winner)
    await settled(world)
    assert await status_of(world, f.released) == "OFFERED"
    monkeypatch.setattr(chance, "answer_for_campaign", answer)

    async def campaign_answers() -> None:
        async with world.service.db.transaction() as session:
            await outbox.publish_all(session, await chance.answer_for_campaign(session, uuid.UUID(f.released)),
                                     source=SERVICE)

    async def brand_accepts() -> int:
        return (await world.http.post(f"/buyer/bids/{f.released}/accept-offer", headers=f.brand)).status_code

    answers = await asyncio.gather(*[campaign_answers() if k % 2 else brand_accepts() for k in range(50)])
    by_hand = [a for a in answers if a is not None]
    assert set(by_hand) <= {200, 409} and by_hand.count(200) <= 1
    await settled(world)
    assert await status_of(world, f.released) == "APPROVED"
    assert len([e for e in await outbox_of(world, m.BidApproved.event_type) if e["bidId"] == f.released]) == 1
    assert len(await outbox_of(world, m.OfferAccepted.event_type)) == 1
    assert len(await outbox_of(world, m.OfferDeclined.event_type)) == 0
    assert (await campaign(world, f.brand, f.campaign_id))["committed"] == 40
