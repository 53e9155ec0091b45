"""What identity does with other services' events: keep the user's Instagram facts, make notices (which
event becomes which notice for whom: domain/notices.py), schedule and cancel reminders."""

from dataclasses import dataclass

from pinbid_kit import inbox
from pinbid_kit.clock import Clock
from pinbid_kit.events import campaigns as c
from pinbid_kit.events import identity as i
from pinbid_kit.events import marketplace as m
from pinbid_kit.events import payments as p
from pinbid_kit.events import social as s
from sqlalchemy import select, update
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.ext.asyncio import AsyncSession

from . import audit, reminders
from .domain import notices
from .domain.notices import (
    ACCEPTANCE_WINDOW,
    DISPUTE_ANSWER_WINDOW,
    PAYMENT_REMINDER_BEFORE,
    PIN_REMINDER_BEFORE,
    reminder_due,
)
from .models import CampaignSeen, User
from .notifications import Notifier, Told


@dataclass(frozen=True)
class Dependencies:
    notifier: Notifier
    clock: Clock


Delivery = inbox.Delivery[Dependencies]


async def tell(session: AsyncSession, delivery: Delivery, told: list[notices.Notice]) -> None:
    """The notices an event causes, their events added to the delivery's (written once when the handler returns)."""
    await tell_all(session, [(delivery, told)])


async def tell_all(session: AsyncSession, told: list[tuple[Delivery, list[notices.Notice]]]) -> None:
    """The notices several events cause (a burst's), made at once; each one's events added to its own delivery's."""
    if told:
        await told[0][0].deps.notifier.deliver_all(
            session, [Told(delivery.events, notes, delivery.envelope.id, delivery.moment) for delivery, notes in told])


async def keep_in_audit_log(session: AsyncSession, data, delivery: Delivery) -> None:
    await audit.record(session, data, delivery.envelope)


async def apply_instagram_account(session: AsyncSession, data: s.AccountConnected, delivery: Delivery) -> None:
    profile = data.profile
    await session.execute(update(User).where(User.id == data.user_id).values(
        instagram_id=data.instagram_id, instagram_handle=data.username, instagram_connected=True,
        followers=profile.followers, avg_views=profile.avg_views, avg_engagement=profile.avg_engagement,
        verified=profile.verified))


async def forget_instagram_account(session: AsyncSession, data: s.AccountDisconnected, delivery: Delivery) -> None:
    await session.execute(update(User).where(User.id == data.user_id).values(
        instagram_id=None, instagram_connected=False))


def bid_notice(d: m.BidPlaced | m.BidOutbid) -> notices.Notice:
    if isinstance(d, m.BidPlaced):
        return notices.new_bid(d.creator_id, d.buyer_name, d.slot_id, d.slot_title, d.current_bid_cents, d.currency)
    return notices.outbid(d.buyer_id, d.slot_id, d.slot_title, d.current_bid_cents, d.currency)


async def notify_of_bids(session: AsyncSession, handled: list[tuple[m.BidPlaced | m.BidOutbid, Delivery]]) -> None:
    """A new bid to the creator, an outbid to the brand that lost the lead: a hot slot's burst of them at once."""
    await tell_all(session, [(delivery, [bid_notice(d)]) for d, delivery in handled])


async def notify_new_bid(session: AsyncSession, d: m.BidPlaced, delivery: Delivery) -> None:
    await notify_of_bids(session, [(d, delivery)])


async def notify_outbid(session: AsyncSession, d: m.BidOutbid, delivery: Delivery) -> None:
    await notify_of_bids(session, [(d, delivery)])


async def notify_auction_closed(session: AsyncSession, d: m.AuctionClosed, delivery: Delivery) -> None:
    if d.outcome == "UNSOLD" or d.winner_id is None or d.final_price_cents is None:
        await tell(session, delivery, [notices.auction_unsold(d.creator_id, d.slot_id, d.slot_title)])
        return
    if d.campaign_id is not None:
        name = await session.scalar(select(CampaignSeen.name).where(CampaignSeen.campaign_id == d.campaign_id))
        won = notices.campaign_won(d.winner_id, d.campaign_id, name, d.slot_id, d.slot_title, d.final_price_cents,
                                   d.currency)
    else:
        won = notices.auction_won(d.winner_id, d.slot_id, d.slot_title, d.final_price_cents, d.currency)
    await tell(session, delivery, [
        won, notices.approve_winner(d.creator_id, d.slot_id, d.slot_title, d.final_price_cents, d.currency)])


