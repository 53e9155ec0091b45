"""A brand's campaign (issue 36, docs/decisions/campaigns.md): its terms and their checks, its life (DRAFT, ACTIVE,
PAUSED, OUT_OF_BUDGET, ENDED), which open slots fit its filters, and the bid it may place on one within its budget.
Pure rules: the use cases (campaigns.py, campaign_bidding.py) read and lock the rows."""

import re
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from decimal import Decimal
from enum import StrEnum

from . import comments, listing
from .errors import RuleBroken, StateConflict
from .money import CENT, MAX_AMOUNT, dollars

MAX_NAME = 80
MAX_SEARCH = 100  # the listing's own `q`
MAX_VIEWS = 10**12
MAX_LENGTH = timedelta(days=366)


class CampaignStatus(StrEnum):
    DRAFT = "DRAFT"
    ACTIVE = "ACTIVE"
    PAUSED = "PAUSED"
    OUT_OF_BUDGET = "OUT_OF_BUDGET"
    ENDED = "ENDED"


C = CampaignStatus


class Reason(StrEnum):
    """Why a campaign stopped bidding (the event's `reason`)."""

    PAUSED = "paused"
    BUDGET = "budget"
    ENDS_AT = "ends_at"
    ENDED_BY_BRAND = "ended_by_brand"
    FUNDING_REVERSED = "funding_reversed"
    SUSPENDED = "suspended"  # the brand's account was suspended


@dataclass(frozen=True)
class Filters:
    """Who to reach, in the listing's own parameters (GET /marketplace/slots): stored as their JSON names."""

    category: str | None = None
    min_price: Decimal | None = None
    max_price: Decimal | None = None
    min_views: int | None = None
    verified: bool | None = None
    min_kept_percent: int | None = None
    time_left: str | None = None
    search: str | None = None

    def as_json(self) -> dict[str, object]:
        values = {"category": self.category, "minPrice": str(self.min_price) if self.min_price is not None else None,
                  "maxPrice": str(self.max_price) if self.max_price is not None else None,
                  "minViews": self.min_views, "verified": self.verified, "minKeptPercent": self.min_kept_percent,
                  "timeLeft": self.time_left, "search": self.search}
        return {k: v for k, v in values.items() if v is not None}

    @classmethod
    def of_json(cls, values: dict) -> "Filters":
        def money(key: str) -> Decimal | None:
            return Decimal(values[key]) if values.get(key) is not None else None
        return cls(category=values.get("category"), min_price=money("minPrice"), max_price=money("maxPrice"),
                   min_views=values.get("minViews"), verified=values.get("verified"),
                   min_kept_percent=values.get("minKeptPercent"), time_left=values.get("timeLeft"),
                   search=values.get("search"))


# what the AI search box's reading (domain/ask.py) can give a campaign, in Filters' field names; its sort and
# "no bids yet" say nothing about who to reach
FROM_ASK = {"category": "category", "minPrice": "min_price", "maxPrice": "max_price", "minViews": "min_views",
            "verified": "verified", "minKeptPercent": "min_kept_percent", "timeLeft": "time_left"}


def merged_with_understood(filters: Filters, understood: dict[str, object]) -> tuple[Filters, list[str]]:
    """The filters given, with those read from a question added where the brand set none (the brand's win, as in
    the listing). Returns the filters and the parameters taken from the question."""
    taken = {FROM_ASK[k]: v for k, v in understood.items() if k in FROM_ASK and getattr(filters, FROM_ASK[k]) is None}
    names = [k for k in understood if k in FROM_ASK and FROM_ASK[k] in taken]
    return replace(filters, **taken), names


def check_filters(f: Filters) -> Filters:
    """The filters as stored (category and search normalised), or RuleBroken."""
    try:
        category = None if f.category is None or f.category.strip().lower() in ("", "all") \
            else listing.category(f.category)
    except RuleBroken as exc:
        raise RuleBroken(exc.message, "filters.category") from None
    if f.min_price is not None and f.max_price is not None and f.min_price > f.max_price:
        raise RuleBroken("The minimum price must be at most the maximum price.", "filters.minPrice")
    if f.time_left is not None and f.time_left != "all" and f.time_left not in listing.TIME_LEFT:
        raise RuleBroken(f"timeLeft must be one of: all, {', '.join(listing.TIME_LEFT)}.", "filters.timeLeft")
    search = " ".join(f.search.split()) if f.search else None
    return replace(f, category=category, search=search or None,
                   time_left=None if f.time_left == "all" else f.time_left)


@dataclass(frozen=True)
class Terms:
    name: str
    budget: Decimal
    max_per_slot: Decimal
    comment_text: str
    starts_at: datetime
    ends_at: datetime


