"""Trust in a placement the creator pinned in the Instagram app (issue 22): its screenshots (evidence), the
brand's acceptance ("Looks right", or silence for `SOCIAL_ACCEPTANCE_HOURS`), reports and disputes, the creator's
answer and the random fresh-screenshot request, the operator's once-only decision, and the end of a placement on
a refund.

Every change locks the placement's row (`FOR UPDATE`) or is a conditional update (`WHERE status = 'OPEN'`), and
records its events in the outbox in the same transaction. The job claims due rows with `FOR UPDATE SKIP LOCKED`,
so replicas never act on the same placement twice. A screenshot is stored before the transaction that records
it and removed again when that transaction refuses it, so nothing is kept for a refused upload."""

import logging
import random
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta

from pinbid_kit.clock import Clock
from pinbid_kit.db import Database
from pinbid_kit.errors import Conflict, NotFound
from pinbid_kit.objects import ObjectMissing, ObjectStore, StoredObject
from pinbid_kit.secrets import SecretBox
from pinbid_kit.tokens import Principal
from sqlalchemy import and_, exists, or_, select, text, true, update
from sqlalchemy.ext.asyncio import AsyncSession

from . import events_out
from .adapters import Providers
from .domain.placement import Status
from .domain.trust import ENDED_BY, Acceptance, Outcome, awaiting_answer, ends_placement
from .models import Dispute, DisputeStep, Evidence, PinSession, Placement, Post, User
from .ports import MediaRef, ProviderError, SessionExpired
from .screenshots import Screenshot

log = logging.getLogger("pinbid.social.trust")

OPERATOR = "OPERATOR"
UNPIN_CLAIM = timedelta(minutes=2)
NO_PLACEMENT = "No such placement."
NO_DISPUTE = "No such dispute."


@dataclass(frozen=True)
class TrustView:
    placement: Placement
    evidence: list[Evidence]
    dispute: Dispute | None


@dataclass(frozen=True)
class DisputeRow:
    dispute: Dispute
    placement: Placement
    creator_name: str | None
    post_url: str | None
    awaiting_answer: bool = False  # open, unanswered, and the creator may still answer (at the service's clock)


@dataclass(frozen=True)
class DisputeDetail:
    row: DisputeRow
    evidence: list[Evidence]
    history: list[DisputeStep]


def _ext(content_type: str) -> str:
    return {"image/jpeg": "jpg", "image/png": "png", "image/webp": "webp"}[content_type]


async def store_screenshot(objects: ObjectStore, bid_id: uuid.UUID, shot: Screenshot) -> str:
    key = f"evidence/{bid_id}/{uuid.uuid4().hex}.{_ext(shot.content_type)}"
    await objects.put(key, shot.data, shot.content_type)
    return key


def evidence_row(bid_id: uuid.UUID, kind: str, key: str, shot: Screenshot, by: uuid.UUID, at: datetime) -> Evidence:
    return Evidence(id=uuid.uuid4(), bid_id=bid_id, kind=kind, object_key=key, content_type=shot.content_type,
                    size=len(shot.data), width=shot.width, height=shot.height, uploaded_by=by, uploaded_at=at)


def step(dispute_id: uuid.UUID, at: datetime, what: str, by: str) -> DisputeStep:
    return DisputeStep(dispute_id=dispute_id, at=at, what=what, by=by)


KIND_ORDER = {"PIN": 0, "RECHECK": 1, "ANSWER": 2}


async def _evidence_of(session: AsyncSession, bid_id: uuid.UUID) -> list[Evidence]:
    """Oldest first; at the same moment, the pin's screenshot before later ones."""
    found = (await session.scalars(select(Evidence).where(Evidence.bid_id == bid_id))).all()
    return sorted(found, key=lambda e: (e.uploaded_at, KIND_ORDER.get(e.kind, 9)))