async def notify_campaign_change(session: AsyncSession, d: c.CampaignUpdated, delivery: Delivery) -> None:
    """Told only when the status changes from the last version seen: a redelivery, or a version older than one
    already seen (delivered out of order), tells nothing. The row is locked, so two versions at once are told in
    turn."""
    await session.execute(insert(CampaignSeen).values(
        campaign_id=d.campaign_id, buyer_id=d.buyer_id, name=d.name, status="", version=-1)
        .on_conflict_do_nothing(index_elements=["campaign_id"]))
    seen = await session.get(CampaignSeen, d.campaign_id, with_for_update=True, populate_existing=True)
    assert seen is not None
    if d.version <= seen.version:
        return
    before = seen.status
    seen.name, seen.status, seen.version = d.name, d.status, d.version
    if d.status == before:
        return
    if d.status == "OUT_OF_BUDGET":
        await tell(session, delivery, [notices.campaign_out_of_budget(
            d.buyer_id, d.campaign_id, d.name, d.budget_cents, d.committed_cents, d.currency)])
    elif d.status == "ENDED":
        await tell(session, delivery, [notices.campaign_ended(d.buyer_id, d.campaign_id, d.name, d.spent_cents,
                                                              d.currency, d.reason)])


async def notify_offer(session: AsyncSession, d: m.BidOffered, delivery: Delivery) -> None:
    """A campaign's bid is answered by its campaign at once: its brand hears of the outcome instead."""
    if d.campaign_id is None:
        await tell(session, delivery, [notices.second_chance_offered(d.buyer_id, d.slot_id, d.slot_title,
                                                                     d.price_cents, d.currency, d.expires_at)])


async def notify_offer_accepted(session: AsyncSession, d: m.OfferAccepted, delivery: Delivery) -> None:
    told = [notices.offer_accepted(d.creator_id, d.buyer_name, d.bid_id, d.slot_id, d.slot_title, d.price_cents,
                                   d.currency)]
    if d.campaign_id is not None:
        told.append(notices.second_chance_taken_by_campaign(d.buyer_id, d.campaign_id, d.slot_id, d.slot_title,
                                                            d.price_cents, d.currency))
    await tell(session, delivery, told)


async def notify_offer_declined(session: AsyncSession, d: m.OfferDeclined, delivery: Delivery) -> None:
    await tell(session, delivery, [notices.offer_declined(d.creator_id, d.slot_id, d.slot_title, d.reason)])


async def notify_rejected(session: AsyncSession, d: m.BidRejected, delivery: Delivery) -> None:
    await tell(session, delivery, [notices.bid_rejected(d.buyer_id, d.slot_id, d.slot_title)])


async def notify_payment_due(session: AsyncSession, d: p.PaymentRequested, delivery: Delivery) -> None:
    await tell(session, delivery, [notices.payment_due(d.buyer_id, d.payment_id, d.amount_cents, d.currency,
                                                       d.expires_at)])
    due = reminder_due(d.expires_at, PAYMENT_REMINDER_BEFORE, delivery.deps.clock())
    if due is not None:
        await reminders.schedule(session, reminders.PAYMENT, d.payment_id, d.buyer_id, due, d.expires_at,
                                 d.amount_cents, d.currency)


async def notify_pay_window_expired(session: AsyncSession, d: p.PaymentExpired, delivery: Delivery) -> None:
    await reminders.cancel(session, reminders.PAYMENT, d.payment_id)
    await tell(session, delivery, [notices.pay_window_expired(d.buyer_id, d.payment_id),
                                   notices.buyer_did_not_pay(d.creator_id, d.payment_id)])


