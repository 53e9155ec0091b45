"""What social's screens read: the creator's posts with their pin slots (from the read model, synced with the
provider when stale), the creator's placements waiting for their pin, a placement's trust (its screenshots,
acceptance, fresh-screenshot request and dispute) and the operator's disputes. Who may see a placement is decided
here too: its brand, its creator or an operator; anyone else gets a 404."""

import logging
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta

from pinbid_kit.clock import Clock
from pinbid_kit.db import Database
from pinbid_kit.errors import BadGateway, InstagramUnauthorized, NotFound
from pinbid_kit.objects import ObjectMissing, ObjectStore, StoredObject
from pinbid_kit.tokens import Principal
from sqlalchemy import and_, select
from sqlalchemy.ext.asyncio import AsyncSession

from .connections import Connections, connection_of
from .domain.placement import SESSION, Status, pin_actions
from .domain.trust import BRAND, CREATOR, KIND_ORDER, Actions, TrustState, actions, awaiting_answer
from .models import BidComment, Dispute, DisputeStep, Evidence, Placement, Post, Slot, User

log = logging.getLogger("pinbid.social.posts")
OPERATOR = "OPERATOR"
NO_PLACEMENT = "No such placement."
NO_DISPUTE = "No such dispute."
NO_SCREENSHOT = "No such screenshot."


@dataclass(frozen=True)
class PostView:
    post: Post
    slots: list[Slot]


class Posts:
    def __init__(self, db: Database, connections: Connections, *, stale_after: timedelta, clock: Clock):
        self.db = db
        self.connections = connections
        self.stale_after = stale_after
        self.clock = clock

    async def of(self, user_id: uuid.UUID, *, refresh: bool = False) -> list[PostView]:
        async with self.db.transaction() as session:
            connection = await connection_of(session, user_id)
        if connection is None:
            raise InstagramUnauthorized("Connect your Instagram account to see your posts.",
                                        code="instagram_not_connected")
        synced = connection.last_synced_at
        if refresh or synced is None or self.clock() - synced >= self.stale_after:
            try:
                await self.connections.sync(user_id)
            except BadGateway as failed:
                if synced is None:
                    raise
                log.warning("serving cached posts of %s: %s", user_id, failed.detail)
        return await self.cached(user_id)

    async def cached(self, user_id: uuid.UUID) -> list[PostView]:
        async with self.db.transaction() as session:
            posts = (await session.scalars(select(Post).where(Post.user_id == user_id).order_by(Post.position))).all()
            slots = (await session.scalars(select(Slot).where(
                Slot.creator_id == user_id, Slot.post_id.in_([p.id for p in posts]))
                .order_by(Slot.auction_end.desc()))).all()
        by_post: dict[str, list[Slot]] = {}
        for slot in slots:
            by_post.setdefault(slot.post_id, []).append(slot)
        return [PostView(post=p, slots=by_post.get(p.id, [])) for p in posts]


# --- the creator's pins waiting -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class PinState:
    bid_id: uuid.UUID
    method: str
    actions: list[str]


class PinStates:
    def __init__(self, db: Database):
        self.db = db

    async def states(self, creator_id: uuid.UUID) -> list[PinState]:
        """The creator's placements waiting for their pin, each with its method and what may be pressed now."""
        async with self.db.transaction() as session:
            rows = (await session.execute(
                select(Placement, BidComment.approved_comment_id).outerjoin(BidComment,
                                                                            BidComment.bid_id == Placement.bid_id)
                .where(Placement.creator_id == creator_id, Placement.status == Status.AWAITING_PIN))).all()
        return [PinState(bid_id=p.bid_id, method=p.pin_method or SESSION,
                         actions=pin_actions(Status(p.status), p.pin_method,
                                             bool(p.posted_comment_id or named)))
                for p, named in rows]


# --- a placement's trust ------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class TrustView:
    placement: Placement
    evidence: list[Evidence]
    dispute: Dispute | None
    actions: Actions  # what the viewer may do now, and by when


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


async def evidence_of(session: AsyncSession, bid_id: uuid.UUID) -> list[Evidence]:
    """Oldest first; at the same moment, the pin's screenshot before later ones."""
    found = (await session.scalars(select(Evidence).where(Evidence.bid_id == bid_id))).all()
    return sorted(found, key=lambda e: (e.uploaded_at, KIND_ORDER.get(e.kind, 9)))


def trust_state(placement: Placement, dispute: Dispute | None) -> TrustState:
    """The placement as the trust rules read it; `dispute` is its latest (open or decided) or None."""
    is_open = dispute is not None and dispute.status == "OPEN"
    return TrustState(status=placement.status, acceptance=placement.acceptance, accept_by=placement.accept_by,
                      dispute_open=is_open, dispute_answered_at=dispute.answered_at if is_open else None,
                      dispute_answer_by=dispute.answer_by if is_open else None,
                      recheck_requested_at=placement.recheck_requested_at,
                      recheck_answered_at=placement.recheck_answered_at,
                      recheck_missed_at=placement.recheck_missed_at, recheck_answer_by=placement.recheck_answer_by)


