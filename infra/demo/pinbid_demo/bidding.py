"""Background bidding for the demo (embedded run only): now and then one of the demo's brands outbids the
leader of an open demo slot, through the same `Bidding.place` as a person, so a first-time visitor sees
prices move. Only slots marked as demo are ever touched, and the brand a visitor signs in as never bids
on its own."""

import logging
import random
from datetime import datetime, timedelta
from decimal import Decimal

from pinbid_kit.clock import Clock
from pinbid_kit.db import Database
from pinbid_kit.errors import ApiError
from pinbid_marketplace.bidding import Bidding, Offer
from pinbid_marketplace.domain import auction
from pinbid_marketplace.domain.comments import Comment
from pinbid_marketplace.models import Bid, Slot, User
from pinbid_marketplace.settings import MarketplaceSettings
from sqlalchemy import select

from . import plan as demo

log = logging.getLogger("pinbid.demo.bidding")
QUIET_BEFORE_END = timedelta(minutes=3)  # leave the last minutes to people (and to the soft close)
PRICE_CAP = Decimal("2.5")  # times the minimum bid: the brands' budget


class DemoBidders:
    def __init__(self, db: Database, settings: MarketplaceSettings, rules: auction.Rules, clock: Clock,
                 rng: random.Random | None = None):
        self.db, self.settings, self.clock = db, settings, clock
        self.bidding = Bidding(db, settings, rules, clock)
        self.rng = rng or random.Random()
        self.brands = [b for b in demo.BRANDS if b.bids_in_background]

    async def run_once(self) -> int:
        """Places at most one bid; returns how many it placed."""
        now = self.clock()
        async with self.db.transaction() as session:
            brand_ids = dict((await session.execute(select(User.email, User.id).where(
                User.email.in_([b.email for b in self.brands])))).all())
            open_slots = list(await session.scalars(select(Slot).where(
                Slot.is_demo.is_(True), Slot.status == "ACTIVE", Slot.auction_end > now + QUIET_BEFORE_END)
                .order_by(Slot.id)))
            leaders = dict((await session.execute(select(Bid.slot_id, Bid.buyer_id).where(
                Bid.slot_id.in_([s.id for s in open_slots]), Bid.status == "ACTIVE"))).all())
        candidates = [s for s in open_slots if (s.current_bid or s.min_bid) < s.min_bid * PRICE_CAP]
        if not candidates or not brand_ids:
            return 0
        slot = self.rng.choice(candidates)
        brands = [b for b in self.brands if b.email in brand_ids and brand_ids[b.email] != leaders.get(slot.id)
                  and b.fits(slot.category)]  # a brand bids where its product fits
        if not brands:
            return 0
        brand = self.rng.choice(brands)
        return await self._bid(slot, brand, brand_ids[brand.email], now)

    async def _bid(self, slot: Slot, brand: demo.Brand, buyer_id, now: datetime) -> int:
        step = self.settings.bid_step
        amount = (slot.current_bid + step * self.rng.randint(1, 4)) if slot.current_bid else slot.min_bid
        auto = self.rng.random() < 0.4
        offer = Offer(amount=amount, auto_bid_enabled=auto,
                      max_auto_bid=amount + step * self.rng.randint(3, 12) if auto else None)
        try:
            await self.bidding.place(buyer_id, slot.id, offer, Comment(text=brand.comment_for(slot.category)))
        except ApiError as refused:  # outbid or ended meanwhile: the next round tries again
            log.info("demo bid on %s refused: %s", slot.id, refused.detail)
            return 0
        log.info("demo brand %s bid %s on %r", brand.business_name, amount, slot.title)
        return 1
