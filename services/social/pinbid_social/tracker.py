"""The pinned-comment worker: syncs likes and replies, counts the whole days a comment stays in place
(PlacementKept, once per day), detects an unpin, a hidden or a deleted comment (judged on the second bad reading
in a row, the first only brings the next check closer), and completes a placement after `duration` days.

Each run claims due placements by moving their `next_sync_at` forward in one statement over rows
locked with SKIP LOCKED, so with several replicas every pinned comment is checked exactly once per
run. Provider calls happen outside any transaction; results are applied with conditional updates
(`WHERE status = 'PINNED'`), so a late or repeated result changes nothing twice."""

import asyncio
import logging
import uuid
from dataclasses import KW_ONLY, dataclass
from datetime import timedelta

from pinbid_kit import outbox
from pinbid_kit.clock import Clock
from pinbid_kit.db import Database
from pinbid_kit.events import EventData
from pinbid_kit.secrets import SecretBox
from sqlalchemy import select, text
from sqlalchemy.dialects.postgresql import insert

from . import SERVICE, events_out
from .adapters import Providers
from .domain.placement import Due, Observation, Status, Step, days_kept, next_step
from .links import clicks_of
from .models import Connection, PinSession, PlacementFigures, Post
from .ports import MediaRef, ProviderError

log = logging.getLogger("pinbid.social.tracker")

_CLAIM = text("""
    UPDATE placements SET next_sync_at = :next, last_synced_at = :now
    WHERE bid_id IN (
        SELECT bid_id FROM placements WHERE status = 'PINNED' AND next_sync_at <= :now
        ORDER BY next_sync_at LIMIT :n FOR UPDATE SKIP LOCKED)
    RETURNING bid_id, slot_id, creator_id, post_id, pinned_comment_id, pinned_at, duration_days, likes, replies,
              misses, days_kept, clicks
""")
# a first bad reading is checked again this soon (or at the usual interval, if that is sooner)
RECHECK = timedelta(minutes=10)


# The batch's results as parallel arrays (one parameter per column, whatever the batch size). Rows
# are locked in bid_id order first, so two overlapping applies cannot deadlock; a row that is no
# longer PINNED (applied by another run, or changed by a person) is left alone and not returned.
_APPLY = text("""
    WITH v AS (
        SELECT * FROM unnest(CAST(:ids AS uuid[]), CAST(:exists AS boolean[]), CAST(:likes AS integer[]),
                             CAST(:replies AS integer[]), CAST(:statuses AS varchar[]), CAST(:misses AS integer[]),
                             CAST(:days AS integer[]), CAST(:reasons AS varchar[]), CAST(:next AS timestamptz[]),
                             CAST(:clicks AS integer[]))
            AS v(bid_id, seen, likes, replies, status, misses, days_kept, reason, next_sync_at, clicks)),
    locked AS (
        SELECT p.bid_id FROM placements p JOIN v USING (bid_id)
        WHERE p.status = 'PINNED' ORDER BY p.bid_id FOR UPDATE OF p)
    UPDATE placements p SET
        likes = CASE WHEN v.seen THEN v.likes ELSE p.likes END,
        replies = CASE WHEN v.seen THEN v.replies ELSE p.replies END,
        status = v.status,
        misses = v.misses,
        clicks = greatest(p.clicks, v.clicks),
        days_kept = greatest(p.days_kept, v.days_kept),
        unpin_reason = coalesce(v.reason, p.unpin_reason),
        next_sync_at = coalesce(v.next_sync_at, p.next_sync_at),
        completed_at = CASE WHEN v.status = 'COMPLETED' THEN :now ELSE p.completed_at END,
        unpinned_at = CASE WHEN v.status = 'UNPINNED' THEN :now ELSE p.unpinned_at END
    FROM v JOIN locked USING (bid_id)
    WHERE p.bid_id = v.bid_id AND p.status = 'PINNED'
    RETURNING p.bid_id
""")
_STATUS = {Step.METRICS: Status.PINNED.value, Step.SUSPECT: Status.PINNED.value,
           Step.COMPLETED: Status.COMPLETED.value, Step.UNPINNED: Status.UNPINNED.value}



@dataclass
class RunReport:
    checked: int = 0
    metrics: int = 0
    kept_days: int = 0
    suspect: int = 0
    unpinned: int = 0
    completed: int = 0
    failed: int = 0


