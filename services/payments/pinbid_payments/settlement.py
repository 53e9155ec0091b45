"""What happens to the money of one payment: paid, released to the creator in stages while the comment stays
pinned (domain/stages.py), the unearned share refunded when the placement ends early, or all of it refunded.
Each function runs inside the caller's transaction with the payment row locked, and adds the events it causes to
the caller's `events`: the use case writes them once, when it is done."""

import logging
import uuid
from datetime import datetime, timedelta

from pinbid_kit.events import EventData
from pinbid_kit.events.trust import CONTINUE, REFUND_ALL, REFUND_UNEARNED
from sqlalchemy import delete, exists, func, select
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.ext.asyncio import AsyncSession

from . import bookkeeping, events_out, recovery
from .domain import ledger, reversal, stages
from .domain.money import Split
from .models import Earning, EarningRelease, Payment, PaymentDispute

log = logging.getLogger("pinbid.payments.settlement")
Events = list[EventData]  # what one use case causes, written once when it is done


def money_of(payment: Payment) -> Split:
    return Split(payment.price_cents, payment.fee_cents, payment.creator_cents, payment.buyer_fee_cents)


def payer_of(payment: Payment) -> str | None:
    """The account a refund of `payment` goes back to: its campaign's balance for a win drawn from it (returned
    to the brand with the rest of the balance), else the buyer's charges (None: the ledger's default)."""
    return ledger.campaign_balance(payment.campaign_id) if payment.campaign_id is not None else None


async def record_payment(session: AsyncSession, payment: Payment, *, now: datetime, session_id: str,
                         payment_intent: str | None, pin_deadline: timedelta) -> None:
    """The buyer's money is in: ledger, the creator's pending earning."""
    payment.completed_at = now
    payment.provider_session_id = session_id
    payment.payment_intent = payment_intent
    payment.pin_deadline_at = now + pin_deadline
    received = ledger.payment_received(payment.id, payment.buyer_id, payment.creator_id, money_of(payment))
    await bookkeeping.post(session, received, payment_id=payment.id)
    session.add(Earning.pending_of(payment, now))
    await session.flush()

async def complete(session: AsyncSession, events: Events, payment: Payment, **kwargs) -> None:
    payment.status = "COMPLETED"
    await record_payment(session, payment, **kwargs)
    events.append(events_out.payment_completed(payment, payment.pin_deadline_at))


COMPLETION_STAGE = 100_000  # the stage number of the remainder released at completion (after any day's)


async def held(session: AsyncSession, payment: Payment) -> bool:
    """Releases wait while the brand has not accepted a placement pinned on the creator's word, and stop while
    a dispute of it is open."""
    if payment.awaits_acceptance and payment.accepted_at is None:
        return True
    return bool(await session.scalar(select(exists().where(
        PaymentDispute.payment_id == payment.id, PaymentDispute.status == "OPEN"))))


async def release(session: AsyncSession, events: Events, payment: Payment, *, kind: str, stage: int,
                  released_by: int, at: datetime) -> int:
    """Release the creator's share up to `released_by` cents in all, as `stage`; returns what this stage released.
    A stage released before (a redelivery) or overtaken by a later one (reordered events) releases nothing.
    `kind`: what released it, announced with it (`payments.earning.released.v1`)."""
    return (await _release(session, events, payment, kind=kind, stage=stage, released_by=released_by, at=at))[0]