async def notify_payment_received(session: AsyncSession, d: p.PaymentCompleted, delivery: Delivery) -> None:
    await reminders.cancel(session, reminders.PAYMENT, d.payment_id)
    await tell(session, delivery, [notices.payment_received(d.creator_id, d.payment_id, d.bid_id, d.amount_cents,
                                                            d.currency, d.pin_deadline_at)])
    if d.pin_deadline_at is None:  # from a payments release that did not say it yet
        return
    due = reminder_due(d.pin_deadline_at, PIN_REMINDER_BEFORE, delivery.deps.clock())
    if due is not None:
        await reminders.schedule(session, reminders.PIN, d.bid_id, d.creator_id, due, d.pin_deadline_at)


async def notify_comment_pinned(session: AsyncSession, d: s.CommentPinned, delivery: Delivery) -> None:
    await reminders.cancel(session, reminders.PIN, d.bid_id)
    if d.awaits_acceptance:  # pinned in the app, with a screenshot: the brand checks it first
        accept_by = d.accept_by or d.pinned_at + ACCEPTANCE_WINDOW
        await tell(session, delivery, [notices.check_placement(d.buyer_id, d.bid_id, accept_by),
                                       notices.awaiting_acceptance(d.creator_id, d.slot_id, accept_by)])
        return
    await tell(session, delivery, [notices.comment_pinned(d.buyer_id, d.slot_id, d.comment_text),
                                   notices.earnings_released(d.creator_id, d.slot_id)])


async def notify_accepted(session: AsyncSession, d: s.PlacementAccepted, delivery: Delivery) -> None:
    await tell(session, delivery, [notices.placement_accepted(d.creator_id, d.bid_id, d.by)])


async def notify_disputed(session: AsyncSession, d: s.PlacementDisputed, delivery: Delivery) -> None:
    told = [notices.placement_disputed(d.creator_id, d.bid_id, d.reason, d.reporter,
                                       d.answer_by or d.reported_at + DISPUTE_ANSWER_WINDOW)]
    if d.reporter == "BRAND":
        told.append(notices.placement_reported(d.buyer_id, d.bid_id))
    await tell(session, delivery, told)


async def notify_recheck(session: AsyncSession, d: s.RecheckRequested, delivery: Delivery) -> None:
    await tell(session, delivery, [notices.recheck_requested(d.creator_id, d.bid_id, d.answer_by)])


async def notify_decided(session: AsyncSession, d: p.DisputeSettled, delivery: Delivery) -> None:
    """One notice each per decision, with what it moved: sent when its money moved (payments' receipt), so
    the refund it made tells no one again (notices.DISPUTE_REFUNDS)."""
    await tell(session, delivery, [
        notices.dispute_decided_buyer(d.buyer_id, d.bid_id, d.outcome, d.refunded_cents, d.currency),
        notices.dispute_decided_creator(d.creator_id, d.bid_id, d.outcome, refunded_cents=d.refunded_cents,
                                        released_cents=d.released_cents, recovered_cents=d.recovered_cents,
                                        owed_cents=d.owed_cents, currency=d.currency)])


async def notify_unpin(session: AsyncSession, d: s.PlacementEnded, delivery: Delivery) -> None:
    if d.method == "MANUAL":  # on the SESSION path Pinbid unpins it itself
        await tell(session, delivery, [notices.unpin_now(d.creator_id, d.bid_id)])


async def notify_refund(session: AsyncSession, d: p.PaymentRefunded, delivery: Delivery) -> None:
    await reminders.cancel(session, reminders.PIN, d.bid_id)
    if d.reason in notices.DISPUTE_REFUNDS:
        return  # told by the decision's own notice
    refund_cents = d.amount_cents if d.refund_cents is None else d.refund_cents
    await tell(session, delivery, [
        notices.refund_made(d.buyer_id, d.payment_id, d.amount_cents, refund_cents, d.currency, d.reason),
        notices.payment_refunded(d.creator_id, d.payment_id, refund_cents, d.currency, d.reason)])


