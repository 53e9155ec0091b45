"""What the calls read: the marketplace listing, a slot, bid lists and the dashboard figures."""

import re
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal

from pinbid_kit.clock import Clock
from pinbid_kit.db import Database
from pinbid_kit.errors import Invalid, NotFound
from sqlalchemy import ColumnElement, Select, any_, bindparam, case, cast, func, literal, or_, select, text
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.dialects.postgresql import UUID as PG_UUID
from sqlalchemy.types import Text

from . import reliability, store
from .domain.campaigns import PAID_STATUSES, WIN_STATUSES, Figures
from .domain.campaigns import Filters as CampaignFilters
from .domain.listing import CATEGORIES, COUNT_CAP, TIME_LEFT
from .domain.reliability import Record
from .domain.states import BidStatus
from .domain.tabs import COMPLETED_PLACEMENT, REFUNDED_PAYMENT, RUNNING_PLACEMENT, TAB_OF_STATUS, WON_AUCTION, Tab
from .models import Bid, Campaign, CampaignSlot, Slot, SlotPrice, User, open_slot_counts

# Approvals screen: the decision, then the payment and the pin it waits for.
APPROVAL_STATUSES = (BidStatus.PENDING_INFLUENCER_APPROVAL, BidStatus.APPROVED, BidStatus.AWAITING_PAYMENT,
                     BidStatus.WON)
ORDER = {
    "newest": (Slot.created_at.desc(), Slot.id),
    "popular": (Slot.bid_count.desc(), Slot.id),
    "price-low": (Slot.price.asc(), Slot.id),
    "price-high": (Slot.price.desc(), Slot.id.desc()),  # the price index read backwards, no re-sort
    "ending-soon": (Slot.auction_end.asc(), Slot.id),
    "most-views": (Slot.avg_views.desc(), Slot.id),
    # the highest share of placements kept to the end, the longest record first; new creators last
    "most-reliable": (Slot.creator_kept_pct.desc().nulls_last(), Slot.creator_placements.desc(), Slot.id),
}


@dataclass(frozen=True)
class Search:
    q: str | None = None
    category: str | None = None
    min_price: Decimal | None = None
    max_price: Decimal | None = None
    min_views: int | None = None
    time_left: str | None = None
    verified: bool | None = None
    min_kept_percent: int | None = None  # creators who kept at least this share of their finished placements
    no_bids: bool | None = None
    sort_by: str = "newest"
    page: int = 1
    limit: int = 10


@dataclass(frozen=True)
class Page:
    slots: list[Slot]
    total: int  # exact, or the cap when `total_is_exact` is false: at least this many match
    total_is_exact: bool
    page: int
    limit: int
    count_cap: int = COUNT_CAP

    @property
    def total_pages(self) -> int:
        """The pages that can be asked for: none past the cap, whatever the total."""
        return (min(self.total, self.count_cap) + self.limit - 1) // self.limit


@dataclass(frozen=True)
class Kept:
    hits: int  # how many of the question's words occur in the slot
    category: str


@dataclass(frozen=True)
class StoredMeaning:
    """A slot's stored vectors (meaning.py), each None until made."""
    word: bytes | None  # all the word model's dimensions, or the index's first ones where those are not made yet
    sentence: bytes | None


@dataclass(frozen=True)
class BidView:
    bid: Bid
    slot: Slot
    buyer: User | None
    campaign_name: str | None = None  # the campaign that placed the bid, for its brand


