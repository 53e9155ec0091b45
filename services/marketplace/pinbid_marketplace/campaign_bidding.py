"""Pinbid bids for a campaign (issue 36, docs/decisions/campaigns.md): every open slot that fits gets a bid when a
campaign becomes ACTIVE (`match`), and every new slot is matched against the ACTIVE campaigns (`bid_on_new_slot`,
from marketplace's own `slot.created`). A campaign's outbid bid is cancelled by the campaign (`release_outbid`), and
a clock (`run_clock`) ends campaigns past their end, starts paid-in drafts, lets an out-of-budget campaign bid again
once something fits what it has left, and settles ended ones.

The budget: a campaign's bid is placed in the transaction that holds the campaign's row lock, after checking its
committed total (read under that lock) plus the new ceiling against min(budget, funded); the bid, the campaign's
record of the slot and its `campaign.updated` commit together. Every transaction that takes campaign locks takes
them before any slot's (in id order when several), so two never wait on each other in a cycle."""

import logging
import uuid
from datetime import datetime
from decimal import Decimal

from pinbid_kit import outbox
from pinbid_kit.clock import Clock
from pinbid_kit.db import Database
from pinbid_kit.errors import ApiError
from sqlalchemy import and_, delete, exists, or_, select, text, update
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.ext.asyncio import AsyncSession

from . import SERVICE
from .bidding import Bidding
from .campaigns import available, changed, figures_of, life_of, lock, settles, store_life
from .domain import campaigns as rules
from .domain.campaigns import CampaignStatus, Filters, OpenSlot, Skip
from .domain.comments import Comment
from .domain.money import CENT
from .domain.offers import Offer
from .models import Bid, Campaign, CampaignSlot, Slot
from .queries import filtered, search_of
from .settings import MarketplaceSettings

log = logging.getLogger("pinbid.marketplace.campaigns")
BID = "BID"
MATCH_PAGE = 200
# an auction that moved between the read and the batch: planned again on a fresh read this many times
PLAN_ATTEMPTS = 3
SKIP_OF_CODE = {"associated_account": Skip.ASSOCIATED, "own_bid": Skip.OWN_BID, "campaign_bid": Skip.OWN_BID,
                "own_slot": Skip.OWN_BID}

_SLOT_FACTS = text("""
    SELECT s.min_bid, s.current_bid, s.status, s.auction_end,
           EXISTS (SELECT 1 FROM bids b WHERE b.slot_id = s.id AND b.buyer_id = :buyer_id
                   AND b.status IN ('ACTIVE', 'OUTBID')) AS brand_bids_there
    FROM slots s WHERE s.id = :slot_id""")
_CONSIDERED = text("""
    SELECT EXISTS (SELECT 1 FROM campaign_slots WHERE campaign_id = :campaign_id AND slot_id = :slot_id)
        OR EXISTS (SELECT 1 FROM bids WHERE campaign_id = :campaign_id AND slot_id = :slot_id)""")


def open_slot(row) -> OpenSlot:
    return OpenSlot(category=row.category, price=row.price, avg_views=row.avg_views, verified=row.verified,
                    creator_kept_pct=row.creator_kept_pct, auction_end=row.auction_end, search=row.search)


def not_considered(campaign_id: uuid.UUID):
    return ~exists().where(CampaignSlot.campaign_id == campaign_id, CampaignSlot.slot_id == Slot.id)