def check_terms(t: Terms, filters: Filters, *, now: datetime, dates_changed: bool = True) -> Terms:
    """The terms as stored, or RuleBroken naming the field. `dates_changed`: an edit that keeps a start already past
    is not refused for it."""
    name = " ".join(t.name.split())
    if not name:
        raise RuleBroken("Give the campaign a name.", "name")
    if len(name) > MAX_NAME:
        raise RuleBroken(f"The name must be at most {MAX_NAME} characters.", "name")
    check_money(t.budget, "budget", "The budget")
    check_money(t.max_per_slot, "maxPerSlot", "The most per comment")
    if t.max_per_slot > t.budget:
        raise RuleBroken(f"The most per comment ({dollars(t.max_per_slot)}) cannot be above the budget "
                         f"({dollars(t.budget)}).", "budget")
    if filters.min_price is not None and filters.min_price > t.max_per_slot:
        raise RuleBroken(f"No slot can fit: the filters ask for slots priced from {dollars(filters.min_price)}, above "
                         f"the most per comment ({dollars(t.max_per_slot)}).", "maxPerSlot", code="matches_nothing")
    text = t.comment_text.strip()
    if not text:
        raise RuleBroken("Write the comment to pin.", "commentText")
    try:  # a bid's new comment, with its disclosure rules
        comments.choose(None, text, required=True)
    except RuleBroken as exc:
        raise RuleBroken(exc.message, "commentText", code=exc.code) from None
    for value, key in ((t.starts_at, "startsAt"), (t.ends_at, "endsAt")):
        if value.tzinfo is None:
            raise RuleBroken("Give the date with a time zone (ISO 8601).", key)
    if dates_changed and t.ends_at <= now:
        raise RuleBroken("The end date must be in the future.", "endsAt")
    if t.ends_at <= t.starts_at:
        raise RuleBroken("The end date must be after the start date.", "endsAt")
    if t.ends_at - t.starts_at > MAX_LENGTH:
        raise RuleBroken("A campaign can run for at most a year.", "endsAt")
    return replace(t, name=name, comment_text=text)


def check_money(value: Decimal, key: str, what: str) -> None:
    if not value.is_finite() or value != value.quantize(CENT):
        raise RuleBroken(f"{what} must be an amount in dollars and cents.", key)
    if value <= 0:
        raise RuleBroken(f"{what} must be more than zero.", key)
    if value > MAX_AMOUNT:
        raise RuleBroken(f"{what} must be at most {dollars(MAX_AMOUNT)}.", key)


def check_budget_change(budget: Decimal, committed: Decimal) -> None:
    if budget < committed:
        raise StateConflict(f"The budget cannot go below what is already committed ({dollars(committed)}).",
                            code="budget_below_committed")


def limit(budget: Decimal, funded: Decimal) -> Decimal:
    """What the campaign may commit: its budget, as far as it has been paid in."""
    return min(budget, funded)


def within_dates(starts_at: datetime, ends_at: datetime, now: datetime) -> bool:
    return starts_at <= now < ends_at


# --- its life -------------------------------------------------------------------------------------------------
@dataclass
class Life:
    status: CampaignStatus
    reason: str | None
    funded: Decimal
    starts_at: datetime
    ends_at: datetime

    def running_status(self, now: datetime) -> CampaignStatus:
        """What a campaign that may bid is: ACTIVE once paid in and started, DRAFT before."""
        return C.ACTIVE if self.funded > 0 and within_dates(self.starts_at, self.ends_at, now) else C.DRAFT


def pause(life: Life) -> None:
    if life.status == C.ENDED:
        raise StateConflict("This campaign has ended.", code="campaign_ended")
    if life.status == C.PAUSED:
        return
    life.status, life.reason = C.PAUSED, Reason.PAUSED.value


def resume(life: Life, now: datetime) -> None:
    if life.status == C.ENDED:
        raise StateConflict("This campaign has ended.", code="campaign_ended")
    if life.status != C.PAUSED:
        return
    life.status, life.reason = life.running_status(now), None


def end(life: Life, reason: Reason) -> bool:
    """Returns whether it changed (ending twice is a no-op)."""
    if life.status == C.ENDED:
        return False
    life.status, life.reason = C.ENDED, reason.value
    return True


def funded(life: Life, funded_total: Decimal, now: datetime) -> None:
    """payments' `funded`: all paid in so far. A draft that starts now may bid."""
    life.funded = max(life.funded, funded_total)
    if life.status == C.DRAFT:
        life.status = life.running_status(now)


def funding_reversed(life: Life, funded_total: Decimal) -> None:
    """payments took a funding payment back: what is paid in is now `funded_total`, and the campaign ends."""
    life.funded = funded_total
    end(life, Reason.FUNDING_REVERSED)


def tick(life: Life, now: datetime) -> Reason | None:
    """The clock: a campaign past its end ends; a paid-in draft whose start came begins. Returns the end reason."""
    if life.status != C.ENDED and now >= life.ends_at:
        life.status, life.reason = C.ENDED, Reason.ENDS_AT.value
        return Reason.ENDS_AT
    if life.status == C.DRAFT:
        life.status = life.running_status(now)
    return None


def out_of_budget(life: Life) -> None:
    if life.status == C.ACTIVE:
        life.status, life.reason = C.OUT_OF_BUDGET, Reason.BUDGET.value


