"""What identity does with other services' events: keep the user's Instagram facts, make notices (which
event becomes which notice for whom: domain/notices.py), schedule and cancel reminders."""

from pinbid_kit.clock import Clock
from pinbid_kit.envelope import Envelope
from pinbid_kit.events import identity as i
from pinbid_kit.events import marketplace as m
from pinbid_kit.events import payments as p
from pinbid_kit.events import social as s
from pinbid_kit.inbox import Consumers
from sqlalchemy import update
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
from .models import User
from .notifications import Notifier


def register(consumers: Consumers, notifier: Notifier, clock: Clock) -> None:
    on = consumers.on
    deliver = notifier.deliver

    @on(i.IdentityOperatorAction.event_type)
    @on(m.MarketplaceOperatorAction.event_type)
    @on(p.PaymentsOperatorAction.event_type)
    @on(s.SocialOperatorAction.event_type)
    async def keep_in_audit_log(session: AsyncSession, data, envelope: Envelope) -> None:
        await audit.record(session, data, envelope)

    @on(s.AccountConnected.event_type)
    @on(s.AccountUpdated.event_type)
    async def apply_instagram_account(session: AsyncSession, data: s.AccountConnected, envelope: Envelope) -> None:
        profile = data.profile
        await session.execute(update(User).where(User.id == data.user_id).values(
            instagram_id=data.instagram_id, instagram_handle=data.username, instagram_connected=True,
            followers=profile.followers, avg_views=profile.avg_views, avg_engagement=profile.avg_engagement,
            verified=profile.verified))

    @on(s.AccountDisconnected.event_type)
    async def forget_instagram_account(session: AsyncSession, data: s.AccountDisconnected, _: Envelope) -> None:
        await session.execute(update(User).where(User.id == data.user_id).values(
            instagram_id=None, instagram_connected=False))

    @on(m.BidPlaced.event_type)
    async def notify_new_bid(session: AsyncSession, d: m.BidPlaced, e: Envelope) -> None:
        await deliver(session, [notices.new_bid(d.creator_id, d.buyer_name, d.slot_id, d.slot_title,
                                                d.current_bid_cents, d.currency)], e.id)

    @on(m.BidOutbid.event_type)
    async def notify_outbid(session: AsyncSession, d: m.BidOutbid, e: Envelope) -> None:
        await deliver(session, [notices.outbid(d.buyer_id, d.slot_id, d.slot_title, d.current_bid_cents, d.currency)],
                      e.id)

    @on(m.AuctionClosed.event_type)
    async def notify_auction_closed(session: AsyncSession, d: m.AuctionClosed, e: Envelope) -> None:
        if d.outcome == "UNSOLD" or d.winner_id is None or d.final_price_cents is None:
            await deliver(session, [notices.auction_unsold(d.creator_id, d.slot_id, d.slot_title)], e.id)
            return
        await deliver(session, [
            notices.auction_won(d.winner_id, d.slot_id, d.slot_title, d.final_price_cents, d.currency),
            notices.approve_winner(d.creator_id, d.slot_id, d.slot_title, d.final_price_cents, d.currency)], e.id)

    @on(m.BidRejected.event_type)
    async def notify_rejected(session: AsyncSession, d: m.BidRejected, e: Envelope) -> None:
        await deliver(session, [notices.bid_rejected(d.buyer_id, d.slot_id, d.slot_title)], e.id)

    @on(p.PaymentRequested.event_type)
    async def notify_payment_due(session: AsyncSession, d: p.PaymentRequested, e: Envelope) -> None:
        await deliver(session, [notices.payment_due(d.buyer_id, d.payment_id, d.amount_cents, d.currency,
                                                    d.expires_at)], e.id)
        due = reminder_due(d.expires_at, PAYMENT_REMINDER_BEFORE, clock())
        if due is not None:
            await reminders.schedule(session, reminders.PAYMENT, d.payment_id, d.buyer_id, due, d.expires_at,
                                     d.amount_cents, d.currency)

    @on(p.PaymentExpired.event_type)
    async def notify_pay_window_expired(session: AsyncSession, d: p.PaymentExpired, e: Envelope) -> None:
        await reminders.cancel(session, reminders.PAYMENT, d.payment_id)
        await deliver(session, [notices.pay_window_expired(d.buyer_id, d.payment_id),
                                notices.buyer_did_not_pay(d.creator_id, d.payment_id)], e.id)

    @on(p.PaymentCompleted.event_type)
    async def notify_payment_received(session: AsyncSession, d: p.PaymentCompleted, e: Envelope) -> None:
        await reminders.cancel(session, reminders.PAYMENT, d.payment_id)
        await deliver(session, [notices.payment_received(d.creator_id, d.payment_id, d.bid_id, d.amount_cents,
                                                         d.currency, d.pin_deadline_at)], e.id)
        if d.pin_deadline_at is None:  # from a payments release that did not say it yet
            return
        due = reminder_due(d.pin_deadline_at, PIN_REMINDER_BEFORE, clock())
        if due is not None:
            await reminders.schedule(session, reminders.PIN, d.bid_id, d.creator_id, due, d.pin_deadline_at)

    @on(s.CommentPinned.event_type)
    async def notify_comment_pinned(session: AsyncSession, d: s.CommentPinned, e: Envelope) -> None:
        await reminders.cancel(session, reminders.PIN, d.bid_id)
        if d.awaits_acceptance:  # pinned in the app, with a screenshot: the brand checks it first
            accept_by = d.accept_by or d.pinned_at + ACCEPTANCE_WINDOW
            await deliver(session, [notices.check_placement(d.buyer_id, d.bid_id, accept_by),
                                    notices.awaiting_acceptance(d.creator_id, d.slot_id, accept_by)], e.id)
            return
        await deliver(session, [notices.comment_pinned(d.buyer_id, d.slot_id, d.comment_text),
                                notices.earnings_released(d.creator_id, d.slot_id)], e.id)

    @on(s.PlacementAccepted.event_type)
    async def notify_accepted(session: AsyncSession, d: s.PlacementAccepted, e: Envelope) -> None:
        await deliver(session, [notices.placement_accepted(d.creator_id, d.bid_id, d.by)], e.id)

    @on(s.PlacementDisputed.event_type)
    async def notify_disputed(session: AsyncSession, d: s.PlacementDisputed, e: Envelope) -> None:
        told = [notices.placement_disputed(d.creator_id, d.bid_id, d.reason, d.reporter,
                                           d.answer_by or d.reported_at + DISPUTE_ANSWER_WINDOW)]
        if d.reporter == "BRAND":
            told.append(notices.placement_reported(d.buyer_id, d.bid_id))
        await deliver(session, told, e.id)

    @on(s.RecheckRequested.event_type)
    async def notify_recheck(session: AsyncSession, d: s.RecheckRequested, e: Envelope) -> None:
        await deliver(session, [notices.recheck_requested(d.creator_id, d.bid_id, d.answer_by)], e.id)

    @on(p.DisputeSettled.event_type)
    async def notify_decided(session: AsyncSession, d: p.DisputeSettled, e: Envelope) -> None:
        """One notice each per decision, with what it moved: sent when its money moved (payments' receipt), so
        the refund it made tells no one again (notices.DISPUTE_REFUNDS)."""
        await deliver(session, [
            notices.dispute_decided_buyer(d.buyer_id, d.bid_id, d.outcome, d.refunded_cents, d.currency),
            notices.dispute_decided_creator(d.creator_id, d.bid_id, d.outcome, refunded_cents=d.refunded_cents,
                                            released_cents=d.released_cents, recovered_cents=d.recovered_cents,
                                            owed_cents=d.owed_cents, currency=d.currency)], e.id)

    @on(s.PlacementEnded.event_type)
    async def notify_unpin(session: AsyncSession, d: s.PlacementEnded, e: Envelope) -> None:
        if d.method == "MANUAL":  # on the SESSION path Pinbid unpins it itself
            await deliver(session, [notices.unpin_now(d.creator_id, d.bid_id)], e.id)

    @on(p.PaymentRefunded.event_type)
    async def notify_refund(session: AsyncSession, d: p.PaymentRefunded, e: Envelope) -> None:
        await reminders.cancel(session, reminders.PIN, d.bid_id)
        if d.reason in notices.DISPUTE_REFUNDS:
            return  # told by the decision's own notice
        refund_cents = d.amount_cents if d.refund_cents is None else d.refund_cents
        await deliver(session, [
            notices.refund_made(d.buyer_id, d.payment_id, d.amount_cents, refund_cents, d.currency, d.reason),
            notices.payment_refunded(d.creator_id, d.payment_id, refund_cents, d.currency, d.reason)], e.id)

    @on(p.PaymentPartiallyRefunded.event_type)
    async def notify_early_end(session: AsyncSession, d: p.PaymentPartiallyRefunded, e: Envelope) -> None:
        if d.reason in notices.DISPUTE_REFUNDS:
            return  # told by the decision's own notice
        await deliver(session, [
            notices.placement_ended_early_buyer(d.buyer_id, d.payment_id, d.amount_cents, d.refund_cents, d.currency,
                                                d.reason),
            notices.placement_ended_early_creator(d.creator_id, d.payment_id, d.refund_cents, d.currency, d.reason)],
            e.id)

    @on(p.PayoutPaid.event_type)
    async def notify_payout(session: AsyncSession, d: p.PayoutPaid, e: Envelope) -> None:
        await deliver(session, [notices.payout_sent(d.creator_id, d.payout_id, d.net_cents, d.currency, d.period)],
                      e.id)

    @on(p.RecoveryRecorded.event_type)
    async def notify_recovery(session: AsyncSession, d: p.RecoveryRecorded, e: Envelope) -> None:
        notice = notices.money_owed if d.kind == "OWED" else notices.money_recovered
        await deliver(session, [notice(d.creator_id, d.recovery_id, d.amount_cents, d.owed_cents, d.currency)], e.id)

    @on(p.PayoutFailed.event_type)
    async def notify_payout_failed(session: AsyncSession, d: p.PayoutFailed, e: Envelope) -> None:
        await deliver(session, [notices.payout_failed(d.creator_id, d.payout_id, d.net_cents, d.currency, d.period)],
                      e.id)