class CampaignBidding:
    def __init__(self, db: Database, settings: MarketplaceSettings, bidding: Bidding, clock: Clock):
        self.db, self.settings, self.bidding, self.clock = db, settings, bidding, clock

    # --- a new slot --------------------------------------------------------------------------------------------
    async def bid_on_new_slot(self, session: AsyncSession, slot_id: uuid.UUID) -> int:
        """In the caller's transaction (the handler of `slot.created`, with its inbox row): every ACTIVE campaign
        the slot fits bids on it. Returns how many bid."""
        now = self.clock()
        slot = await open_slot_row(session, slot_id)
        if slot is None:
            return 0
        fitting = await self.campaigns_for(session, open_slot(slot), now)
        if not fitting:
            return 0
        # every campaign lock before the slot's (taken by the first placement), in id order
        rows = list(await session.scalars(select(Campaign).where(Campaign.id.in_(fitting))
                                          .order_by(Campaign.id).with_for_update()))
        placed = 0
        for row in rows:
            placed += await self.bid_within(session, row, slot_id)
        return placed

    async def campaigns_for(self, session: AsyncSession, slot: OpenSlot, now: datetime) -> list[uuid.UUID]:
        """The ACTIVE campaigns within their dates whose filters keep `slot` (domain.campaigns.matches). The
        category is also asked of the database (most campaigns name one), so only those of the slot's are read."""
        category = Campaign.filters["category"].astext
        active = (await session.execute(
            select(Campaign.id, Campaign.filters).where(Campaign.status == CampaignStatus.ACTIVE.value,
                                                        Campaign.starts_at <= now, Campaign.ends_at > now,
                                                        or_(category.is_(None), category == slot.category)))).all()
        return [c.id for c in active if rules.matches(Filters.of_json(c.filters), slot, now)]

    # --- a campaign that becomes ACTIVE ------------------------------------------------------------------------
    async def match(self, session: AsyncSession, campaign_id: uuid.UUID) -> int:
        """In the caller's transaction (the handler of the campaign's `updated`, with its inbox row): every open slot
        that fits and that the campaign has not considered gets its bid, soonest ending first, while the campaign
        stays ACTIVE. One connection only: a delivery that held its own while waiting for a second one from the
        pool could wait on every other delivery doing the same (docs/decisions/campaigns.md). The campaign's row
        lock is taken only when there is a slot to bid on, and held to the end."""
        placed = 0
        tried: set[uuid.UUID] = set()
        row: Campaign | None = None
        while True:
            now = self.clock()
            current = row or (await session.execute(select(Campaign.id, Campaign.filters, Campaign.buyer_id,
                                                            Campaign.status).where(Campaign.id == campaign_id))).first()
            if current is None or current.status != CampaignStatus.ACTIVE.value:
                return placed
            query = (filtered(search_of(Filters.of_json(current.filters)), now).with_only_columns(Slot.id)
                     .where(not_considered(current.id), Slot.creator_id != current.buyer_id)
                     .order_by(Slot.auction_end, Slot.id).limit(MATCH_PAGE))
            slot_ids = [i for i in await session.scalars(query) if i not in tried]
            if not slot_ids:
                return placed
            if row is None:
                row = await lock(session, campaign_id)  # its status and filters read again under the lock
                continue
            for slot_id in slot_ids:
                tried.add(slot_id)
                if row.status != CampaignStatus.ACTIVE.value:
                    return placed
                placed += await self.bid_within(session, row, slot_id)

    # --- the brand's own bid cancelled -----------------------------------------------------------------------
    async def after_own_bid_cancelled(self, session: AsyncSession, buyer_id: uuid.UUID, slot_id: uuid.UUID) -> int:
        """In the caller's transaction (the handler of `campaign.own_bid_cancelled`): the brand's ACTIVE campaigns
        that skipped the slot for the brand's own bid (`OWN_BID`) and still fit it get their chance on it, as on a
        new slot: the skip is forgotten and each bids under its lock (id order). Returns how many bid."""
        now = self.clock()
        slot = await open_slot_row(session, slot_id)
        if slot is None:
            return 0
        skipped = (await session.execute(
            select(Campaign.id, Campaign.filters).join(CampaignSlot, CampaignSlot.campaign_id == Campaign.id)
            .where(Campaign.buyer_id == buyer_id, Campaign.status == CampaignStatus.ACTIVE.value,
                   CampaignSlot.slot_id == slot_id, CampaignSlot.outcome == Skip.OWN_BID.value))).all()
        fitting = [c.id for c in skipped if rules.matches(Filters.of_json(c.filters), open_slot(slot), now)]
        placed = 0
        for row in await session.scalars(select(Campaign).where(Campaign.id.in_(fitting)).order_by(Campaign.id)
                                         .with_for_update()):
            await session.execute(delete(CampaignSlot).where(CampaignSlot.campaign_id == row.id,
                                                             CampaignSlot.slot_id == slot_id,
                                                             CampaignSlot.outcome == Skip.OWN_BID.value))
            placed += await self.bid_within(session, row, slot_id)
        return placed

    # --- one bid ----------------------------------------------------------------------------------------------
    async def bid_within(self, session: AsyncSession, row: Campaign, slot_id: uuid.UUID) -> int:
        """The campaign's bid on one slot that fits, `row` locked by the caller. Returns 1 when it bid."""
        now = self.clock()
        if row.status != CampaignStatus.ACTIVE.value or not rules.within_dates(row.starts_at, row.ends_at, now):
            return 0
        conn = await session.connection()
        if await conn.scalar(_CONSIDERED, {"campaign_id": row.id, "slot_id": slot_id}):
            return 0  # never twice on one slot
        for _ in range(PLAN_ATTEMPTS):
            facts = (await conn.execute(_SLOT_FACTS, {"slot_id": slot_id, "buyer_id": row.buyer_id})).first()
            if facts is None or facts.status != "ACTIVE" or facts.auction_end <= now:
                await self._consider(session, row.id, slot_id, Skip.CLOSED)
                return 0
            figures = (await figures_of(session, [row.id]))[row.id]
            decision = rules.plan_bid(min_bid=facts.min_bid, current_bid=facts.current_bid,
                                      max_per_slot=row.max_per_slot, budget=row.budget, funded_total=row.funded,
                                      committed=figures.committed, brand_bids_there=facts.brand_bids_there)
            if decision.short_of_budget:
                life = life_of(row)
                rules.out_of_budget(life)
                store_life(row, life)
                await self._changed(session, row)
                return 0
            if decision.skip is not None:
                await self._consider(session, row.id, slot_id, decision.skip)
                return 0
            assert decision.plan is not None
            try:
                view = await self.bidding.place_within(
                    conn, row.buyer_id, slot_id, Offer(decision.plan.amount, True, decision.plan.ceiling),
                    Comment(text=row.comment_text), row.id)
            except ApiError as refused:
                if refused.code == "bid_too_low":
                    continue  # the price rose since the read: plan again
                await self._consider(session, row.id, slot_id, SKIP_OF_CODE.get(refused.code, Skip.CLOSED))
                return 0
            await self._consider(session, row.id, slot_id, BID, view.bid.id)
            await self._changed(session, row)
            return 1
        return 0

    @staticmethod
    async def _consider(session: AsyncSession, campaign_id: uuid.UUID, slot_id: uuid.UUID, outcome: str,
                        bid_id: uuid.UUID | None = None) -> None:
        await session.execute(insert(CampaignSlot).values(campaign_id=campaign_id, slot_id=slot_id, bid_id=bid_id,
                                                          outcome=outcome).on_conflict_do_nothing())

    async def _changed(self, session: AsyncSession, row: Campaign) -> None:
        """Its figures moved (or its status): a new version with its `updated`, read after the change."""
        figures = (await figures_of(session, [row.id]))[row.id]
        if row.status == CampaignStatus.ACTIVE.value and available(row, figures) <= 0:
            life = life_of(row)
            rules.out_of_budget(life)
            store_life(row, life)
        await outbox.publish_all(session, changed(row, figures, self.clock(), self.settings.currency),
                                 source=SERVICE)

    # --- released commitment -----------------------------------------------------------------------------------
    async def release_outbid(self, session: AsyncSession, bid_id: uuid.UUID) -> bool:
        """A campaign's bid that lost the lead is cancelled by the campaign (the ordinary cancel of a bid that does
        not lead), which releases its ceiling; an out-of-budget campaign may bid again. The bid is marked released
        (`released_at`): unlike a brand's own cancel, it stays the runner-up for a second chance."""
        bid = (await session.execute(select(Bid.campaign_id, Bid.buyer_id, Bid.status).where(Bid.id == bid_id))).first()
        if bid is None or bid.campaign_id is None or bid.status != "OUTBID":
            return False
        row = await lock(session, bid.campaign_id)
        if row is None:
            return False
        try:
            await self.bidding.cancel_within(await session.connection(), bid.buyer_id, bid_id)
        except ApiError:
            return False  # it leads again (the leader left), or it ended meanwhile
        await session.execute(update(Bid).where(Bid.id == bid_id).values(released_at=self.clock()))
        figures = (await figures_of(session, [row.id]))[row.id]
        life = life_of(row)
        rules.released(life, available(row, figures), self.clock())
        store_life(row, life)
        await self._changed(session, row)
        return True

    # --- the clock ---------------------------------------------------------------------------------------------
    async def run_clock(self) -> int:
        """One round: returns how many campaigns changed."""
        now = self.clock()
        async with self.db.transaction() as session:
            due = list(await session.scalars(select(Campaign.id).where(or_(
                and_(Campaign.status != CampaignStatus.ENDED.value, Campaign.ends_at <= now),
                and_(Campaign.status == CampaignStatus.DRAFT.value, Campaign.funded > 0, Campaign.starts_at <= now),
                Campaign.status == CampaignStatus.OUT_OF_BUDGET.value,
                and_(Campaign.status == CampaignStatus.ENDED.value, Campaign.settled_at.is_(None))))
                .order_by(Campaign.id)))
        moved = 0
        for campaign_id in due:
            async with self.db.transaction() as session:
                row = await lock(session, campaign_id)
                if row is not None and await self._tick(session, row, now):
                    moved += 1
        return moved

    async def _tick(self, session: AsyncSession, row: Campaign, now: datetime) -> bool:
        figures = (await figures_of(session, [row.id]))[row.id]
        before = (row.status, row.settled_at)
        life = life_of(row)
        rules.tick(life, now)
        if life.status == CampaignStatus.OUT_OF_BUDGET and await self._something_fits(session, row, figures, now):
            rules.released(life, available(row, figures), now)
        store_life(row, life)
        if (row.status, row.settled_at) == before and not settles(row, figures):
            return False
        await outbox.publish_all(session, changed(row, figures, now, self.settings.currency), source=SERVICE)
        return True

    async def _something_fits(self, session: AsyncSession, row: Campaign, figures, now: datetime) -> bool:
        """An open slot it has not considered whose price what is left reaches (what it may bid again on)."""
        left = min(available(row, figures), row.max_per_slot)
        if left <= 0:
            return False
        filters = Filters.of_json(row.filters)
        cap = left - CENT if filters.max_price is None else min(filters.max_price, left - CENT)
        query = (filtered(search_of(filters, max_price=max(cap, Decimal(0))), now).with_only_columns(Slot.id)
                 .where(not_considered(row.id), Slot.creator_id != row.buyer_id).limit(1))
        return (await session.scalar(query)) is not None


async def open_slot_row(session: AsyncSession, slot_id: uuid.UUID):
    """What a campaign's filters read of a slot, or None when the slot is gone or no longer open."""
    slot = (await session.execute(select(Slot.category, Slot.price, Slot.avg_views, Slot.verified,
                                         Slot.creator_kept_pct, Slot.auction_end, Slot.search, Slot.status)
                                  .where(Slot.id == slot_id))).first()
    return slot if slot is not None and slot.status == "ACTIVE" else None
