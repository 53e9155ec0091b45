"""The creator's evidence for a placement pinned in the Instagram app: the screenshots, stored and recorded, and the
creator's fresh screenshot that answers an open dispute (within its window) or Pinbid's request for one (within
its window). A screenshot is stored before the transaction that records it and removed again when that transaction
refuses it, so nothing is kept for a refused upload."""

import uuid
from datetime import datetime

from pinbid_kit import outbox
from pinbid_kit.clock import Clock
from pinbid_kit.db import Database
from pinbid_kit.errors import Conflict, NotFound
from pinbid_kit.objects import ObjectStore
from sqlalchemy import select

from . import SERVICE, events_out
from .disputes import locked_open_dispute, step
from .domain.trust import ANSWER, CREATOR, Refusal, recheck_open
from .models import Dispute, Evidence, Placement
from .queries import NO_PLACEMENT, TrustView, trust_state, trust_view
from .screenshots import Screenshot


def _ext(content_type: str) -> str:
    return {"image/jpeg": "jpg", "image/png": "png", "image/webp": "webp"}[content_type]


async def store_screenshot(objects: ObjectStore, bid_id: uuid.UUID, shot: Screenshot) -> str:
    key = f"evidence/{bid_id}/{uuid.uuid4().hex}.{_ext(shot.content_type)}"
    await objects.put(key, shot.data, shot.content_type)
    return key


def evidence_row(bid_id: uuid.UUID, kind: str, key: str, shot: Screenshot, by: uuid.UUID, at: datetime) -> Evidence:
    return Evidence(id=uuid.uuid4(), bid_id=bid_id, kind=kind, object_key=key, content_type=shot.content_type,
                    size=len(shot.data), width=shot.width, height=shot.height, uploaded_by=by, uploaded_at=at)


def _recheck_open(placement: Placement) -> bool:
    return recheck_open(placement.recheck_requested_at, placement.recheck_answered_at, placement.recheck_missed_at)


def _awaited(placement: Placement, dispute: Dispute | None, now: datetime) -> str:
    """What a screenshot from the creator answers now (ANSWER or RECHECK); a 409 saying why when nothing waits."""
    kind = trust_state(placement, dispute).awaited(now)
    if isinstance(kind, Refusal):
        raise Conflict(kind.message, code=kind.code)
    return kind


class CreatorEvidence:
    def __init__(self, db: Database, objects: ObjectStore, *, clock: Clock):
        self.db = db
        self.objects = objects
        self.clock = clock

    async def answerable(self, creator_id: uuid.UUID, bid_id: uuid.UUID) -> None:
        """Whether the creator may send a screenshot for this placement now, asked before the upload is read."""
        async with self.db.transaction() as session:
            placement = await session.get(Placement, bid_id)
            if placement is None or placement.creator_id != creator_id:
                raise NotFound(NO_PLACEMENT)
            open_dispute = (await session.scalars(select(Dispute).where(
                Dispute.bid_id == bid_id, Dispute.status == "OPEN"))).first()
            _awaited(placement, open_dispute, self.clock())

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

    async def _record_answer(self, creator_id: uuid.UUID, bid_id: uuid.UUID, key: str, shot: Screenshot,
                             note: str | None) -> TrustView:
        async with self.db.transaction() as session:
            placement = (await session.scalars(select(Placement).where(Placement.bid_id == bid_id)
                                               .with_for_update())).first()
            assert placement is not None and placement.creator_id == creator_id
            dispute = await locked_open_dispute(session, bid_id)
            now = self.clock()  # once the row is ours: the record's order is the order things happened
            kind = _awaited(placement, dispute, now)
            events = []
            if kind == ANSWER:
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
            await outbox.publish_all(session, events, source=SERVICE)
            return await trust_view(session, placement, CREATOR, now)
