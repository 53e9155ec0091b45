"""What happens to a campaign's balance: paid in through Checkout, drawn for an approved win, taken back by the
provider (a refund made there, a dispute), returned to the brand at the end. Each function runs inside the
caller's transaction, takes the campaign's row lock first (the one order every movement of its money follows:
campaign, then its funding payments) and adds the events it causes to the caller's `events`, as settlement.py
does for a payment."""

import logging
import uuid
from datetime import datetime, timedelta

from pinbid_kit.events import EventData
from pinbid_kit.events.marketplace import BidApproved
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from . import bookkeeping, events_out
from .domain import ledger
from .domain.campaigns import Refundable, covers, return_plan, reversal_from_balance
from .domain.money import Split
from .domain.retries import retry_delay
from .models import Campaign, CampaignFunding, Earning, Payment
from .ports import CheckoutProvider, ProviderError

log = logging.getLogger("pinbid.payments.campaigns")
Events = list[EventData]


async def locked(session: AsyncSession, campaign_id: uuid.UUID) -> Campaign | None:
    return await session.get(Campaign, campaign_id, with_for_update=True, populate_existing=True)


async def locked_funding(session: AsyncSession, funding_id: uuid.UUID) -> CampaignFunding | None:
    return await session.get(CampaignFunding, funding_id, with_for_update=True, populate_existing=True)


async def lock_payer(session: AsyncSession, payment: Payment) -> Campaign | None:
    """Before a refund of a drawn win is booked (back to its campaign's balance): the campaign's lock, taken before
    the balance moves, as every movement of the balance does (a settlement running at once waits, never
    deadlocks)."""
    return await locked(session, payment.campaign_id) if payment.campaign_id is not None else None


async def refunded_after_settled(session: AsyncSession, events: Events, campaign: Campaign | None, payment: Payment,
                                 provider: CheckoutProvider, *, kind: str, now: datetime) -> None:
    """A drawn win refunded after its campaign's rest went back: the refund landed in the balance, which goes back
    to the brand at once."""
    if campaign is not None and campaign.settled_at is not None and await balance(session, campaign) > 0:
        await give_back(session, events, campaign, provider,
                        key=f"campaign-returned-{campaign.id}-{payment.id}-{kind}", now=now)


async def balance(session: AsyncSession, campaign: Campaign) -> int:
    return await bookkeeping.balance(session, ledger.campaign_balance(campaign.id))


async def funded(session: AsyncSession, events: Events, campaign: Campaign, funding: CampaignFunding, *,
                 session_id: str, payment_intent: str | None, now: datetime, provider: CheckoutProvider) -> str:
    """The funding's checkout was paid: its amount joins the balance, once. A funding whose session expired here
    first is paid all the same (the money is in); one paid after the campaign's rest went back goes back too."""
    if funding.status == "COMPLETED":
        return "ignored: funding already paid"
    funding.status, funding.completed_at = "COMPLETED", now
    funding.provider_session_id, funding.payment_intent = session_id, payment_intent
    campaign.funded_cents += funding.amount_cents
    await bookkeeping.post(session, ledger.campaign_funded(campaign.id, campaign.buyer_id, funding.amount_cents))
    events.append(events_out.campaign_funded(campaign, funding, balance_cents=await balance(session, campaign)))
    if campaign.settled_at is not None:
        log.warning("campaign %s was paid into (funding %s) after its rest went back: returned", campaign.id,
                    funding.id)
        await give_back(session, events, campaign, provider, key=f"campaign-returned-{campaign.id}-{funding.id}",
                        now=now)
        return "funded after the campaign ended: returned"
    return "funded"


async def reversed_at_provider(session: AsyncSession, events: Events, campaign: Campaign, funding: CampaignFunding,
                               cents: int, *, disputed: bool) -> str:
    """The provider took `cents` of a funding payment back without us (a refund made at the provider, a bank's
    dispute): the balance gives what it still holds, the rest (already spent on wins) is the platform's loss, and
    marketplace hears of it and ends the campaign."""
    cents = min(cents, funding.amount_cents - funding.returned_cents - funding.reversed_cents)
    if cents <= 0:
        return "ignored: nothing of the funding is left to take back"
    before = await balance(session, campaign)
    from_balance = reversal_from_balance(cents, before)
    await bookkeeping.post(session, ledger.campaign_funding_reversed(campaign.id, campaign.buyer_id, cents,
                                                                     from_balance=from_balance))
    key = f"campaign-reversed-{funding.id}-{funding.reversed_cents}"
    funding.reversed_cents += cents
    if disputed:
        funding.disputed_cents += cents
    campaign.reversed_cents += cents
    campaign.funded_cents -= cents
    if from_balance < cents:
        log.error("campaign %s: %d cents of funding %s taken back at the provider were already spent (a loss)",
                  campaign.id, cents - from_balance, funding.id)
    events.append(events_out.campaign_funding_reversed(campaign, funding, cents, balance_cents=before - from_balance,
                                                       key=key))
    return "funding disputed" if disputed else "funding refunded at the provider"


async def funding_refunded(session: AsyncSession, events: Events, campaign: Campaign, funding: CampaignFunding,
                           refunded_cents: int) -> str:
    """Stripe's `amount_refunded` is all that was refunded of the charge: what Pinbid returned itself (and what an
    earlier reversal already booked) is only echoed; anything beyond it was refunded at the provider by someone
    else."""
    known = funding.returned_cents + funding.reversed_cents - funding.disputed_cents
    if refunded_cents <= known:
        return "ignored: a refund Pinbid made or booked"
    return await reversed_at_provider(session, events, campaign, funding, refunded_cents - known, disputed=False)


