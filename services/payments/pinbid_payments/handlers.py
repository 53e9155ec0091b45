"""What payments does with other services' events: module-level handlers in one map (`HANDLERS`, event type ->
its handlers), as the routes are module-level. `app.py` binds them to the `Dependencies` (`Consumers.register_map`);
each runs in its own transaction (the inbox's), adds the events it causes to `delivery.events`, and the inbox writes
them once when it returns (pinbid_kit.inbox.Delivery)."""

import logging
from dataclasses import dataclass

from pinbid_kit import inbox
from pinbid_kit.events import campaigns as c
from pinbid_kit.events import identity as i
from pinbid_kit.events import marketplace as m
from pinbid_kit.events import social as s
from sqlalchemy import select
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.ext.asyncio import AsyncSession

from . import settlement
from .campaigns import Campaigns
from .models import Payment, User
from .payment_requests import PaymentRequests

log = logging.getLogger("pinbid.payments.handlers")


@dataclass(frozen=True)
class Dependencies:
    requests: PaymentRequests
    campaigns: Campaigns


Delivery = inbox.Delivery[Dependencies]


async def request_payment(session: AsyncSession, data: m.BidApproved, delivery: Delivery) -> None:
    """A campaign's win is paid from the campaign's balance when it covers the price; any other approved bid (and
    a campaign's whose balance does not cover it, logged) gets a payment request, paid through Checkout."""
    if data.campaign_id is not None and await delivery.deps.campaigns.approved(session, delivery.events, data):
        return
    await delivery.deps.requests.open(session, delivery.events, data)


async def remember_campaign(session: AsyncSession, data: c.CampaignUpdated, delivery: Delivery) -> None:
    await delivery.deps.campaigns.remember(session, data)


async def return_campaign_rest(session: AsyncSession, data: c.CampaignSettled, delivery: Delivery) -> None:
    await delivery.deps.campaigns.settled(session, delivery.events, data)


async def payment_of(session: AsyncSession, bid_id) -> Payment | None:
    return await session.scalar(select(Payment).where(Payment.bid_id == bid_id).with_for_update())


async def first_stage(session: AsyncSession, data: s.CommentPinned, delivery: Delivery) -> None:
    payment = await payment_of(session, data.bid_id)
    released = payment is not None and await settlement.pinned(
        session, delivery.events, payment, data.pinned_at, awaits_acceptance=data.awaits_acceptance)
    if not released and not data.awaits_acceptance:
        log.warning("pin of bid %s releases nothing (payment %s)", data.bid_id,
                    payment.status if payment else "missing")


async def accepted(session: AsyncSession, data: s.PlacementAccepted, delivery: Delivery) -> None:
    payment = await payment_of(session, data.bid_id)
    if payment is not None:
        await settlement.accepted(session, delivery.events, payment, data.accepted_at)


async def disputed(session: AsyncSession, data: s.PlacementDisputed, delivery: Delivery) -> None:
    payment = await payment_of(session, data.bid_id)
    if payment is not None:
        await settlement.disputed(session, payment, data.dispute_id, data.reported_at)


async def decided(session: AsyncSession, data: s.DisputeDecided, delivery: Delivery) -> None:
    payment = await payment_of(session, data.bid_id)
    if payment is None:
        log.warning("decision %s on bid %s without a payment", data.dispute_id, data.bid_id)
        return
    await settlement.decided(session, delivery.events, payment, dispute_id=data.dispute_id, outcome=data.outcome,
                             at=data.decided_at)


async def day_kept(session: AsyncSession, data: s.PlacementKept, delivery: Delivery) -> None:
    payment = await payment_of(session, data.bid_id)
    if payment is not None:
        await settlement.kept(session, delivery.events, payment, days_kept=data.days_kept,
                              duration_days=data.duration_days, at=data.checked_at)


async def last_stage(session: AsyncSession, data: s.PlacementCompleted, delivery: Delivery) -> None:
    payment = await payment_of(session, data.bid_id)
    if payment is not None:
        await settlement.completed(session, delivery.events, payment, data.completed_at)


async def ended_early(session: AsyncSession, data: s.CommentUnpinned, delivery: Delivery) -> None:
    payment = await payment_of(session, data.bid_id)
    if payment is not None:
        await settlement.end_early(session, payment, at=data.unpinned_at, reason=data.reason)


async def remember_user(session: AsyncSession, data: i.UserRegistered, delivery: Delivery) -> None:
    values = {"name": data.name, "email": data.email, "role": data.role}
    await session.execute(insert(User).values(id=data.user_id, **values)
                          .on_conflict_do_update(index_elements=["id"], set_=values))


HANDLERS: dict[str, list[inbox.MappedHandler]] = {
    m.BidApproved.event_type: [request_payment],
    s.CommentPinned.event_type: [first_stage],
    s.PlacementAccepted.event_type: [accepted],
    s.PlacementDisputed.event_type: [disputed],
    s.DisputeDecided.event_type: [decided],
    s.PlacementKept.event_type: [day_kept],
    s.PlacementCompleted.event_type: [last_stage],
    s.CommentUnpinned.event_type: [ended_early],
    i.UserRegistered.event_type: [remember_user],
    i.UserUpdated.event_type: [remember_user],
    c.CampaignUpdated.event_type: [remember_campaign],
    c.CampaignSettled.event_type: [return_campaign_rest],
}
