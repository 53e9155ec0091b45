"""Disputes about a placement: one opened (by the brand's report or a missed fresh screenshot), the operator's
once-only decision, and the end of a placement on a refund (an operator's REFUND_* or payments' full refund).

The functions here change rows in the caller's transaction and return the events the change causes; the use case
that calls them collects its events and writes them once (`outbox.publish_all`)."""

import uuid
from datetime import datetime, timedelta

from pinbid_kit import outbox
from pinbid_kit.clock import Clock
from pinbid_kit.db import Database
from pinbid_kit.errors import Conflict, NotFound
from pinbid_kit.events import EventData
from pinbid_kit.events.trust import REFUND_ALL, DisputeOutcome, ends_placement
from sqlalchemy import or_, select, true, update
from sqlalchemy.ext.asyncio import AsyncSession

from . import SERVICE, events_out
from .domain.placement import Status
from .domain.trust import ENDED_BY, Acceptance, awaiting_answer
from .models import Dispute, DisputeStep, Placement
from .queries import NO_DISPUTE, DisputeDetail, TrustQueries


def step(dispute_id: uuid.UUID, at: datetime, what: str, by: str) -> DisputeStep:
    return DisputeStep(dispute_id=dispute_id, at=at, what=what, by=by)


async def locked_open_dispute(session: AsyncSession, bid_id: uuid.UUID) -> Dispute | None:
    """The placement's open dispute, locked (`FOR UPDATE`), or None."""
    return (await session.scalars(select(Dispute).where(Dispute.bid_id == bid_id, Dispute.status == "OPEN")
                                  .with_for_update())).first()


async def open_dispute(session: AsyncSession, placement: Placement, reason: str, reporter: str, now: datetime,
                       answer_within: timedelta) -> tuple[Dispute, EventData]:
    """A dispute opens on the placement (the caller holds its row and found none open); the creator may answer
    within `answer_within`. Returns it with its PlacementDisputed."""
    dispute = Dispute(id=uuid.uuid4(), bid_id=placement.bid_id, status="OPEN", reason=reason, reporter=reporter,
                      reported_at=now, answer_by=now + answer_within)
    session.add(dispute)
    session.add(step(dispute.id, now, f"Reported: {reason}", reporter))
    await session.flush()
    return dispute, events_out.placement_disputed(placement, dispute)


async def end_placement(session: AsyncSession, bid_id: uuid.UUID, reason: str, now: datetime) -> list[EventData]:
    """Ends a placement on a refund, once: no more tracking or kept days; on the SESSION path the job unpins the
    comment, on the MANUAL path PlacementEnded asks the creator to unpin it. Returns the PlacementEnded to write
    when it was pinned; nothing when it had already ended (or never was pinned)."""
    placement = (await session.scalars(select(Placement).where(Placement.bid_id == bid_id)
                                       .with_for_update())).first()
    if placement is None or placement.status in {Status.ENDED, Status.UNPINNED}:
        return []
    was_pinned = placement.status in {Status.PINNED, Status.COMPLETED}
    placement.status = Status.ENDED
    placement.ended_at = now
    placement.end_reason = reason[:200]
    placement.next_sync_at = None
    placement.unpin_pending = was_pinned and placement.pin_method != "MANUAL"
    return [events_out.placement_ended(placement, reason[:200], now)] if was_pinned else []


async def close_disputes_on_refund(session: AsyncSession, bid_id: uuid.UUID, reason: str, now: datetime) -> None:
    """A full refund settles an open dispute about the same placement: closed as REFUND_ALL, no operator, with
    the refund's reason; no DisputeDecided (the money already went back)."""
    closed = (await session.execute(
        update(Dispute).where(Dispute.bid_id == bid_id, Dispute.status == "OPEN")
        .values(status="DECIDED", outcome=REFUND_ALL, decision_reason=reason, decided_at=now)
        .returning(Dispute.id))).scalars().all()
    for dispute_id in closed:
        session.add(step(dispute_id, now, f"Closed: {reason}", "PAYMENTS"))


class Disputes:
    """The operator's decision on a dispute."""

    def __init__(self, db: Database, queries: TrustQueries, *, clock: Clock):
        self.db = db
        self.queries = queries
        self.clock = clock

    async def decide(self, operator_id: uuid.UUID, dispute_id: uuid.UUID, outcome: DisputeOutcome, reason: str, *,
                     decide_now: str | None = None) -> DisputeDetail:
        """Once, and only when both sides have spoken: after the creator's answer or once its window closed;
        before that only with `decide_now`, the operator's reason for not waiting, written to the history and the
        audit log. The condition is part of the once-only update, so an answer arriving at the same moment either
        lands first (and the decision follows it) or finds the dispute decided. Of two decisions at once exactly
        one wins, the other is told it was already decided. A REFUND_* outcome ends the placement in the same
        transaction; its events (DisputeDecided, the operator's action, PlacementEnded) are written once."""
        now = self.clock()
        spoken = or_(Dispute.answered_at.is_not(None), Dispute.answer_by < now)
        async with self.db.transaction() as session:
            decided = (await session.execute(
                update(Dispute).where(Dispute.id == dispute_id, Dispute.status == "OPEN",
                                      true() if decide_now else spoken)
                .values(status="DECIDED", outcome=outcome, decision_reason=reason, decided_by=operator_id,
                        decided_at=now).returning(Dispute.id))).first()
            if decided is None:
                found = await session.get(Dispute, dispute_id)
                if found is None:
                    raise NotFound(NO_DISPUTE)
                if found.status != "OPEN":
                    raise Conflict("This dispute is already decided.", code="already_decided")
                raise Conflict(f"The creator may answer until {found.answer_by:%b %-d, %Y %H:%M} UTC and has not "
                               "yet. Decide once they answer or that time has passed, or choose Decide now and say "
                               "why.", code="awaiting_answer")
            dispute = await session.get(Dispute, dispute_id, populate_existing=True)
            assert dispute is not None
            # "decide now" is recorded only when it mattered: the creator could still have answered
            early = decide_now is not None and awaiting_answer(dispute.answered_at, dispute.answer_by, now)
            placement = await session.get(Placement, dispute.bid_id)
            assert placement is not None
            by = f"OPERATOR {operator_id}"
            if early:
                session.add(step(dispute.id, now, f"Decided before the creator's answer: {decide_now}", by))
            session.add(step(dispute.id, now, f"Decided {outcome}: {reason}", by))
            audit = f"{outcome}: {reason}" + (f" (decided now, before the creator's answer: {decide_now})"
                                                    if early else "")
            events = [events_out.dispute_decided(placement, dispute),
                      events_out.operator_action(operator_id, "dispute.decide_now" if early else "dispute.decide",
                                                 "dispute", str(dispute.id), audit, now)]
            if ends_placement(outcome):
                events += await end_placement(session, placement.bid_id, ENDED_BY[outcome], now)
            elif placement.acceptance == Acceptance.AWAITING:
                # the operator's CONTINUE settles the window too: releases resume on DisputeDecided, and no
                # PlacementAccepted follows (acceptedBy stays empty: neither the brand nor silence accepted it)
                placement.acceptance = Acceptance.ACCEPTED
                placement.accepted_at = now
            await outbox.publish_all(session, events, source=SERVICE)
        return await self.queries.dispute(dispute_id)
