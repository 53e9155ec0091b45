"""Notices of campaigns and second-chance offers (issue 36): a campaign's win names the campaign, a campaign's change
to out of budget or ended is told once (the last version seen decides: redeliveries and older versions tell
nothing), an offer is told to its brand and its answer to the creator."""

import asyncio
import uuid
from datetime import timedelta

from pinbid_kit.events import campaigns as c
from pinbid_kit.events import marketplace as m

from .test_notices_and_mail import notes, person
from .test_notifications import envelope


def campaign(buyer, campaign_id, version, status, **fields):
    values = {"name": "Fitness November", "budget_cents": 200000, "committed_cents": 150000, "spent_cents": 64000,
              **fields}
    return envelope(c.CampaignUpdated(campaign_id=campaign_id, buyer_id=buyer, status=status, version=version,
                                      **values))


async def test_a_campaigns_win_names_the_campaign_and_links_to_it(web, quiet):
    creator, creator_token = await person(web, "INFLUENCER")
    buyer, buyer_token = await person(web)
    campaign_id, slot = uuid.uuid4(), uuid.uuid4()
    await quiet.consumers.dispatch(campaign(buyer, campaign_id, 1, "ACTIVE"), {})
    await quiet.consumers.dispatch(envelope(m.AuctionClosed(
        slot_id=slot, slot_title="Leg day", creator_id=creator, outcome="SOLD", winning_bid_id=uuid.uuid4(),
        winner_id=buyer, final_price_cents=8000, campaign_id=campaign_id)), {})
    [won] = await notes(web, buyer_token)
    assert (won["kind"], won["title"], won["link"]) == ("campaign.won", "Your campaign won a slot",
                                                         f"/campaigns/{campaign_id}")
    assert won["message"].startswith("Your campaign “Fitness November” won “Leg day” at $80.00.")
    assert [n["kind"] for n in await notes(web, creator_token)] == ["auction.approve"]  # the creator: as any win


async def test_only_a_change_of_status_is_told_once_whatever_the_redeliveries_or_their_order(web, quiet):
    buyer, token = await person(web)
    campaign_id = uuid.uuid4()
    active, out, back, ended = (campaign(buyer, campaign_id, 1, "ACTIVE"),
                                campaign(buyer, campaign_id, 2, "OUT_OF_BUDGET", committed_cents=200000),
                                campaign(buyer, campaign_id, 3, "ACTIVE"),
                                campaign(buyer, campaign_id, 5, "ENDED", reason="ends_at"))
    for event in (active, out, out, active):  # a redelivery, and an older version after a newer
        await quiet.consumers.dispatch(event, {})
    told = await notes(web, token)
    assert [n["kind"] for n in told] == ["campaign.out_of_budget"]
    assert "has committed $2,000.00 of its $2,000.00 budget" in told[0]["message"]
    await quiet.consumers.dispatch(ended, {})
    await quiet.consumers.dispatch(back, {})  # older than the end: nothing, and the end stays the last seen
    await quiet.consumers.dispatch(campaign(buyer, campaign_id, 6, "ENDED", reason="ends_at"), {})  # unchanged
    told = await notes(web, token)
    assert [n["kind"] for n in told] == ["campaign.ended", "campaign.out_of_budget"]
    assert "“Fitness November” ended: its end date passed. It spent $640.00" in told[0]["message"]


async def test_versions_delivered_at_once_tell_each_change_once(web, quiet):
    buyer, token = await person(web)
    campaign_id = uuid.uuid4()
    events = [campaign(buyer, campaign_id, v, "ENDED" if v == 4 else "OUT_OF_BUDGET") for v in range(1, 5)]
    await asyncio.gather(*(quiet.consumers.dispatch(e, {}) for e in events * 3))
    kinds = [n["kind"] for n in await notes(web, token)]
    # whatever the order they were applied in, ENDED is told exactly once and OUT_OF_BUDGET at most once
    assert kinds.count("campaign.ended") == 1 and kinds.count("campaign.out_of_budget") <= 1


async def test_an_offer_is_told_to_its_brand_and_its_answer_to_the_creator(web, quiet, clock):
    creator, creator_token = await person(web, "INFLUENCER")
    buyer, buyer_token = await person(web)
    bid, slot = uuid.uuid4(), uuid.uuid4()
    ids = {"bid_id": bid, "slot_id": slot, "slot_title": "Leg day", "creator_id": creator, "buyer_id": buyer}
    await quiet.consumers.dispatch(envelope(m.BidOffered(**ids, fallen_bid_id=uuid.uuid4(), price_cents=12000,
                                                         expires_at=clock.now + timedelta(hours=48))), {})
    [offered] = await notes(web, buyer_token)
    assert (offered["kind"], offered["link"]) == ("offer.made", "/my-bids")
    assert "offers the slot to you at your own maximum, $120.00. Accept or decline by" in offered["message"]
    await quiet.consumers.dispatch(envelope(m.OfferAccepted(**ids, buyer_name="Leo Brand", price_cents=12000)), {})
    [accepted] = await notes(web, creator_token)
    assert (accepted["kind"], accepted["link"]) == ("offer.accepted", f"/approvals#bid-{bid}")
    assert accepted["message"].startswith("Leo Brand took “Leg day” at $120.00.")
    await quiet.consumers.dispatch(envelope(m.OfferDeclined(**ids, reason="LAPSED", price_cents=12000)), {})
    declined = (await notes(web, creator_token))[0]
    assert declined["kind"] == "offer.declined" and "did not answer your offer in time" in declined["message"]


async def test_a_campaigns_offer_is_not_told_but_what_its_campaign_did_is(web, quiet, clock):
    creator, creator_token = await person(web, "INFLUENCER")
    buyer, buyer_token = await person(web)
    campaign_id = uuid.uuid4()
    ids = {"bid_id": uuid.uuid4(), "slot_id": uuid.uuid4(), "slot_title": "Leg day", "creator_id": creator,
           "buyer_id": buyer}
    await quiet.consumers.dispatch(envelope(m.BidOffered(**ids, fallen_bid_id=uuid.uuid4(), price_cents=12000,
                                                         expires_at=clock.now, campaign_id=campaign_id)), {})
    assert await notes(web, buyer_token) == []  # the campaign answers at once
    await quiet.consumers.dispatch(envelope(m.OfferAccepted(**ids, buyer_name="Leo Brand", price_cents=12000,
                                                            campaign_id=campaign_id)), {})
    [took] = await notes(web, buyer_token)
    assert (took["kind"], took["link"]) == ("offer.accepted", f"/campaigns/{campaign_id}")
    assert [n["kind"] for n in await notes(web, creator_token)] == ["offer.accepted"]