async def end_placement(session: AsyncSession, bid_id: uuid.UUID, reason: str, now: datetime) -> bool:
    """Ends a placement on a refund, once: no more tracking or kept days; on the SESSION path the job unpins the
    comment, on the MANUAL path PlacementEnded asks the creator to unpin it. False when it had already ended."""
    placement = (await session.scalars(select(Placement).where(Placement.bid_id == bid_id)
                                       .with_for_update())).first()
    if placement is None or placement.status in {Status.ENDED, Status.UNPINNED}:
        return False
    was_pinned = placement.status in {Status.PINNED, Status.COMPLETED}
    placement.status = Status.ENDED
    placement.ended_at = now
    placement.end_reason = reason[:200]
    placement.next_sync_at = None
    placement.unpin_pending = was_pinned and placement.pin_method != "MANUAL"
    if was_pinned:
        await events_out.publish_all(session, [events_out.placement_ended(placement, reason[:200], now)])
    return True


REFUND_REASONS = {
    "not_pinned_in_time": "Refunded in full: the comment was not pinned in time.",
    "paid_after_expiry": "Refunded in full: the payment came after its deadline.",
    "refunded_at_provider": "Refunded in full at the payment provider.",
    "operator_refund": "Refunded in full by Pinbid.",
    "dispute_refund_all": "Refunded in full after a review.",
}


def refund_reason(code: str) -> str:
    """What people read for a full refund's reason code (payments' `PaymentRefunded.reason`)."""
    return REFUND_REASONS.get(code, "Refunded in full.")


async def close_disputes_on_refund(session: AsyncSession, bid_id: uuid.UUID, reason: str, now: datetime) -> None:
    """A full refund settles an open dispute about the same placement: closed as REFUND_ALL, no operator, with
    the refund's reason; no DisputeDecided (the money already went back)."""
    closed = (await session.execute(
        update(Dispute).where(Dispute.bid_id == bid_id, Dispute.status == "OPEN")
        .values(status="DECIDED", outcome="REFUND_ALL", decision_reason=reason, decided_at=now)
        .returning(Dispute.id))).scalars().all()
    for dispute_id in closed:
        session.add(step(dispute_id, now, f"Closed: {reason}", "PAYMENTS"))


def _recheck_open(placement: Placement) -> bool:
    return (placement.recheck_requested_at is not None and placement.recheck_answered_at is None
            and placement.recheck_missed_at is None)


def _awaited(placement: Placement, dispute: Dispute | None, now: datetime) -> str:
    """What a screenshot from the creator answers now: "ANSWER" (an open dispute, in its window) or "RECHECK" (a
    fresh-screenshot request, in its window); otherwise why nothing waits for one."""
    if dispute is not None and dispute.answered_at is None:
        if now > dispute.answer_by:
            raise Conflict("The time to answer this report has passed; an operator decides it now.",
                           code="answer_window_closed")
        return "ANSWER"
    if _recheck_open(placement):
        if placement.recheck_answer_by is not None and now > placement.recheck_answer_by:
            raise Conflict("The time to send a fresh screenshot has passed.", code="answer_window_closed")
        return "RECHECK"
    if dispute is not None:
        raise Conflict("You already answered this report; an operator decides it now.", code="already_answered")
    raise Conflict("Nothing on this placement is waiting for a screenshot from you.", code="nothing_to_answer")


