"""The brand's side of a placement the creator pinned in the Instagram app: "Looks right" (its acceptance) and
"Report a problem" (a dispute). Each locks the placement's row (`FOR UPDATE`) and takes the time only once the row
is its own, so "Looks right" and a report are recorded in the order they won; the rules are `domain/trust.py`'s."""

import uuid
from datetime import timedelta

from pinbid_kit import outbox
from pinbid_kit.clock import Clock
from pinbid_kit.db import Database
from pinbid_kit.errors import Conflict, NotFound
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from . import SERVICE, events_out
from .disputes import locked_open_dispute, open_dispute
from .domain.placement import Status
from .domain.trust import BRAND, Acceptance, Refusal, acceptance_refused, report_refused
from .models import Placement
from .queries import NO_PLACEMENT, TrustView, trust_state, trust_view


def refuse_if(refused: Refusal | None) -> None:
    if refused is not None:
        raise Conflict(refused.message, code=refused.code)


class BrandAcceptance:
    def __init__(self, db: Database, *, dispute_answer: timedelta, clock: Clock):
        self.db = db
        self.dispute_answer = dispute_answer
        self.clock = clock

    @staticmethod
    async def _brand_placement(session: AsyncSession, buyer_id: uuid.UUID, bid_id: uuid.UUID) -> Placement:
        placement = (await session.scalars(select(Placement).where(Placement.bid_id == bid_id)
                                           .with_for_update())).first()
        if placement is None or placement.buyer_id != buyer_id or placement.status == Status.AWAITING_PAYMENT:
            raise NotFound(NO_PLACEMENT)
        return placement

    async def accept(self, buyer_id: uuid.UUID, bid_id: uuid.UUID) -> TrustView:
        """"Looks right": once, while the acceptance window is open and nothing is reported."""
        async with self.db.transaction() as session:
            placement = await self._brand_placement(session, buyer_id, bid_id)
            now = self.clock()  # once the row is ours
            running = trust_state(placement, None).running
            # the open dispute is read (and locked) only once the placement's own state allows "Looks right"
            refuse_if(acceptance_refused(running, placement.acceptance, disputed=False))
            refuse_if(acceptance_refused(running, placement.acceptance,
                                         disputed=await locked_open_dispute(session, bid_id) is not None))
            placement.acceptance = Acceptance.ACCEPTED
            placement.accepted_at = now
            placement.accepted_by = "BRAND"
            await outbox.publish_all(session, [events_out.placement_accepted(placement, now, "BRAND")], source=SERVICE)
            return await trust_view(session, placement, BRAND, now)

    async def report(self, buyer_id: uuid.UUID, bid_id: uuid.UUID, reason: str) -> TrustView:
        """"Report a problem" in the window, or "no longer pinned" at any time while the placement runs: a dispute
        opens and every further release stops."""
        async with self.db.transaction() as session:
            placement = await self._brand_placement(session, buyer_id, bid_id)
            now = self.clock()  # once the row is ours (see accept)
            pinned = trust_state(placement, None).pinned
            refuse_if(report_refused(pinned, disputed=False))  # (see accept)
            refuse_if(report_refused(pinned, disputed=await locked_open_dispute(session, bid_id) is not None))
            _, disputed = await open_dispute(session, placement, reason, "BRAND", now, self.dispute_answer)
            await outbox.publish_all(session, [disputed], source=SERVICE)
            return await trust_view(session, placement, BRAND, now)