async def notify_early_end(session: AsyncSession, d: p.PaymentPartiallyRefunded, delivery: Delivery) -> None:
    if d.reason in notices.DISPUTE_REFUNDS:
        return  # told by the decision's own notice
    await tell(session, delivery, [
        notices.placement_ended_early_buyer(d.buyer_id, d.payment_id, d.amount_cents, d.refund_cents, d.currency,
                                            d.reason),
        notices.placement_ended_early_creator(d.creator_id, d.payment_id, d.refund_cents, d.currency, d.reason)])


async def notify_payout(session: AsyncSession, d: p.PayoutPaid, delivery: Delivery) -> None:
    await tell(session, delivery, [notices.payout_sent(d.creator_id, d.payout_id, d.net_cents, d.currency, d.period)])


async def notify_recovery(session: AsyncSession, d: p.RecoveryRecorded, delivery: Delivery) -> None:
    notice = notices.money_owed if d.kind == "OWED" else notices.money_recovered
    await tell(session, delivery, [notice(d.creator_id, d.recovery_id, d.amount_cents, d.owed_cents, d.currency)])


async def notify_payout_failed(session: AsyncSession, d: p.PayoutFailed, delivery: Delivery) -> None:
    await tell(session, delivery, [notices.payout_failed(d.creator_id, d.payout_id, d.net_cents, d.currency, d.period)])


async def notify_payout_account_changed(session: AsyncSession, d: p.PayoutAccountChanged, delivery: Delivery) -> None:
    await tell(session, delivery, [notices.payout_account_changed(d.creator_id, d.account, d.changed_at)])


HANDLERS: dict[str, list[inbox.MappedHandler]] = {
    s.SocialOperatorAction.event_type: [keep_in_audit_log],
    p.PaymentsOperatorAction.event_type: [keep_in_audit_log],
    m.MarketplaceOperatorAction.event_type: [keep_in_audit_log],
    i.IdentityOperatorAction.event_type: [keep_in_audit_log],
    s.AccountUpdated.event_type: [apply_instagram_account],
    s.AccountConnected.event_type: [apply_instagram_account],
    s.AccountDisconnected.event_type: [forget_instagram_account],
    m.BidPlaced.event_type: [notify_new_bid],
    m.BidOutbid.event_type: [notify_outbid],
    m.AuctionClosed.event_type: [notify_auction_closed],
    m.BidRejected.event_type: [notify_rejected],
    m.BidOffered.event_type: [notify_offer],
    m.OfferAccepted.event_type: [notify_offer_accepted],
    m.OfferDeclined.event_type: [notify_offer_declined],
    c.CampaignUpdated.event_type: [notify_campaign_change],
    p.PaymentRequested.event_type: [notify_payment_due],
    p.PaymentExpired.event_type: [notify_pay_window_expired],
    p.PaymentCompleted.event_type: [notify_payment_received],
    s.CommentPinned.event_type: [notify_comment_pinned],
    s.PlacementAccepted.event_type: [notify_accepted],
    s.PlacementDisputed.event_type: [notify_disputed],
    s.RecheckRequested.event_type: [notify_recheck],
    p.DisputeSettled.event_type: [notify_decided],
    s.PlacementEnded.event_type: [notify_unpin],
    p.PaymentRefunded.event_type: [notify_refund],
    p.PaymentPartiallyRefunded.event_type: [notify_early_end],
    p.PayoutPaid.event_type: [notify_payout],
    p.RecoveryRecorded.event_type: [notify_recovery],
    p.PayoutFailed.event_type: [notify_payout_failed],
    p.PayoutAccountChanged.event_type: [notify_payout_account_changed],
}

# a hot slot's bids: the notices of those waiting together made in one transaction (pinbid_kit.inbox.in_bursts),
# with one statement for all their notices
IN_BURSTS = (m.BidPlaced.event_type, m.BidOutbid.event_type)
TOGETHER: dict[inbox.MappedHandler, inbox.ManyHandler] = {notify_new_bid: notify_of_bids,
                                                          notify_outbid: notify_of_bids}
