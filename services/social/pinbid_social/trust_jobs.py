"""The placement-trust job: accepts by silence once the brand's window closed, asks for due fresh screenshots,
opens disputes for missed ones, unpins ended SESSION placements. Each step claims its rows with
`FOR UPDATE SKIP LOCKED` (or a conditional update), so replicas never act on the same placement twice, and writes
the events of its run once."""

import logging
import uuid
from dataclasses import KW_ONLY, dataclass
from datetime import timedelta

from pinbid_kit import outbox
from pinbid_kit.clock import Clock
from pinbid_kit.db import Database
from pinbid_kit.secrets import SecretBox
from sqlalchemy import exists, select, text, update
from sqlalchemy.ext.asyncio import AsyncSession

from . import SERVICE, events_out
from .adapters import Providers
from .disputes import locked_open_dispute, open_dispute
from .domain.placement import Status
from .domain.trust import Acceptance
from .models import Dispute, PinSession, Placement, Post
from .ports import MediaRef, ProviderError, SessionExpired

log = logging.getLogger("pinbid.social.trust")

UNPIN_CLAIM = timedelta(minutes=2)
MISSED_RECHECK = "The creator did not send the fresh screenshot Pinbid asked for in time."


@dataclass(eq=False)
class TrustJobs:
    db: Database
    providers: Providers
    box: SecretBox
    _: KW_ONLY
    recheck_answer: timedelta
    dispute_answer: timedelta
    clock: Clock

    async def run_once(self) -> dict[str, int]:
        """Accepts by silence, asks for due fresh screenshots, opens disputes for missed ones, unpins ended
        SESSION placements. Safe on several replicas at once."""
        return {"accepted": await self._accept_by_silence(), "rechecks": await self._request_rechecks(),
                "missed": await self._open_missed_rechecks(), "unpinned": await self._unpin_ended()}

    @staticmethod
    async def _claim(session: AsyncSession, *where) -> list[Placement]:
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
            await outbox.publish_all(session, [events_out.placement_accepted(p, now, "SILENCE") for p in due],
                                     source=SERVICE)
        return len(due)

    async def _request_rechecks(self) -> int:
        now = self.clock()
        async with self.db.transaction() as session:
            due = await self._claim(session, Placement.status == Status.PINNED, Placement.recheck_at <= now,
                                    Placement.recheck_requested_at.is_(None))
            for placement in due:
                placement.recheck_requested_at = now
                placement.recheck_answer_by = now + self.recheck_answer
            await outbox.publish_all(session, [events_out.recheck_requested(p, now, now + self.recheck_answer)
                                               for p in due], source=SERVICE)
        return len(due)

    async def _open_missed_rechecks(self) -> int:
        """A missed fresh screenshot opens a dispute (unless one is open already); the run's PlacementDisputed
        events are written together, once."""
        now = self.clock()
        async with self.db.transaction() as session:
            due = await self._claim(session, Placement.status == Status.PINNED,
                                    Placement.recheck_answer_by <= now, Placement.recheck_answered_at.is_(None),
                                    Placement.recheck_missed_at.is_(None))
            events = []
            for placement in due:
                placement.recheck_missed_at = now
                if await locked_open_dispute(session, placement.bid_id) is None:
                    _, disputed = await open_dispute(session, placement, MISSED_RECHECK, "SYSTEM", now,
                                                     self.dispute_answer)
                    events.append(disputed)
            await outbox.publish_all(session, events, source=SERVICE)
        return len(events)

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