class Trust:
    def __init__(self, db: Database, objects: ObjectStore, providers: Providers, box: SecretBox, *,
                 recheck_answer: timedelta, dispute_answer: timedelta, clock: Clock,
                 rng: random.Random | None = None):
        self.db = db
        self.objects = objects
        self.providers = providers
        self.box = box
        self.recheck_answer = recheck_answer
        self.dispute_answer = dispute_answer
        self.clock = clock
        self.rng = rng or random.SystemRandom()

    # --- reading --------------------------------------------------------------------------------
    async def view(self, principal: Principal, bid_id: uuid.UUID) -> TrustView:
        async with self.db.transaction() as session:
            placement = await session.get(Placement, bid_id)
            self._may_see(principal, placement)
            return await self._view(session, placement)

    @staticmethod
    def _may_see(principal: Principal, placement: Placement | None) -> None:
        """The placement's brand, its creator, or an operator; anyone else learns nothing, not even that it exists."""
        if placement is None or placement.status in {Status.AWAITING_PAYMENT} or not (
                principal.role == OPERATOR or principal.user_id in {placement.buyer_id, placement.creator_id}):
            raise NotFound(NO_PLACEMENT)

    @staticmethod
    async def _view(session: AsyncSession, placement: Placement) -> TrustView:
        evidence = await _evidence_of(session, placement.bid_id)
        dispute = (await session.scalars(select(Dispute).where(Dispute.bid_id == placement.bid_id)
                                         .order_by(Dispute.reported_at.desc()).limit(1))).first()
        return TrustView(placement, evidence, dispute)

    async def evidence(self, principal: Principal, bid_id: uuid.UUID, evidence_id: uuid.UUID) -> StoredObject:
        async with self.db.transaction() as session:
            self._may_see(principal, await session.get(Placement, bid_id))
            found = await session.get(Evidence, evidence_id)
        if found is None or found.bid_id != bid_id:
            raise NotFound("No such screenshot.")
        return await self._read(found)

    async def _read(self, found: Evidence) -> StoredObject:
        try:
            stored = await self.objects.get(found.object_key)
        except ObjectMissing:
            raise NotFound("This screenshot is no longer stored.") from None
        return StoredObject(data=stored.data, content_type=found.content_type)

    # --- the brand --------------------------------------------------------------------------------
    async def _brand_placement(self, session: AsyncSession, buyer_id: uuid.UUID, bid_id: uuid.UUID) -> Placement:
        placement = (await session.scalars(select(Placement).where(Placement.bid_id == bid_id)
                                           .with_for_update())).first()
        if placement is None or placement.buyer_id != buyer_id or placement.status == Status.AWAITING_PAYMENT:
            raise NotFound(NO_PLACEMENT)
        return placement

    @staticmethod
    async def _open_dispute(session: AsyncSession, bid_id: uuid.UUID) -> Dispute | None:
        return (await session.scalars(select(Dispute).where(Dispute.bid_id == bid_id, Dispute.status == "OPEN")
                                      .with_for_update())).first()

    async def accept(self, buyer_id: uuid.UUID, bid_id: uuid.UUID) -> TrustView:
        """"Looks right": once, while the acceptance window is open and nothing is reported."""
        async with self.db.transaction() as session:
            placement = await self._brand_placement(session, buyer_id, bid_id)
            now = self.clock()  # once the row is ours: "Looks right" and "Report" are recorded in the order they won
            if placement.status not in {Status.PINNED, Status.COMPLETED}:
                raise Conflict("This placement has ended.", code="placement_ended")
            if placement.acceptance != Acceptance.AWAITING:
                raise Conflict("This placement is not awaiting your acceptance.", code="not_awaiting")
            if await self._open_dispute(session, bid_id) is not None:
                raise Conflict("You reported a problem with this placement; an operator decides it now.",
                               code="already_disputed")
            placement.acceptance = Acceptance.ACCEPTED
            placement.accepted_at = now
            placement.accepted_by = "BRAND"
            await events_out.publish_all(session, [events_out.placement_accepted(placement, now, "BRAND")])
            return await self._view(session, placement)

    async def report(self, buyer_id: uuid.UUID, bid_id: uuid.UUID, reason: str) -> TrustView:
        """"Report a problem" in the window, or "no longer pinned" at any time while the placement runs: a dispute
        opens and every further release stops."""
        async with self.db.transaction() as session:
            placement = await self._brand_placement(session, buyer_id, bid_id)
            now = self.clock()  # once the row is ours (see accept)
            if placement.status != Status.PINNED:
                raise Conflict("This placement is not running any more, so it cannot be reported.",
                               code="placement_ended")
            if await self._open_dispute(session, bid_id) is not None:
                raise Conflict("A problem with this placement is already reported; an operator decides it.",
                               code="already_disputed")
            dispute = await self._open(session, placement, reason, "BRAND", now)
            return TrustView(placement, (await self._view(session, placement)).evidence, dispute)

    async def _open(self, session: AsyncSession, placement: Placement, reason: str, reporter: str,
                    now: datetime) -> Dispute:
        dispute = Dispute(id=uuid.uuid4(), bid_id=placement.bid_id, status="OPEN", reason=reason, reporter=reporter,
                          reported_at=now, answer_by=now + self.dispute_answer)
        session.add(dispute)
        session.add(step(dispute.id, now, f"Reported: {reason}", reporter))
        await session.flush()
        await events_out.publish_all(session, [events_out.placement_disputed(placement, dispute)])
        return dispute

    # --- the creator --------------------------------------------------------------------------------
    async def answerable(self, creator_id: uuid.UUID, bid_id: uuid.UUID) -> None:
        """Whether the creator may send a screenshot for this placement now, asked before the upload is read."""
        async with self.db.transaction() as session:
            placement = await session.get(Placement, bid_id)
            if placement is None or placement.creator_id != creator_id:
                raise NotFound(NO_PLACEMENT)
            _awaited(placement, await self._latest_open_dispute(session, bid_id), self.clock())

    async def answer(self, creator_id: uuid.UUID, bid_id: uuid.UUID, shot: Screenshot, note: str | None) -> TrustView:
        """The creator's fresh screenshot: the answer to an open dispute (within its 48 hours), or to a fresh-
        screenshot request (within its 24 hours)."""
        async with self.db.transaction() as session:
            placement = await session.get(Placement, bid_id)
            if placement is None or placement.creator_id != creator_id:
                raise NotFound(NO_PLACEMENT)
        key = await store_screenshot(self.objects, bid_id, shot)
        try:
            return await self._record_answer(creator_id, bid_id, key, shot, note)
        except BaseException:
            await self.objects.delete(key)
            raise

    @staticmethod
    async def _latest_open_dispute(session: AsyncSession, bid_id: uuid.UUID) -> Dispute | None:
        return (await session.scalars(select(Dispute).where(Dispute.bid_id == bid_id, Dispute.status == "OPEN")))\
            .first()

    async def _record_answer(self, creator_id: uuid.UUID, bid_id: uuid.UUID, key: str, shot: Screenshot,
                             note: str | None) -> TrustView:
        async with self.db.transaction() as session:
            placement = (await session.scalars(select(Placement).where(Placement.bid_id == bid_id)
                                               .with_for_update())).first()
            assert placement is not None and placement.creator_id == creator_id
            dispute = await self._open_dispute(session, bid_id)
            now = self.clock()  # once the row is ours: the record's order is the order things happened
            kind = _awaited(placement, dispute, now)
            events = []
            if kind == "ANSWER":
                assert dispute is not None
                dispute.answered_at = now
                dispute.creator_note = note
                session.add(step(dispute.id, now, "Answered with a new screenshot" + (f": {note}" if note else ""),
                                 "CREATOR"))
                events.append(events_out.dispute_answered(placement, dispute.id, now))
            if _recheck_open(placement):
                placement.recheck_answered_at = now
            session.add(evidence_row(bid_id, kind, key, shot, creator_id, now))
            await session.flush()
            await events_out.publish_all(session, events)
            return await self._view(session, placement)

    # --- the job ---------------------------------------------------------------------------------------------
    async def run_once(self) -> dict[str, int]:
        """Accepts by silence, asks for due fresh screenshots, opens disputes for missed ones, unpins ended
        SESSION placements. Safe on several replicas at once."""
        return {"accepted": await self._accept_by_silence(), "rechecks": await self._request_rechecks(),
                "missed": await self._open_missed_rechecks(), "unpinned": await self._unpin_ended()}

    async def _claim(self, session: AsyncSession, *where) -> list[Placement]:
        return list((await session.scalars(select(Placement).where(*where).order_by(Placement.bid_id).limit(100)
                                           .with_for_update(skip_locked=True))).all())

    async def _accept_by_silence(self) -> int:
        now = self.clock()
        async with self.db.transaction() as session:
            due = await self._claim(
                session, Placement.acceptance == Acceptance.AWAITING, Placement.accept_by <= now,
                Placement.status.in_([Status.PINNED, Status.COMPLETED]),
                ~exists().where(Dispute.bid_id == Placement.bid_id))
            for placement in due:
                placement.acceptance = Acceptance.ACCEPTED
                placement.accepted_at = now
                placement.accepted_by = "SILENCE"
            await events_out.publish_all(session, [events_out.placement_accepted(p, now, "SILENCE") for p in due])
        return len(due)

    async def _request_rechecks(self) -> int:
        now = self.clock()
        async with self.db.transaction() as session:
            due = await self._claim(session, Placement.status == Status.PINNED, Placement.recheck_at <= now,
                                    Placement.recheck_requested_at.is_(None))
            for placement in due:
                placement.recheck_requested_at = now
                placement.recheck_answer_by = now + self.recheck_answer
            await events_out.publish_all(session, [events_out.recheck_requested(p, now, now + self.recheck_answer)
                                                   for p in due])
        return len(due)

    async def _open_missed_rechecks(self) -> int:
        now = self.clock()
        opened = 0
        async with self.db.transaction() as session:
            due = await self._claim(session, Placement.status == Status.PINNED,
                                    Placement.recheck_answer_by <= now, Placement.recheck_answered_at.is_(None),
                                    Placement.recheck_missed_at.is_(None))
            for placement in due:
                placement.recheck_missed_at = now
                if await self._open_dispute(session, placement.bid_id) is None:
                    await self._open(session, placement, "The creator did not send the fresh screenshot Pinbid "
                                     "asked for in time.", "SYSTEM", now)
                    opened += 1
        return opened

    async def _unpin_ended(self) -> int:
        now = self.clock()
        async with self.db.transaction() as session:
            claimed = (await session.execute(text("""
                UPDATE placements SET pin_claimed_at = :now WHERE bid_id IN (
                    SELECT bid_id FROM placements WHERE status = 'ENDED' AND unpin_pending
                      AND (pin_claimed_at IS NULL OR pin_claimed_at < :stale)
                    ORDER BY bid_id LIMIT 50 FOR UPDATE SKIP LOCKED)
                RETURNING bid_id, creator_id, post_id, pinned_comment_id"""),
                {"now": now, "stale": now - UNPIN_CLAIM})).all()
            if not claimed:
                return 0
            sessions = {s.user_id: s.session for s in (await session.scalars(
                select(PinSession).where(PinSession.user_id.in_({c.creator_id for c in claimed})))).all()}
            permalinks = dict((await session.execute(select(Post.id, Post.permalink).where(
                Post.id.in_({c.post_id for c in claimed})))).all())
        done: list[uuid.UUID] = []
        for row in claimed:
            sealed = sessions.get(row.creator_id)
            if sealed is None:
                log.warning("ended placement %s: no pinning login left to unpin with", row.bid_id)
                done.append(row.bid_id)
                continue
            try:
                await self.providers.pinning.unpin(self.box.open(sealed),
                                                   MediaRef(row.post_id or "", permalinks.get(row.post_id, "")),
                                                   row.pinned_comment_id or "")
                done.append(row.bid_id)
            except SessionExpired:
                log.warning("ended placement %s: the pinning login expired, not unpinned", row.bid_id)
                done.append(row.bid_id)
            except ProviderError as failed:
                log.info("ended placement %s not unpinned yet: %s", row.bid_id, failed.detail)
        async with self.db.transaction() as session:
            await session.execute(update(Placement).where(Placement.bid_id.in_(done))
                                  .values(unpin_pending=False, pin_claimed_at=None))
        return len(done)

    # --- the operator -----------------------------------------------------------------------------------------
    def _disputes(self):
        creator = User.__table__.alias("creator")
        return (select(Dispute, Placement, creator.c.name, Post.permalink)
                .join(Placement, Placement.bid_id == Dispute.bid_id)
                .outerjoin(creator, creator.c.user_id == Placement.creator_id)
                .outerjoin(Post, Post.id == Placement.post_id))

    def _row(self, dispute: Dispute, placement: Placement, name: str | None, url: str | None) -> DisputeRow:
        waiting = dispute.status == "OPEN" and awaiting_answer(dispute.answered_at, dispute.answer_by, self.clock())
        return DisputeRow(dispute, placement, name, url, waiting)

    async def disputes(self, status: str | None) -> list[DisputeRow]:
        query = self._disputes().order_by(Dispute.reported_at.desc()).limit(500)
        if status:
            query = query.where(Dispute.status == status)
        async with self.db.transaction() as session:
            return [self._row(*found) for found in (await session.execute(query)).all()]

    async def dispute(self, dispute_id: uuid.UUID) -> DisputeDetail:
        async with self.db.transaction() as session:
            found = (await session.execute(self._disputes().where(Dispute.id == dispute_id))).first()
            if found is None:
                raise NotFound(NO_DISPUTE)
            row = self._row(*found)
            evidence = await _evidence_of(session, row.placement.bid_id)
            history = list((await session.scalars(select(DisputeStep).where(DisputeStep.dispute_id == dispute_id)
                                                  .order_by(DisputeStep.at, DisputeStep.id))).all())
        return DisputeDetail(row, evidence, history)

    async def dispute_evidence(self, dispute_id: uuid.UUID, evidence_id: uuid.UUID) -> StoredObject:
        async with self.db.transaction() as session:
            found = (await session.execute(select(Evidence).join(Dispute, and_(
                Dispute.bid_id == Evidence.bid_id, Dispute.id == dispute_id)).where(Evidence.id == evidence_id)
            )).scalars().first()
        if found is None:
            raise NotFound("No such screenshot.")
        return await self._read(found)

    async def decide(self, operator_id: uuid.UUID, dispute_id: uuid.UUID, outcome: Outcome, reason: str, *,
                     decide_now: str | None = None) -> DisputeDetail:
        """Once, and only when both sides have spoken: after the creator's answer or once its window closed;
        before that only with `decide_now`, the operator's reason for not waiting, written to the history and the
        audit log. The condition is part of the once-only update, so an answer arriving at the same moment either
        lands first (and the decision follows it) or finds the dispute decided. Of two decisions at once exactly
        one wins, the other is told it was already decided. A REFUND_* outcome ends the placement in the same
        transaction."""
        now = self.clock()
        spoken = or_(Dispute.answered_at.is_not(None), Dispute.answer_by < now)
        async with self.db.transaction() as session:
            decided = (await session.execute(
                update(Dispute).where(Dispute.id == dispute_id, Dispute.status == "OPEN",
                                      true() if decide_now else spoken)
                .values(status="DECIDED", outcome=outcome.value, decision_reason=reason, decided_by=operator_id,
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
            session.add(step(dispute.id, now, f"Decided {outcome.value}: {reason}", by))
            audit = f"{outcome.value}: {reason}" + (f" (decided now, before the creator's answer: {decide_now})"
                                                    if early else "")
            await events_out.publish_all(session, [
                events_out.dispute_decided(placement, dispute),
                events_out.operator_action(operator_id, "dispute.decide_now" if early else "dispute.decide",
                                           "dispute", str(dispute.id), audit, now)])
            if ends_placement(outcome):
                await end_placement(session, placement.bid_id, ENDED_BY[outcome], now)
            elif placement.acceptance == Acceptance.AWAITING:
                # the operator's CONTINUE settles the window too: releases resume on DisputeDecided, and no
                # PlacementAccepted follows (acceptedBy stays empty: neither the brand nor silence accepted it)
                placement.acceptance = Acceptance.ACCEPTED
                placement.accepted_at = now
        return await self.dispute(dispute_id)