@dataclass(eq=False)
class PinTracker:
    db: Database
    providers: Providers
    box: SecretBox
    _: KW_ONLY
    interval: timedelta
    batch: int
    concurrency: int
    clock: Clock

    async def run_once(self) -> RunReport:
        """Checks every pinned comment that is due, batch after batch."""
        report = RunReport()
        while True:
            due = await self._claim()
            if not due:
                return report
            await self._check(due, report)

    async def _claim(self) -> list[Due]:
        now = self.clock()
        async with self.db.transaction() as session:
            rows = (await session.execute(_CLAIM, {"now": now, "next": now + self.interval, "n": self.batch})).all()
        return [Due(r.bid_id, r.slot_id, r.creator_id, r.post_id or "", r.pinned_comment_id or "", r.pinned_at,
                    r.duration_days or 0, r.likes, r.replies, r.misses, r.days_kept, r.clicks) for r in rows]

    async def _check(self, due: list[Due], report: RunReport) -> None:
        creators = {d.creator_id for d in due}
        async with self.db.transaction() as session:
            tokens = {c.user_id: c.access_token for c in (await session.scalars(
                select(Connection).where(Connection.user_id.in_(creators)))).all()}
            sessions = {s.user_id: s.session for s in (await session.scalars(
                select(PinSession).where(PinSession.user_id.in_(creators)))).all()}
            permalinks = dict((await session.execute(select(Post.id, Post.permalink).where(
                Post.id.in_({d.post_id for d in due})))).all())
        limit = asyncio.Semaphore(self.concurrency)
        pinned_on: dict[tuple[uuid.UUID, str], asyncio.Task] = {}

        async def pinned_ids(d: Due) -> set[str] | None:
            """The post's pinned comments, read once per post and run; None when we cannot tell."""
            if d.creator_id not in sessions:
                return None
            key = (d.creator_id, d.post_id)
            if key not in pinned_on:
                pinned_on[key] = asyncio.ensure_future(self.providers.pinning.pinned_comment_ids(
                    self.box.open(sessions[d.creator_id]), MediaRef(d.post_id, permalinks.get(d.post_id, ""))))
            try:
                return await pinned_on[key]
            except ProviderError:
                return None

        async def observe(d: Due) -> tuple[Due, Observation] | None:
            async with limit:
                token = tokens.get(d.creator_id)
                if token is None:
                    return None  # disconnected: try again next interval
                try:
                    figures = await self.providers.api.comment_figures(self.box.open(token), d.comment_id)
                except ProviderError as failed:
                    log.info("pinned comment of bid %s not checked: %s", d.bid_id, failed.detail)
                    return None
                pinned = await pinned_ids(d) if figures.exists else set()
                return d, Observation(exists=figures.exists,
                                      pinned=True if pinned is None else d.comment_id in pinned,
                                      likes=figures.likes, replies=figures.replies, hidden=figures.hidden)

        results = await asyncio.gather(*(observe(d) for d in due))
        report.checked += len(due)
        report.failed += sum(1 for r in results if r is None)
        await self._apply([r for r in results if r is not None], report)

    async def _apply(self, seen: list[tuple[Due, Observation]], report: RunReport) -> None:
        """Applies a batch's results in one transaction: one UPDATE for all rows (conditional on
        `status = 'PINNED'`, so a row another run already moved on is skipped), then one batched
        insert of the outbox events of the rows it changed."""
        now = self.clock()
        steps: dict[uuid.UUID, tuple[Due, Observation, Step, int]] = {}
        for d, o in seen:
            step = next_step(pinned_at=d.pinned_at, duration_days=d.duration_days, now=now, seen=o, misses=d.misses)
            kept = d.duration_days if step == Step.COMPLETED else days_kept(
                pinned_at=d.pinned_at, duration_days=d.duration_days, now=now) if step == Step.METRICS else d.days_kept
            steps[d.bid_id] = (d, o, step, kept)
        rows = sorted(steps.items())
        recheck = now + min(RECHECK, self.interval)
        async with self.db.transaction() as session:
            clicks = await clicks_of(session, [bid for bid, _ in rows])
            applied = (await session.execute(_APPLY, {
                "ids": [bid for bid, _ in rows], "exists": [o.exists for _, (_, o, _, _) in rows],
                "likes": [o.likes for _, (_, o, _, _) in rows], "replies": [o.replies for _, (_, o, _, _) in rows],
                "statuses": [_STATUS[step] for _, (_, _, step, _) in rows],
                "misses": [d.misses + 1 if step == Step.SUSPECT else 0 for _, (d, _, step, _) in rows],
                "days": [kept for _, (_, _, _, kept) in rows],
                "reasons": [o.broken.value if step == Step.UNPINNED and o.broken else None
                            for _, (_, o, step, _) in rows],
                "next": [recheck if step == Step.SUSPECT else None for _, (_, _, step, _) in rows],
                "clicks": [clicks.get(bid, 0) for bid, _ in rows],
                "now": now})).scalars().all()
            events: list[EventData] = []
            figures: list[dict] = []
            for bid in sorted(applied):
                d, o, step, kept = steps[bid]
                moved = o.exists and (o.likes, o.replies) != (d.likes, d.replies)
                if moved:
                    figures.append({"bid_id": bid, "at": now, "likes": o.likes, "replies": o.replies})
                if moved or clicks.get(bid, 0) > d.clicks:
                    report.metrics += 1
                    likes, replies = (o.likes, o.replies) if o.exists else (d.likes, d.replies)
                    events.append(events_out.comment_metrics_updated(d, likes, replies,
                                                                     max(clicks.get(bid, 0), d.clicks)))
                for day in range(d.days_kept + 1, kept + 1):
                    report.kept_days += 1
                    events.append(events_out.placement_kept(d, day, now))
                if step == Step.SUSPECT:
                    report.suspect += 1
                elif step == Step.COMPLETED:
                    report.completed += 1
                    events.append(events_out.placement_completed(d, now))
                elif step == Step.UNPINNED:
                    report.unpinned += 1
                    events.append(events_out.comment_unpinned(d, o.broken or "UNPINNED", now))
            if figures:
                await session.execute(insert(PlacementFigures).values(figures).on_conflict_do_nothing())
            await outbox.publish_all(session, events, source=SERVICE)