def escape_like(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def words(q: str) -> list[str]:
    """The runs of letters and digits pg_trgm makes trigrams of."""
    return re.findall(r"[^\W_]+", q)


def text_match(q: str) -> ColumnElement[bool]:
    """Where `q` occurs in the title, description or creator name, as typed (`%_\\` are themselves), through the
    trigram index. A search without three letters or digits in a row has no trigram the index can look up, so it
    matches the start of a word instead ("tv" finds "TV setup", not "gtv"): still through the index."""
    typed = escape_like(q.lower())
    if any(len(word) >= 3 for word in words(q)):
        return Slot.search.like(f"%{typed}%", escape="\\")
    return or_(Slot.search.like(f"{typed}%", escape="\\"), Slot.search.like(f"% {typed}%", escape="\\"))


def one_of(slot_ids: Sequence[uuid.UUID]) -> ColumnElement[bool]:
    """The slot is one of `slot_ids`, sent as one array literal (hundreds of candidates as one parameter; the
    driver's array dumper would quote each id in Python)."""
    ids = "{" + ",".join(str(slot_id) for slot_id in slot_ids) + "}"
    return Slot.id == any_(cast(cast(ids, Text), ARRAY(PG_UUID(as_uuid=True))))


def filtered(search: Search, now: datetime) -> Select:
    query = select(Slot).where(Slot.status == "ACTIVE", Slot.auction_end > now)
    if search.q:
        query = query.where(text_match(search.q))
    if search.category and search.category.lower() != "all":
        query = query.where(Slot.category == search.category.lower())
    if search.min_price is not None:
        query = query.where(Slot.price >= search.min_price)
    if search.max_price is not None:
        query = query.where(Slot.price <= search.max_price)
    if search.min_views:
        query = query.where(Slot.avg_views >= search.min_views)
    if search.time_left in TIME_LEFT:
        query = query.where(Slot.auction_end <= now + TIME_LEFT[search.time_left])
    if search.verified:
        query = query.where(Slot.verified.is_(True))
    if search.min_kept_percent:
        query = query.where(Slot.creator_kept_pct >= search.min_kept_percent)
    if search.no_bids:
        query = query.where(Slot.bid_count == 0)
    return query


def only_by_category(search: Search) -> bool:
    return not (search.q or search.min_price is not None or search.max_price is not None or search.min_views
                or search.time_left in TIME_LEFT or search.verified or search.min_kept_percent or search.no_bids)


def beyond_reach(search: Search, cap: int = COUNT_CAP) -> bool:
    """A page that starts past the cap: not served, as no total says it exists and its OFFSET costs every row before
    it."""
    return (search.page - 1) * search.limit >= cap


def count_query(search: Search, now: datetime, cap: int = COUNT_CAP) -> Select:
    """The number of slots the search matches, counted up to one past `cap` (more than the cap reads as "at least
    the cap"). Filtered by nothing but a category, the exact number: the open slots the trigger of migration 0007
    counted, less those already past their end that the closer has yet to close."""
    if not only_by_category(search):
        return select(func.count()).select_from(
            filtered(search, now).with_only_columns(literal(1)).limit(cap + 1).subquery())
    opened = select(func.coalesce(func.sum(open_slot_counts.c.open), 0))
    ended = select(func.count()).where(Slot.status == "ACTIVE", Slot.auction_end <= now)
    if search.category and search.category.lower() != "all":
        opened = opened.where(open_slot_counts.c.category == search.category.lower())
        ended = ended.where(Slot.category == search.category.lower())
    return select(opened.scalar_subquery() - ended.scalar_subquery())


def page_query(search: Search, now: datetime, cap: int = COUNT_CAP) -> Select:
    total = count_query(search, now, cap).scalar_subquery().label("total")
    return (filtered(search, now).add_columns(total).order_by(*ORDER[search.sort_by])
            .offset((search.page - 1) * search.limit).limit(search.limit))


class Queries:
    def __init__(self, db: Database, clock: Clock, count_cap: int = COUNT_CAP):
        self.db, self.clock, self.count_cap = db, clock, count_cap

    async def marketplace(self, search: Search) -> Page:
        """One statement: the page, each row carrying the total counted up to the cap (index-only where it can be,
        see migration 0004); a page past the end has no row to carry it, so only then is it counted on its own.
        A page past the cap is refused."""
        if search.q and not words(search.q):
            raise Invalid("Search for at least one letter or digit.", field="q")
        if beyond_reach(search, self.count_cap):
            raise Invalid(f"Only the first {self.count_cap:,} matches can be paged through: narrow the search.",
                          field="page")
        now, cap = self.clock(), self.count_cap
        async with self.db.transaction() as session:
            rows = (await session.execute(page_query(search, now, cap))).all()
            counted = rows[0].total if rows else await session.scalar(count_query(search, now, cap))
        exact = (counted or 0) <= cap or only_by_category(search)
        return Page(slots=[r[0] for r in rows], total=(counted or 0) if exact else cap, total_is_exact=exact,
                    page=search.page, limit=search.limit, count_cap=cap)

    async def with_every_word(self, search: Search, keywords: Sequence[str], limit: int) -> dict[uuid.UUID, Kept]:
        """The newest slots the search's filters keep where every one of `keywords` occurs (the trigram index
        intersects the words' matches, so a common word costs no more than the rarest), newest first, each with its
        category."""
        if not keywords:
            return {}
        query = (filtered(search, self.clock()).with_only_columns(Slot.id, Slot.category)
                 .where(*(text_match(word) for word in keywords))
                 .order_by(Slot.created_at.desc(), Slot.id).limit(limit))
        async with self.db.autocommit() as conn:
            return {slot_id: Kept(len(keywords), category) for slot_id, category in await conn.execute(query)}

    async def kept_with_words(self, search: Search, slot_ids: Sequence[uuid.UUID],
                              keywords: Sequence[str]) -> dict[uuid.UUID, Kept]:
        """Which of `slot_ids` the search's filters keep, each with how many of `keywords` occur in it and its
        category."""
        if not slot_ids:
            return {}
        hits = sum((case((text_match(word), 1), else_=0) for word in keywords), literal(0))
        query = filtered(search, self.clock()).with_only_columns(Slot.id, hits, Slot.category).where(
            one_of(slot_ids))
        async with self.db.autocommit() as conn:
            return {slot_id: Kept(hits, category) for slot_id, hits, category in await conn.execute(query)}

    async def meanings(self, slot_ids: Sequence[uuid.UUID]) -> dict[uuid.UUID, StoredMeaning]:
        """The stored vectors of `slot_ids` (the candidates a question ranks)."""
        if not slot_ids:
            return {}
        query = select(Slot.id, func.coalesce(Slot.word_meaning, Slot.meaning), Slot.sentence_meaning).where(
            one_of(slot_ids))
        async with self.db.autocommit() as conn:
            return {slot_id: StoredMeaning(word, sentence) for slot_id, word, sentence in await conn.execute(query)}

    async def kept_in_order(self, search: Search, slot_ids: Sequence[uuid.UUID]) -> list[uuid.UUID]:
        """Which of `slot_ids` the search's filters keep, in the search's own order."""
        if not slot_ids:
            return []
        query = (filtered(search, self.clock()).with_only_columns(Slot.id).where(one_of(slot_ids))
                 .order_by(*ORDER[search.sort_by]))
        async with self.db.autocommit() as conn:
            return list(await conn.scalars(query))

    async def slots_in_order(self, slot_ids: Sequence[uuid.UUID]) -> list[Slot]:
        async with self.db.transaction() as session:
            found = {slot.id: slot for slot in await session.scalars(select(Slot).where(one_of(slot_ids)))}
        return [found[i] for i in slot_ids if i in found]

    @staticmethod
    def categories() -> list[str]:
        return list(CATEGORIES)

    async def slot(self, slot_id: uuid.UUID) -> tuple[Slot, list[BidView]]:
        async with self.db.transaction() as session:
            slot = await session.get(Slot, slot_id)
            if slot is None:
                raise NotFound("Pin slot not found.")
            return slot, await self._bids(session, BID_ROWS.where(Bid.slot_id == slot_id))

    async def price_history(self, slot_ids: Sequence[uuid.UUID]) -> dict[uuid.UUID, list[SlotPrice]]:
        """Each slot's public price as it moved, oldest first (kept by the database: models.SlotPrice)."""
        async with self.db.autocommit() as conn:
            rows = (await conn.execute(select(SlotPrice.slot_id, SlotPrice.price, SlotPrice.at)
                                       .where(SlotPrice.slot_id.in_(slot_ids))
                                       .order_by(SlotPrice.slot_id, SlotPrice.at, SlotPrice.seq))).all()
        found: dict[uuid.UUID, list[SlotPrice]] = {}
        for row in rows:
            found.setdefault(row.slot_id, []).append(SlotPrice(slot_id=row.slot_id, price=row.price, at=row.at))
        return found

    async def creator_active_slots(self, creator_id: uuid.UUID) -> list[tuple[Slot, list[BidView]]]:
        async with self.db.transaction() as session:
            slots = list(await session.scalars(select(Slot).where(Slot.creator_id == creator_id,
                                                                  Slot.status == "ACTIVE")
                                               .order_by(Slot.auction_end)))
            views = await self._bids(session, BID_ROWS.where(Bid.slot_id.in_([s.id for s in slots])))
            return [(s, [v for v in views if v.slot.id == s.id]) for s in slots]

    async def buyer_bids(self, buyer_id: uuid.UUID) -> list[BidView]:
        async with self.db.transaction() as session:
            return await self._bids(session, BID_ROWS.where(Bid.buyer_id == buyer_id))

    async def creator_bids(self, creator_id: uuid.UUID, statuses: Sequence[BidStatus] | None = None) -> list[BidView]:
        query = BID_ROWS.where(Bid.slot_id.in_(select(Slot.id).where(Slot.creator_id == creator_id)))
        if statuses is not None:
            query = query.where(Bid.status.in_(statuses))
        async with self.db.transaction() as session:
            return await self._bids(session, query)

    async def record(self, creator_id: uuid.UUID) -> Record:
        async with self.db.autocommit() as conn:
            return await reliability.record_of(conn, creator_id)

    async def creator_figures(self, creator_id: uuid.UUID) -> dict[str, int]:
        async with self.db.transaction() as session:
            row = (await session.execute(_CREATOR_FIGURES, {"creator_id": creator_id})).one()
        return {"activeSlots": row.active_slots, "pendingApprovals": row.pending_approvals,
                "completedJobs": row.completed_jobs}

    async def buyer_figures(self, buyer_id: uuid.UUID) -> dict[str, int]:
        async with self.db.transaction() as session:
            row = (await session.execute(_BUYER_FIGURES, {"buyer_id": buyer_id})).one()
        return {"activeBids": row.active_bids, "wonAuctions": row.won_auctions}

    @staticmethod
    async def _bids(session, query: Select) -> list[BidView]:
        """One Core statement: bids with their slot and buyer, newest first (no ORM identity map or loading)."""
        rows = (await session.execute(
            query.add_columns(Campaign.name.label("c_name"))
            .join(Slot, Slot.id == Bid.slot_id).outerjoin(User, User.id == Bid.buyer_id)
            .outerjoin(Campaign, Campaign.id == Bid.campaign_id)
            .order_by(Bid.created_at.desc(), Bid.id))).all()
        return [BidView(bid=store.bid_of(r), slot=store.slot_of(r), buyer=store.user_of(r), campaign_name=r.c_name)
                for r in rows]


def bid_rows() -> Select:
    """Bid, slot and buyer columns, named as store.py reads them."""
    return select(*[c.label("b_" + c.name) for c in Bid.__table__.columns],
                  *[c.label("s_" + c.name) for c in Slot.__table__.columns],
                  *[c.label("u_" + c.name) for c in User.__table__.columns]).select_from(Bid)


BID_ROWS = bid_rows()


def _count(*where) -> ColumnElement[int]:
    return func.count().filter(*where)


def tab_sql(status: ColumnElement[str], placement: ColumnElement[str | None],
            payment: ColumnElement[str | None]) -> ColumnElement[str]:
    """`domain.tabs.tab_of` in SQL, built from the same table, for the figures counted in the database."""
    pinned = case((or_(placement.is_(None), placement == RUNNING_PLACEMENT), Tab.LIVE.value), else_=Tab.PAST.value)
    return case((payment == REFUNDED_PAYMENT, Tab.PAST.value), (status == BidStatus.PINNED.value, pinned),
                *((status == bid_status.value, tab.value) for bid_status, tab in TAB_OF_STATUS.items()))


BID_TAB = tab_sql(Bid.status, Bid.pinned_status, Bid.payment_status)


_CREATOR_FIGURES = select(
    select(func.count()).where(Slot.creator_id == bindparam("creator_id"), Slot.status == "ACTIVE")
    .scalar_subquery().label("active_slots"),
    select(func.count()).select_from(Bid).join(Slot, Slot.id == Bid.slot_id)
    .where(Slot.creator_id == bindparam("creator_id"), Bid.status == BidStatus.PENDING_INFLUENCER_APPROVAL.value)
    .scalar_subquery().label("pending_approvals"),
    select(func.count()).select_from(Bid).join(Slot, Slot.id == Bid.slot_id)
    .where(Slot.creator_id == bindparam("creator_id"), Bid.pinned_status == COMPLETED_PLACEMENT)
    .scalar_subquery().label("completed_jobs"))
_not_refunded = Bid.payment_status.is_distinct_from(REFUNDED_PAYMENT)  # a win refunded in full does not stand
_BUYER_FIGURES = (select(_count(BID_TAB == Tab.ACTIVE.value).label("active_bids"),
                         _count(Bid.status.in_(sorted(s.value for s in WON_AUCTION)),
                                _not_refunded).label("won_auctions"))
                  .where(Bid.buyer_id == bindparam("buyer_id")))


# --- a campaign's slots and detail (campaigns.py, campaign_bidding.py) -----------------------------------------
def search_of(filters: CampaignFilters, **overrides) -> Search:
    """The listing's own search for a campaign's filters (queries.filtered)."""
    values = dict(q=filters.search, category=filters.category, min_price=filters.min_price,
                  max_price=filters.max_price, min_views=filters.min_views, time_left=filters.time_left,
                  verified=filters.verified, min_kept_percent=filters.min_kept_percent)
    return Search(**{**values, **overrides})


FITTING_CAP = 1000


async def fitting_now(session, filters: CampaignFilters, now: datetime) -> int:
    """How many open slots a campaign's filters keep now (the listing's own filter), counted up to FITTING_CAP."""
    fits = filtered(search_of(filters), now).with_only_columns(Slot.id).limit(FITTING_CAP).subquery()
    return await session.scalar(select(func.count()).select_from(fits))


@dataclass(frozen=True)
class CampaignBidRow:
    bid_id: uuid.UUID
    slot_id: uuid.UUID
    slot_title: str
    creator_name: str
    status: str
    amount: Decimal
    max_auto_bid: Decimal | None
    final_price: Decimal | None
    clicks: int
    updated_at: datetime


@dataclass(frozen=True)
class SkippedRow:
    slot_id: uuid.UUID
    slot_title: str
    outcome: str
    at: datetime


@dataclass(frozen=True)
class SpendPoint:
    at: datetime
    spent: Decimal
    committed: Decimal


_WIN_LIST = ", ".join(f"'{s}'" for s in WIN_STATUSES)
_CAMPAIGN_BIDS = text("""
    SELECT b.id, b.slot_id, s.title, s.creator_name, b.status, b.amount, b.max_auto_bid, b.final_price, b.clicks,
           b.updated_at
    FROM bids b JOIN slots s ON s.id = b.slot_id WHERE b.campaign_id = :id ORDER BY b.created_at DESC, b.id""")
# the wins that stand, with when their auction closed and when they were paid
_CAMPAIGN_WINS = text(f"""
    SELECT coalesce(s.closed_at, b.updated_at) AS won_at, b.paid_at, b.final_price - b.refunded AS paid,
           b.final_price, b.status
    FROM bids b JOIN slots s ON s.id = b.slot_id
    WHERE b.campaign_id = :id AND b.status IN ({_WIN_LIST}) AND b.payment_status IS DISTINCT FROM 'REFUNDED'
    """)


def spend_over_time(wins: list, figures: Figures, now: datetime) -> list[SpendPoint]:
    """Spent (the paid wins, at their payment) and committed to wins (at their auction's close), as they rose; the
    last point is now, with everything committed (the live bids' maxima too)."""
    moments: list[tuple[datetime, Decimal, Decimal]] = []
    for w in wins:
        moments.append((w.won_at, Decimal(0), w.final_price))
        if w.status in PAID_STATUSES and w.paid_at is not None:
            moments.append((w.paid_at, w.paid, Decimal(0)))
    points: list[SpendPoint] = []
    spent = committed = Decimal("0.00")
    for at, paid, won in sorted(moments, key=lambda m: m[0]):
        spent, committed = spent + paid, committed + won
        points.append(SpendPoint(at=at, spent=spent, committed=committed))
    points.append(SpendPoint(at=now, spent=figures.spent, committed=figures.committed))
    return points


async def campaign_rows(session, campaign_id: uuid.UUID) -> tuple[list[CampaignBidRow], list[SkippedRow], list]:
    """A campaign's bids (newest first), the fitting slots it placed no bid on (the latest 200), and its wins."""
    bids = [CampaignBidRow(*r) for r in (await session.execute(_CAMPAIGN_BIDS, {"id": campaign_id})).all()]
    skipped = [SkippedRow(*r) for r in (await session.execute(
        select(CampaignSlot.slot_id, Slot.title, CampaignSlot.outcome, CampaignSlot.created_at)
        .join(Slot, Slot.id == CampaignSlot.slot_id)
        .where(CampaignSlot.campaign_id == campaign_id, CampaignSlot.outcome != "BID")
        .order_by(CampaignSlot.created_at.desc()).limit(200))).all()]
    return bids, skipped, (await session.execute(_CAMPAIGN_WINS, {"id": campaign_id})).all()
