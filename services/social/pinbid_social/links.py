"""Vanity links (domain/links.py): the brand sets its page and an optional promo code for a placement; `/go/<code>`
redirects to it and counts the click in one statement; the brand's results page reads clicks by hour and the
comment's likes and replies over time."""

import re
import uuid
from dataclasses import dataclass
from datetime import datetime

from pinbid_kit.clock import Clock
from pinbid_kit.db import Database
from pinbid_kit.errors import Conflict, Invalid, NotFound
from sqlalchemy import exc, select, text
from sqlalchemy.dialects.postgresql import insert

from .domain import links
from .models import LinkClicks, Placement, PlacementFigures, VanityLink

NOT_YOURS = "This placement does not exist."

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


class Links:
    def __init__(self, db: Database, visitor_key: bytes, clock: Clock):
        self.db, self.visitor_key, self.clock = db, visitor_key, clock

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
        now = self.clock()
        for _ in range(5):  # a new code that is taken already: draw another
            try:
                async with self.db.transaction() as session:
                    await self._placement(session, buyer_id, bid_id)
                    row = await session.scalar(
                        insert(VanityLink).values(code=links.new_code(), bid_id=bid_id, buyer_id=buyer_id,
                                                  destination=destination, promo_code=promo_code, created_at=now,
                                                  updated_at=now)
                        .on_conflict_do_update(index_elements=[VanityLink.bid_id],
                                               set_={"destination": destination, "promo_code": promo_code,
                                                     "updated_at": now})
                        .returning(VanityLink))
                    return Link(row.code, row.destination, row.promo_code)
            except exc.IntegrityError:
                continue
        raise Conflict("Could not make a short link right now. Please try again.", code="link_busy")

    async def follow(self, code: str, *, method: str, user_agent: str, address: str) -> str | None:
        """Where `/go/<code>` sends a visitor (None: no such link), the click counted if it can be a person's."""
        if not links.CODE.match(code):
            return None
        now = self.clock()
        async with self.db.autocommit() as conn:
            row = (await conn.execute(_FOLLOW, {
                "code": code, "visitor": links.visitor(address, user_agent, self.visitor_key), "now": now,
                "hour": links.hour_of(now), "counts": links.counts(method, user_agent),
                "window": links.REPEAT_WINDOW})).first()
        return links.with_utm(row.destination, _slug(row.title, code)) if row else None

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