def released(life: Life, available: Decimal, now: datetime) -> None:
    """Commitment came back: an out-of-budget campaign bids again."""
    if life.status == C.OUT_OF_BUDGET and available > 0:
        life.status, life.reason = life.running_status(now), None


# --- a campaign's bid and the brand's own -----------------------------------------------------------------
CAMPAIGN_BID = ("This bid is your campaign's: change the campaign's most per comment, pause it, or cancel the bid "
                "while it does not lead.")


def check_own_bid(has_live: bool, live_campaign: object | None, placing_campaign: object | None) -> None:
    """A brand's bid and its campaign's never replace each other on a slot: a change by hand of a campaign's bid
    would break its budget (409 campaign_bid), and a campaign never raises against the brand's own bid."""
    if not has_live:
        return
    if live_campaign is not None:
        raise StateConflict(CAMPAIGN_BID, code="campaign_bid")
    if placing_campaign is not None:
        raise StateConflict("You already bid on this slot yourself.", code="own_bid")


# --- matching and bidding ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class OpenSlot:
    """What matching reads of a slot: the listing's filter columns."""

    category: str
    price: Decimal
    avg_views: int
    verified: bool
    creator_kept_pct: int | None
    auction_end: datetime
    search: str  # lower(title || ' ' || description || ' ' || creator name), as the listing's column


def matches(f: Filters, slot: OpenSlot, now: datetime) -> bool:
    """The listing's filter (queries.filtered) on one slot, for a slot just listed."""
    if slot.auction_end <= now:
        return False
    if f.category is not None and slot.category != f.category:
        return False
    if f.min_price is not None and slot.price < f.min_price:
        return False
    if f.max_price is not None and slot.price > f.max_price:
        return False
    if f.min_views and slot.avg_views < f.min_views:
        return False
    if f.time_left in listing.TIME_LEFT and slot.auction_end > now + listing.TIME_LEFT[f.time_left]:
        return False
    if f.verified and not slot.verified:
        return False
    if f.min_kept_percent and (slot.creator_kept_pct is None or slot.creator_kept_pct < f.min_kept_percent):
        return False
    return not f.search or text_matches(f.search, slot.search)


def text_matches(q: str, search: str) -> bool:
    """queries.text_match in Python: as typed; a word of three letters or more anywhere, else at a word's start."""
    typed = q.lower()
    if any(len(w) >= 3 for w in _words(q)):
        return typed in search
    return search.startswith(typed) or f" {typed}" in search


def _words(q: str) -> list[str]:
    return re.findall(r"[^\W_]+", q)


class Skip(StrEnum):
    """Why a campaign placed no bid on a slot that fits (campaign_slots.outcome)."""

    BELOW_MINIMUM = "BELOW_MINIMUM"  # its most per comment does not reach what the auction accepts
    OWN_BID = "OWN_BID"  # the brand already bids there
    ASSOCIATED = "ASSOCIATED"  # the brand is tied to the slot's creator
    CLOSED = "CLOSED"  # the auction ended before the bid


@dataclass(frozen=True)
class BidPlan:
    amount: Decimal
    ceiling: Decimal


@dataclass(frozen=True)
class Decision:
    plan: BidPlan | None = None
    skip: Skip | None = None
    short_of_budget: bool = False  # fits, but what is left of the budget does not reach the price


def least_accepted(min_bid: Decimal, current_bid: Decimal | None) -> Decimal:
    """The least amount the auction accepts (auction.check_bid): the minimum, and above the current bid."""
    return min_bid if current_bid is None else max(min_bid, current_bid + CENT)


def plan_bid(*, min_bid: Decimal, current_bid: Decimal | None, max_per_slot: Decimal, budget: Decimal,
             funded_total: Decimal, committed: Decimal, brand_bids_there: bool) -> Decision:
    """The bid a campaign places on a slot that fits: the least the auction accepts, automatic bidding up to
    min(most per comment, limit - committed)."""
    if brand_bids_there:
        return Decision(skip=Skip.OWN_BID)
    amount = least_accepted(min_bid, current_bid)
    if max_per_slot < amount:
        return Decision(skip=Skip.BELOW_MINIMUM)
    ceiling = min(max_per_slot, limit(budget, funded_total) - committed)
    if ceiling < amount:
        return Decision(short_of_budget=True)
    return Decision(plan=BidPlan(amount=amount, ceiling=ceiling))


@dataclass
class Figures:
    committed: Decimal = Decimal("0.00")
    spent: Decimal = Decimal("0.00")
    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(COUNTS, 0))


COUNTS = ("bidding", "leading", "outbid", "won", "pinned")
# the bid statuses a campaign's figures count (committed: live ceilings plus wins that stand; spent: paid wins)
LIVE_STATUSES = ("ACTIVE", "OUTBID")
# a win that stands:: waiting for the creator, approved, waiting for payment, paid, pinned
WIN_STATUSES = ("PENDING_INFLUENCER_APPROVAL", "APPROVED", "AWAITING_PAYMENT", "WON", "PINNED")
PAID_STATUSES = ("WON", "PINNED")