def viewer_of(placement: Placement, user_id: uuid.UUID) -> str | None:
    """The side of the placement `user_id` is on: BRAND, CREATOR, or None (an operator)."""
    return BRAND if user_id == placement.buyer_id else CREATOR if user_id == placement.creator_id else None


async def trust_view(session: AsyncSession, placement: Placement, viewer: str | None, now: datetime) -> TrustView:
    """The placement as its trust screen shows it to `viewer` at `now`, read in the caller's transaction (a use
    case answers with what it wrote)."""
    evidence = await evidence_of(session, placement.bid_id)
    # the latest dispute; of two reported at one moment (a frozen clock), the open one
    dispute = (await session.scalars(select(Dispute).where(Dispute.bid_id == placement.bid_id)
                                     .order_by(Dispute.reported_at.desc(), (Dispute.status == "OPEN").desc())
                                     .limit(1))).first()
    return TrustView(placement, evidence, dispute, actions(viewer, trust_state(placement, dispute), now))


def _may_see(principal: Principal, placement: Placement | None) -> None:
    """The placement's brand, its creator, or an operator; anyone else learns nothing, not even that it exists."""
    if placement is None or placement.status in {Status.AWAITING_PAYMENT} or not (
            principal.role == OPERATOR or principal.user_id in {placement.buyer_id, placement.creator_id}):
        raise NotFound(NO_PLACEMENT)


def _disputes():
    creator = User.__table__.alias("creator")
    return (select(Dispute, Placement, creator.c.name, Post.permalink)
            .join(Placement, Placement.bid_id == Dispute.bid_id)
            .outerjoin(creator, creator.c.user_id == Placement.creator_id)
            .outerjoin(Post, Post.id == Placement.post_id))


class TrustQueries:
    def __init__(self, db: Database, objects: ObjectStore, *, clock: Clock):
        self.db = db
        self.objects = objects
        self.clock = clock

    async def view(self, principal: Principal, bid_id: uuid.UUID) -> TrustView:
        async with self.db.transaction() as session:
            placement = await session.get(Placement, bid_id)
            _may_see(principal, placement)
            assert placement is not None
            return await trust_view(session, placement, viewer_of(placement, principal.user_id), self.clock())

    async def evidence(self, principal: Principal, bid_id: uuid.UUID, evidence_id: uuid.UUID) -> StoredObject:
        async with self.db.transaction() as session:
            _may_see(principal, await session.get(Placement, bid_id))
            found = await session.get(Evidence, evidence_id)
        if found is None or found.bid_id != bid_id:
            raise NotFound(NO_SCREENSHOT)
        return await self._read(found)

    async def _read(self, found: Evidence) -> StoredObject:
        try:
            stored = await self.objects.get(found.object_key)
        except ObjectMissing:
            raise NotFound("This screenshot is no longer stored.") from None
        return StoredObject(data=stored.data, content_type=found.content_type)

    # --- the operator's ------------------------------------------------------------------------------------------
    def _row(self, dispute: Dispute, placement: Placement, name: str | None, url: str | None) -> DisputeRow:
        waiting = dispute.status == "OPEN" and awaiting_answer(dispute.answered_at, dispute.answer_by, self.clock())
        return DisputeRow(dispute, placement, name, url, waiting)

    async def disputes(self, status: str | None) -> list[DisputeRow]:
        query = _disputes().order_by(Dispute.reported_at.desc()).limit(500)
        if status:
            query = query.where(Dispute.status == status)
        async with self.db.transaction() as session:
            return [self._row(*found) for found in (await session.execute(query)).all()]

    async def dispute(self, dispute_id: uuid.UUID) -> DisputeDetail:
        async with self.db.transaction() as session:
            found = (await session.execute(_disputes().where(Dispute.id == dispute_id))).first()
            if found is None:
                raise NotFound(NO_DISPUTE)
            row = self._row(*found)
            evidence = await evidence_of(session, row.placement.bid_id)
            history = list((await session.scalars(select(DisputeStep).where(DisputeStep.dispute_id == dispute_id)
                                                  .order_by(DisputeStep.at, DisputeStep.id))).all())
        return DisputeDetail(row, evidence, history)

    async def dispute_evidence(self, dispute_id: uuid.UUID, evidence_id: uuid.UUID) -> StoredObject:
        async with self.db.transaction() as session:
            found = (await session.execute(select(Evidence).join(Dispute, and_(
                Dispute.bid_id == Evidence.bid_id, Dispute.id == dispute_id)).where(Evidence.id == evidence_id)
            )).scalars().first()
        if found is None:
            raise NotFound(NO_SCREENSHOT)
        return await self._read(found)
