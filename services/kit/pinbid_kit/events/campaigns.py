"""Campaigns (issue 36): a brand's budget bid across every slot that fits. Marketplace owns the campaign, its
matching and its bids, and reserves the budget when it bids; payments owns the campaign's money: funded through
Checkout, drawn when a win is approved, the rest returned to the brand through the provider."""

import uuid
from typing import Literal

from .catalog import EventData, event

CampaignStatus = Literal["DRAFT", "ACTIVE", "PAUSED", "OUT_OF_BUDGET", "ENDED"]


@event("marketplace.campaign.updated.v1")
class CampaignUpdated(EventData):
    """A campaign as it stands after any change (created, edited, paused, resumed, out of budget, ended).
    `version` rises with every change: a consumer keeps the highest it has seen. `committedCents` is what the
    campaign has reserved (the maxima of its live bids plus its wins), `spentCents` what its paid wins cost."""

    campaign_id: uuid.UUID
    buyer_id: uuid.UUID
    name: str
    status: CampaignStatus
    budget_cents: int
    committed_cents: int
    spent_cents: int
    currency: str = "USD"
    version: int
    # why it stopped bidding: "paused", "budget", "ends_at", "ended_by_brand", "funding_reversed", "suspended"
    reason: str | None = None


@event("marketplace.campaign.settled.v1")
class CampaignSettled(EventData):
    """An ended campaign has nothing committed left (every bid lost, cancelled or paid): payments returns what is
    left of its balance to the brand. `spentCents` is the sum of its wins drawn from the balance."""

    campaign_id: uuid.UUID
    buyer_id: uuid.UUID
    spent_cents: int
    currency: str = "USD"


@event("marketplace.campaign.bid_outbid.v1")
class CampaignBidOutbid(EventData):
    """A campaign's bid lost the lead, written beside its `marketplace.bid.outbid.v1`: marketplace's own cue to cancel
    it and release its ceiling (a bid of a person's costs marketplace no delivery)."""

    campaign_id: uuid.UUID
    bid_id: uuid.UUID
    slot_id: uuid.UUID


@event("marketplace.campaign.own_bid_cancelled.v1")
class OwnBidCancelled(EventData):
    """A brand cancelled its own bid (not a campaign's) on a slot: marketplace's own cue to let the brand's ACTIVE
    campaigns that skipped the slot for that bid (`OWN_BID`) bid on it after all."""

    buyer_id: uuid.UUID
    bid_id: uuid.UUID
    slot_id: uuid.UUID


class CampaignMoney(EventData):
    """Money of a campaign's balance: what the payments events about a campaign carry first. For finance: amounts in
    minor units; `balanceCents` is the balance after the movement."""

    campaign_id: uuid.UUID
    buyer_id: uuid.UUID
    amount_cents: int
    balance_cents: int
    currency: str = "USD"
    # the movement's own key, the same however often the event is delivered (finance books each key once)
    idempotency_key: str | None = None


@event("payments.campaign.funded.v1")
class CampaignFunded(CampaignMoney):
    """The brand paid into the campaign's balance through Checkout. `fundedCents` is all it has paid in so far:
    marketplace bids up to the smaller of the budget and this."""

    payment_id: uuid.UUID
    funded_cents: int


@event("payments.campaign.drawn.v1")
class CampaignDrawn(CampaignMoney):
    """A campaign's win, approved by the creator, was paid from its balance (no checkout of its own); the payment
    `paymentId` of bid `bidId` is completed by the same transaction."""

    payment_id: uuid.UUID
    bid_id: uuid.UUID


@event("payments.campaign.returned.v1")
class CampaignReturned(CampaignMoney):
    """What was left of an ended campaign's balance went back to the brand through the provider."""


@event("payments.campaign.funding_reversed.v1")
class CampaignFundingReversed(CampaignMoney):
    """The provider took a funding payment back (refunded or disputed at the bank): the campaign stops bidding."""

    payment_id: uuid.UUID
    funded_cents: int