async def _release(session: AsyncSession, events: Events, payment: Payment, *, kind: str, stage: int,
                   released_by: int, at: datetime) -> tuple[int, uuid.UUID | None]:
    if (payment.status != "COMPLETED" or payment.pinned_at is None or payment.ended_early_at is not None
            or payment.full_refund_requested_at is not None or await held(session, payment)):
        return 0, None
    earning = await session.get(Earning, payment.id, with_for_update=True)
    if earning is None or earning.status not in ("PENDING", "RELEASING"):
        return 0, None
    cents = min(released_by, earning.net_cents) - earning.released_cents
    if cents <= 0:
        return 0, None
    # the fee share by cumulative difference, so an earning's releases carry exactly its fee
    fee = (earning.fee_cents * (earning.released_cents + cents) // earning.net_cents
           - earning.fee_cents * earning.released_cents // earning.net_cents)
    stored = await session.scalar(insert(EarningRelease).values(
        payment_id=payment.id, stage=stage, creator_id=payment.creator_id, cents=cents, fee_cents=fee,
        released_at=at,
    ).on_conflict_do_nothing().returning(EarningRelease.stage))
    if stored is None:
        return 0, None
    earning.released_cents += cents
    earning.status = "AVAILABLE" if earning.released_cents == earning.net_cents else "RELEASING"
    earning.available_at = earning.available_at or at
    await recovery.lock_balances(session, payment.creator_id)
    tx = await bookkeeping.post(session, ledger.earnings_released(payment.creator_id, cents), payment_id=payment.id)
    events.append(events_out.earning_released(payment, earning, kind=kind, stage=stage, cents=cents, fee_cents=fee,
                                              transaction_id=tx, at=at))
    await recovery.recover(session, events, payment.creator_id, currency=payment.currency, at=at)
    return cents, tx


async def pinned(session: AsyncSession, events: Events, payment: Payment, pinned_at: datetime, *,
                 awaits_acceptance: bool = False) -> int:
    """The comment is pinned: the first stage (a quarter of the creator's share), unless the pin is on the
    creator's word and waits for the brand's acceptance."""
    if payment.status == "COMPLETED" and payment.pinned_at is None:
        payment.pinned_at = pinned_at
        payment.awaits_acceptance = awaits_acceptance
    # days or completion that overtook it
    return (await release_due(session, events, payment, pinned_at, kind="PIN"))[0]


async def kept(session: AsyncSession, events: Events, payment: Payment, *, days_kept: int, duration_days: int,
               at: datetime) -> int:
    if days_kept > payment.days_kept:  # remembered for a release held now
        payment.days_kept = days_kept
    payment.duration_days = duration_days
    return await release(session, events, payment, kind="DAY", stage=days_kept, released_by=stages.released_by(
        payment.creator_cents, days_kept=days_kept, duration_days=duration_days), at=at)


async def completed(session: AsyncSession, events: Events, payment: Payment, at: datetime) -> int:
    payment.placement_completed_at = payment.placement_completed_at or at
    return await release(session, events, payment, kind="COMPLETED", stage=COMPLETION_STAGE,
                         released_by=payment.creator_cents, at=at)


async def release_due(session: AsyncSession, events: Events, payment: Payment, at: datetime, *,
                      kind: str) -> tuple[int, uuid.UUID | None]:
    """Everything due so far, at once (a hold lifted): the pin's quarter, the days kept, the completion."""
    if payment.pinned_at is None:
        return 0, None
    if payment.placement_completed_at is not None:
        return await _release(session, events, payment, kind=kind, stage=COMPLETION_STAGE,
                              released_by=payment.creator_cents, at=at)
    return await _release(session, events, payment, kind=kind, stage=payment.days_kept, released_by=stages.released_by(
        payment.creator_cents, days_kept=payment.days_kept, duration_days=payment.duration_days or 1), at=at)


async def accepted(session: AsyncSession, events: Events, payment: Payment, at: datetime) -> int:
    """The brand accepted (or its silence did): what was held since the pin is released."""
    if payment.accepted_at is not None:
        return 0
    payment.accepted_at = at
    return (await release_due(session, events, payment, at, kind="ACCEPTED"))[0]


async def disputed(session: AsyncSession, payment: Payment, dispute_id: uuid.UUID, reported_at: datetime) -> bool:
    """Every release of the payment stops until the dispute is decided. A dispute already decided (its decision
    overtook it) or seen before changes nothing."""
    stored = await session.scalar(insert(PaymentDispute).values(
        dispute_id=dispute_id, payment_id=payment.id, status="OPEN", reported_at=reported_at,
    ).on_conflict_do_nothing().returning(PaymentDispute.dispute_id))
    return stored is not None


def request_full_refund(payment: Payment, *, at: datetime, reason: str) -> bool:
    """Order a full refund (the refund job asks the provider, then books it); releases stop at once. Once only."""
    if payment.status != "COMPLETED" or payment.full_refund_requested_at is not None:
        return False
    if payment.early_refunded_at is not None and (payment.early_refund_cents or 0) >= payment.amount_cents:
        return False  # an early end already gave everything back
    payment.full_refund_requested_at, payment.full_refund_reason = at, reason[:100]
    payment.full_refund_next_at = at
    payment.early_refund_next_at = None  # a pending early-end refund is part of the full one
    return True


async def decided(session: AsyncSession, events: Events, payment: Payment, *, dispute_id: uuid.UUID,
                  outcome: str, at: datetime) -> bool:
    """An operator's decision, applied once: CONTINUE lifts the hold and releases what accrued (the decision
    counts as the brand's acceptance); REFUND_UNEARNED ends the placement early (the refund job gives back the
    share not released); REFUND_ALL orders a full refund. A refund's dispute is settled when its money moved."""
    stored = await session.scalar(insert(PaymentDispute).values(
        dispute_id=dispute_id, payment_id=payment.id, status="DECIDED", outcome=outcome, decided_at=at,
    ).on_conflict_do_update(index_elements=["dispute_id"], set_={"status": "DECIDED", "outcome": outcome,
                                                                 "decided_at": at},
                            where=PaymentDispute.status == "OPEN").returning(PaymentDispute.dispute_id))
    if stored is None:
        return False  # decided before: a redelivery
    await session.flush()
    if outcome == CONTINUE:
        if payment.awaits_acceptance and payment.accepted_at is None:
            payment.accepted_at = at
        cents, tx = await release_due(session, events, payment, at, kind="DISPUTE_CONTINUE")
        await _settled(session, events, payment, dispute_id, outcome, at=at, released_cents=cents,
                       transaction_ids=[tx] if tx else [])
    elif outcome == REFUND_UNEARNED:
        if not await end_early(session, payment, at=at, reason="DISPUTE") or payment.early_refunded_at is not None:
            await _settled(session, events, payment, dispute_id, outcome, at=at, transaction_ids=[])
    elif not request_full_refund(payment, at=at, reason="dispute_refund_all"):
        await _settled(session, events, payment, dispute_id, outcome, at=at, transaction_ids=[])
    return True


async def _settled(session: AsyncSession, events: Events, payment: Payment, dispute_id: uuid.UUID, outcome: str,
                   *, at: datetime, **amounts) -> None:
    dispute = await session.get(PaymentDispute, dispute_id, with_for_update=True)
    dispute.settled_at = at
    events.append(events_out.dispute_settled(payment, dispute_id=dispute_id, outcome=outcome, at=at, **amounts))


async def _unsettled(session: AsyncSession, payment: Payment, outcome: str) -> uuid.UUID | None:
    return await session.scalar(select(PaymentDispute.dispute_id).where(
        PaymentDispute.payment_id == payment.id, PaymentDispute.outcome == outcome,
        PaymentDispute.settled_at.is_(None)).limit(1))


async def end_early(session: AsyncSession, payment: Payment, *, at: datetime, reason: str) -> bool:
    """The comment was unpinned, hidden or deleted before its duration ran out: nothing more is released, and the
    unearned share is to go back to the buyer (the refund job asks the provider, then books it)."""
    if (payment.status != "COMPLETED" or payment.pinned_at is None or payment.ended_early_at is not None
            or payment.full_refund_requested_at is not None):
        return False
    earning = await session.get(Earning, payment.id, with_for_update=True)
    back = stages.early_end(money_of(payment), earning.released_cents)
    payment.ended_early_at, payment.early_end_reason = at, reason
    payment.early_refund_cents = back.refund_cents
    earning.status = "ENDED_EARLY"
    if back.refund_cents == 0:
        payment.early_refunded_at = at
    else:
        payment.early_refund_next_at = at
    return True


async def early_refund_done(session: AsyncSession, events: Events, payment: Payment, *, now: datetime) -> None:
    """The provider refunded the unearned share: book it (balanced) and tell everyone."""
    earning = await session.get(Earning, payment.id, with_for_update=True)
    back = stages.early_end(money_of(payment), earning.released_cents)
    tx = await bookkeeping.post(session, ledger.placement_ended_early(
        payment.id, payment.buyer_id, payment.creator_id, creator_cents=back.creator_cents,
        fee_cents=back.fee_cents, payer=payer_of(payment)), payment_id=payment.id)
    earning.refunded_cents = back.creator_cents
    payment.early_refunded_at, payment.early_refund_next_at = now, None
    events.append(events_out.payment_partially_refunded(payment, back.refund_cents))
    dispute_id = await _unsettled(session, payment, REFUND_UNEARNED)
    if dispute_id is not None:
        await _settled(session, events, payment, dispute_id, REFUND_UNEARNED, at=now,
                       refunded_cents=back.refund_cents, transaction_ids=[tx])


async def reverse(session: AsyncSession, events: Events, payment: Payment, *, now: datetime,
                  reason: str) -> reversal.Reversal:
    """The buyer got everything back (the provider already refunded): undo what is left of the payment in the
    ledger. The creator's share is taken back from where it is: not released yet, released and not paid out
    (those releases are withdrawn), or paid out (owed by the creator, recovered from their available balance now
    and from their next earnings). Read and lock first, compute the ledger's transactions (domain/reversal.py),
    post them at once, then keep and announce what they did."""
    earning = await session.get(Earning, payment.id, with_for_update=True)
    _, owed_before = await recovery.lock_balances(session, payment.creator_id)
    unpaid = int(await session.scalar(select(func.coalesce(func.sum(
        EarningRelease.cents - EarningRelease.recovered_cents), 0)).where(
        EarningRelease.payment_id == payment.id, EarningRelease.payout_id.is_(None))))
    await session.execute(delete(EarningRelease).where(EarningRelease.payment_id == payment.id,
                                                       EarningRelease.payout_id.is_(None)))
    owes = earning.released_cents > unpaid  # paid out before: a debt, paid back from the releases not paid out
    releases = await recovery.recoverable(session, payment.creator_id) if owes else []
    done = reversal.reversal(
        payment.id, payment.buyer_id, payment.creator_id, money_of(payment),
        already_refunded=payment.early_refund_cents if payment.early_refunded_at is not None else 0,
        net_cents=earning.net_cents, released_cents=earning.released_cents,
        creator_refunded_cents=earning.refunded_cents, unpaid_cents=unpaid, owed_before=owed_before,
        recoverable=recovery.offered(releases), payer=payer_of(payment))
    debt = done.recovery
    postings = [bookkeeping.Posted(done.refunded, payment_id=payment.id)] if done.refunded else []
    if debt is not None and debt.transaction is not None:
        postings.append(bookkeeping.Posted(debt.transaction))
    transactions = await bookkeeping.post_all(session, postings)

    earning.released_cents = 0
    earning.refunded_cents = earning.net_cents
    earning.status = "REFUNDED"
    payment.status = "REFUNDED"
    payment.refunded_at = now
    payment.refund_reason = reason
    payment.early_refund_next_at = None  # nothing is left for the early-end refund to give back
    payment.full_refund_next_at = None
    refund_transactions = transactions[:1] if done.refunded else []
    events.append(events_out.payment_refunded(payment, reason, refund_cents=done.to_buyer,
                                              recovered_cents=done.taken_back, owed_cents=done.owed))
    if debt is not None:
        await recovery.record(session, events, payment.creator_id, kind="OWED", cents=done.owed,
                              owed_after=done.owed_after, currency=payment.currency,
                              transaction_id=refund_transactions[0], at=now, refunded_payment_id=payment.id)
        if debt.transaction is not None:
            await recovery.recovered(session, events, payment.creator_id, releases, debt, owed=done.owed_after,
                                     transaction_id=transactions[-1], currency=payment.currency, at=now)
    dispute_id = await _unsettled(session, payment, REFUND_ALL)
    if dispute_id is not None:
        await _settled(session, events, payment, dispute_id, REFUND_ALL, at=now, refunded_cents=done.to_buyer,
                       recovered_cents=done.taken_back, owed_cents=done.owed, transaction_ids=refund_transactions)
    return done