async def draw(session: AsyncSession, events: Events, approved: BidApproved, money: Split, *, now: datetime,
               pin_deadline: timedelta) -> bool:
    """Pay a campaign's approved win from its balance: a payment COMPLETED without a checkout, the ledger's
    `campaign_drawn` (the fee and the creator's pending earning as for a paid checkout), the creator's earning,
    `payments.payment.completed.v1` and `payments.campaign.drawn.v1`. False when the balance does not cover it
    (the caller opens an ordinary payment request). A bid that already has a payment is not drawn twice."""
    campaign = await locked(session, approved.campaign_id)
    if campaign is None:
        log.warning("bid %s of campaign %s approved before payments knew the campaign: paid by checkout",
                    approved.bid_id, approved.campaign_id)
        return False
    if await session.scalar(select(Payment.id).where(Payment.bid_id == approved.bid_id)) is not None:
        log.info("bid %s already has a payment", approved.bid_id)
        return True
    before = await balance(session, campaign)
    if not covers(before, money.total_cents):
        log.warning("campaign %s's balance (%d cents) does not cover bid %s (%d cents): paid by checkout",
                    campaign.id, before, approved.bid_id, money.total_cents)
        return False
    payment = Payment(
        id=uuid.uuid4(), bid_id=approved.bid_id, slot_id=approved.slot_id, slot_title=approved.slot_title,
        buyer_id=approved.buyer_id, creator_id=approved.creator_id, price_cents=money.price_cents,
        fee_cents=money.fee_cents, creator_cents=money.creator_cents, buyer_fee_cents=money.buyer_fee_cents,
        amount_cents=money.total_cents, currency=approved.currency.upper(), status="COMPLETED", expires_at=now,
        completed_at=now, pin_deadline_at=now + pin_deadline, campaign_id=campaign.id)
    session.add(payment)
    await session.flush()
    await bookkeeping.post(session, ledger.campaign_drawn(payment.id, campaign.id, payment.creator_id, money),
                           payment_id=payment.id)
    session.add(Earning.pending_of(payment, now))
    campaign.drawn_cents += money.total_cents
    events.append(events_out.payment_completed(payment, payment.pin_deadline_at))
    events.append(events_out.campaign_drawn(campaign, payment, balance_cents=before - money.total_cents))
    return True


async def settle(session: AsyncSession, events: Events, campaign: Campaign, *, spent_cents: int, now: datetime,
                 provider: CheckoutProvider) -> str:
    """The campaign ended with nothing committed: what is left of its balance goes back to the brand, once."""
    if campaign.settled_at is not None:
        return "ignored: already settled"
    if spent_cents != campaign.drawn_cents:
        log.warning("campaign %s settled with %d cents spent, %d drawn here", campaign.id, spent_cents,
                    campaign.drawn_cents)
    campaign.settled_at = now
    return await give_back(session, events, campaign, provider, key=f"campaign-returned-{campaign.id}", now=now)


async def give_back(session: AsyncSession, events: Events, campaign: Campaign, provider: CheckoutProvider, *,
                    key: str, now: datetime) -> str:
    """Refund the whole balance through the provider, newest funding payment first, each in part where needed; book
    what the provider took (`campaign_returned`) and announce it, also when nothing was left (the end is recorded).
    A refusal stops there: what was refunded is booked all the same (the money left), the rest waits for the return
    job (`return_next_at`, a growing delay). Each refund's key names the funding and what it had returned before, so
    a refused one is asked again under the same key. `key`: the event's idempotency key."""
    left = await balance(session, campaign)
    returned = 0
    if left > 0:
        fundings = list(await session.scalars(
            select(CampaignFunding).where(CampaignFunding.campaign_id == campaign.id,
                                          CampaignFunding.status == "COMPLETED")
            .order_by(CampaignFunding.completed_at.desc(), CampaignFunding.created_at.desc()).with_for_update()))
        by_id = {f.id: f for f in fundings}
        plan = return_plan(left, [Refundable(f.id, f.amount_cents - f.returned_cents - f.reversed_cents)
                                  for f in fundings])
        for funding_id, cents in plan:
            funding = by_id[funding_id]
            if funding.payment_intent:
                try:
                    await provider.refund(funding.payment_intent,
                                          f"campaign-return-{funding.id}-{funding.returned_cents}", amount_cents=cents)
                except ProviderError as exc:
                    log.warning("return of campaign %s refused by the provider, will retry: %s", campaign.id, exc)
                    break
            funding.returned_cents += cents
            returned += cents
        if returned > 0:
            await bookkeeping.post(session, ledger.campaign_returned(campaign.id, campaign.buyer_id, returned))
            campaign.returned_cents += returned
    if returned < left:
        campaign.return_attempts += 1
        campaign.return_next_at = now + retry_delay(campaign.return_attempts)
    else:
        campaign.return_attempts, campaign.return_next_at = 0, None
    if returned > 0 or left == 0:
        events.append(events_out.campaign_returned(campaign, returned, balance_cents=left - returned, key=key))
    return f"returned {returned} of {left} cents"
