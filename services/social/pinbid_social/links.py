"""Vanity links (domain/links.py): the brand sets its page and an optional promo code for a placement; `/go/<code>`
redirects to it and counts the click in one statement; the brand's results page reads clicks by hour and the
comment's likes and replies over time."""

import logging
import re
import uuid
from dataclasses import dataclass
from datetime import datetime

from pinbid_kit.clock import Clock
from pinbid_kit.db import Database
from pinbid_kit.errors import BadGateway, Conflict, Invalid, NotFound
from pydantic import BaseModel, ConfigDict
from sqlalchemy import exc, select, text
from sqlalchemy.dialects.postgresql import insert

from .domain import links
from .models import LinkClicks, LinkTargetChange, Placement, PlacementFigures, VanityLink
from .ports import LinkReputation, ProviderError

NOT_YOURS = "This placement does not exist."
log = logging.getLogger("pinbid.social.links")


class Unfollowable(Exception):
    """A short link whose stored target no longer passes the link rule (domain/links.py)."""

# One round trip: the link, the visitor counted unless seen within the window (the row lock makes two clicks of one
# visitor at once count once), the hour's tally, and where to send them.
_FOLLOW = text("""
    WITH link AS (
        SELECT v.code, v.destination, s.title
        FROM vanity_links v LEFT JOIN placements p ON p.bid_id = v.bid_id LEFT JOIN slots s ON s.slot_id = p.slot_id
        WHERE v.code = :code),
    counted AS (
        INSERT INTO link_visitors (code, visitor, counted_at)
        SELECT code, :visitor, :now FROM link WHERE :counts
        ON CONFLICT (code, visitor) DO UPDATE SET counted_at = excluded.counted_at
        WHERE link_visitors.counted_at <= excluded.counted_at - CAST(:window AS interval)
        RETURNING code),
    tallied AS (
        INSERT INTO link_clicks (code, hour, clicks) SELECT code, :hour, 1 FROM counted
        ON CONFLICT (code, hour) DO UPDATE SET clicks = link_clicks.clicks + 1)
    SELECT destination, title FROM link""")


@dataclass(frozen=True)
class Link:
    code: str
    destination: str
    promo_code: str | None


@dataclass(frozen=True)
class Results:
    link: Link | None
    clicks: int
    clicks_by_hour: list[tuple[datetime, int]]
    figures: list[tuple[datetime, int, int]]  # (at, likes, replies)
    likes: int
    replies: int
    status: str


def _slug(title: str | None, code: str) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", (title or "").lower()).strip("-")[:60]
    return slug or f"pinbid-{code}"


class TargetChange(BaseModel):
    """A short link's target changed after its comment was pinned (schemas.LinkChangeOut is this in the API's
    shape)."""

    model_config = ConfigDict(frozen=True)

    id: uuid.UUID
    bid_id: uuid.UUID
    code: str
    buyer_id: uuid.UUID
    buyer_name: str | None
    creator_id: uuid.UUID
    creator_name: str | None
    from_url: str
    to_url: str
    pinned_at: datetime
    changed_at: datetime


_CHANGES = text("""
    SELECT c.id, c.bid_id, c.code, c.buyer_id, coalesce(b.business_name, b.name, p.business_name, p.buyer_name)
           AS buyer_name, c.creator_id, u.name AS creator_name, c.from_url, c.to_url, c.pinned_at, c.changed_at
    FROM link_target_changes c LEFT JOIN placements p ON p.bid_id = c.bid_id
    LEFT JOIN users b ON b.user_id = c.buyer_id LEFT JOIN users u ON u.user_id = c.creator_id
    WHERE (CAST(:bid_id AS uuid) IS NULL OR c.bid_id = :bid_id)
    ORDER BY c.changed_at DESC, c.id LIMIT 500""")


