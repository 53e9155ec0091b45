"""How a second-chance offer ends without an answer (second_chance.py has the offer and the answers): its window
runs out (the job, SKIP LOCKED: an offer an answer holds is taken next round), or its brand or the slot's creator is
suspended. Both lock only the offered bid, never its slot, so they cannot deadlock an answer (which locks the slot,
then the bid)."""

import logging
import uuid
from datetime import datetime

from pinbid_kit import outbox
from pinbid_kit.clock import Clock
from pinbid_kit.db import Database
from pinbid_kit.events import EventData
from sqlalchemy import or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from . import SERVICE, events_out
from .domain import second_chance as rules
from .domain.states import BidStatus, check_move
from .models import Bid, Slot
from .settings import MarketplaceSettings

log = logging.getLogger("pinbid.marketplace.offer_ends")


class OfferLapses:
    def __init__(self, db: Database, settings: MarketplaceSettings, clock: Clock):
        self.db, self.settings, self.clock = db, settings, clock

    async def run_once(self, limit: int = 100) -> int:
        """Expire the offers whose window ran out. Offers an answer holds are skipped and taken next round."""
        now = self.clock()
        async with self.db.transaction() as session:
            due = (await session.execute(
                select(Bid).where(Bid.status == BidStatus.OFFERED.value, Bid.offer_expires_at <= now)
                .order_by(Bid.offer_expires_at).limit(limit).with_for_update(skip_locked=True))).scalars().all()
            events: list[EventData] = []
            for bid in due:
                slot = await session.get(Slot, bid.slot_id)
                assert slot is not None
                events += expire_offer(slot, bid, rules.LAPSED, now, self.settings.currency)
            await outbox.publish_all(session, events, source=SERVICE)
        if due:
            log.info("%d second-chance offers lapsed", len(due))
        return len(due)


def expire_offer(slot: Slot, bid: Bid, reason: str, now: datetime, currency: str) -> list[EventData]:
    """An open offer ends without a sale: the bid is EXPIRED again (and, offered once, never offered again)."""
    check_move(BidStatus(bid.status), BidStatus.EXPIRED)
    bid.status = BidStatus.EXPIRED.value
    bid.updated_at = now
    return [events_out.offer_declined_event(slot, bid, reason, currency)]


async def withdraw_offers_of(session: AsyncSession, user_id: uuid.UUID, *, now: datetime,
                             currency: str) -> list[EventData]:
    """A suspended user: the offers made to it (as a brand) and on its slots (as a creator) are withdrawn."""
    offered = (await session.execute(
        select(Bid, Slot).join(Slot, Slot.id == Bid.slot_id)
        .where(Bid.status == BidStatus.OFFERED.value, or_(Bid.buyer_id == user_id, Slot.creator_id == user_id))
        .order_by(Bid.id).with_for_update(of=Bid))).all()
    events: list[EventData] = []
    for bid, slot in offered:
        events += expire_offer(slot, bid, rules.WITHDRAWN, now, currency)
    return events


__all__ = ["OfferLapses", "expire_offer", "withdraw_offers_of"]