class Links:
    def __init__(self, db: Database, visitor_key: bytes, clock: Clock, reputation: LinkReputation | None = None):
        self.db, self.visitor_key, self.clock, self.reputation = db, visitor_key, clock, reputation

    async def _refuse_unsafe(self, destination: str) -> None:
        if self.reputation is None:
            return
        try:
            threat = await self.reputation.threat(destination, links.host_of(destination))
        except ProviderError as failed:
            raise BadGateway(f"Could not check the link's safety right now; please try again. ({failed.detail})",
                             code="link_check_unavailable") from None
        if threat is not None:
            raise Invalid("This address is listed as unsafe, so a pinned comment cannot send people there.",
                          field="url", code="unsafe_link")

    async def _placement(self, session, buyer_id: uuid.UUID, bid_id: uuid.UUID) -> Placement:
        placement = await session.get(Placement, bid_id)
        if placement is None or placement.buyer_id != buyer_id:
            raise NotFound(NOT_YOURS)
        return placement

    async def set(self, buyer_id: uuid.UUID, bid_id: uuid.UUID, url: str, promo: str | None) -> Link:
        try:
            destination, promo_code = links.destination(url), links.promo_code(promo)
        except links.BadLink as bad:
            raise Invalid(bad.message, field=bad.field) from None
        await self._refuse_unsafe(destination)
        now = self.clock()
        for _ in range(5):  # a new code that is taken already: draw another
            try:
                async with self.db.transaction() as session:
                    placement = await self._placement(session, buyer_id, bid_id)
                    before = await session.scalar(select(VanityLink).where(VanityLink.bid_id == bid_id)
                                                  .with_for_update())
                    previous = before.destination if before is not None else None
                    row = await session.scalar(
                        insert(VanityLink).values(code=links.new_code(), bid_id=bid_id, buyer_id=buyer_id,
                                                  destination=destination, promo_code=promo_code, created_at=now,
                                                  updated_at=now)
                        .on_conflict_do_update(index_elements=[VanityLink.bid_id],
                                               set_={"destination": destination, "promo_code": promo_code,
                                                     "updated_at": now})
                        .returning(VanityLink).execution_options(populate_existing=True))
                    if previous is not None and previous != destination and placement.pinned_at is not None:
                        session.add(LinkTargetChange(
                            id=uuid.uuid4(), bid_id=bid_id, code=row.code, buyer_id=buyer_id,
                            creator_id=placement.creator_id, from_url=previous, to_url=destination,
                            pinned_at=placement.pinned_at, changed_at=now))
                    return Link(row.code, row.destination, row.promo_code)
            except exc.IntegrityError:
                continue
        raise Conflict("Could not make a short link right now. Please try again.", code="link_busy")

    async def target_changes(self, bid_id: uuid.UUID | None = None) -> list[TargetChange]:
        """Short-link targets changed after their comment was pinned, newest first (for operators)."""
        async with self.db.autocommit() as conn:
            rows = (await conn.execute(_CHANGES, {"bid_id": bid_id})).all()
        return [TargetChange(**row._mapping) for row in rows]

    async def follow(self, code: str, *, method: str, user_agent: str, address: str) -> str | None:
        """Where `/go/<code>` sends a visitor (None: no such link), the click counted if it can be a person's.
        Unfollowable when the stored target fails today's rule (a row stored before a rule was added, e.g. a port
        like `:99999`): nobody is sent to it. The click still counts: a person did follow the short link."""
        if not links.CODE.match(code):
            return None
        now = self.clock()
        async with self.db.autocommit() as conn:
            row = (await conn.execute(_FOLLOW, {
                "code": code, "visitor": links.visitor(address, user_agent, self.visitor_key), "now": now,
                "hour": links.hour_of(now), "counts": links.counts(method, user_agent),
                "window": links.REPEAT_WINDOW})).first()
        if row is None:
            return None
        if not links.followable(row.destination):
            log.warning("short link %s has a target today's rule refuses; not followed", code)
            raise Unfollowable(code)
        return links.with_utm(row.destination, _slug(row.title, code))

    async def results(self, buyer_id: uuid.UUID, bid_id: uuid.UUID) -> Results:
        async with self.db.transaction() as session:
            placement = await self._placement(session, buyer_id, bid_id)
            link = await session.scalar(select(VanityLink).where(VanityLink.bid_id == bid_id))
            hours = [] if link is None else list((await session.execute(
                select(LinkClicks.hour, LinkClicks.clicks).where(LinkClicks.code == link.code)
                .order_by(LinkClicks.hour))).tuples())
            figures = list((await session.execute(
                select(PlacementFigures.at, PlacementFigures.likes, PlacementFigures.replies)
                .where(PlacementFigures.bid_id == bid_id).order_by(PlacementFigures.at))).tuples())
        return Results(link=Link(link.code, link.destination, link.promo_code) if link else None,
                       clicks=sum(c for _, c in hours), clicks_by_hour=hours, figures=figures,
                       likes=placement.likes, replies=placement.replies, status=placement.status)


_CLICKS_OF = text("""
    SELECT v.bid_id, coalesce(sum(c.clicks), 0) AS clicks
    FROM vanity_links v JOIN link_clicks c ON c.code = v.code
    WHERE v.bid_id = ANY(CAST(:ids AS uuid[])) GROUP BY v.bid_id""")


async def clicks_of(session, bid_ids: list[uuid.UUID]) -> dict[uuid.UUID, int]:
    """The counted clicks of these placements' links (the tracker announces them with the other figures)."""
    return {row.bid_id: int(row.clicks) for row in await session.execute(_CLICKS_OF, {"ids": bid_ids})}
