"""Rules for listing a post as a pin slot, and the marketplace's search vocabulary."""

from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import Decimal

from pinbid_kit.product_rules import PIN_DURATION_DAYS, TIME_LEFT_HOURS

from .errors import RuleBroken, StateConflict

CATEGORIES = ("fashion", "tech", "fitness", "food", "travel", "gaming")
MAX_TITLE = 200
MAX_PINNED_PER_POST = 3  # Instagram pins at most three comments on a post
MAX_DESCRIPTION = 2000
TIME_LEFT = {value: timedelta(hours=hours) for value, hours in TIME_LEFT_HOURS.items()}
# A listing counts its matches up to this many: past it the total reads "at least" this many, and pages reach no
# deeper (an OFFSET past it would read every row before the page).
COUNT_CAP = 10_000
SORTS = ("newest", "popular", "price-low", "price-high", "ending-soon", "most-views", "most-reliable")


@dataclass(frozen=True)
class Limits:
    min_auction: timedelta = timedelta(hours=1)
    max_auction: timedelta = timedelta(days=30)
    min_duration_days: int = min(PIN_DURATION_DAYS)
    max_duration_days: int = max(PIN_DURATION_DAYS)


@dataclass(frozen=True)
class NewSlot:
    post_id: str
    title: str
    description: str
    category: str
    min_bid: Decimal
    buy_now_price: Decimal | None
    auction_end: datetime
    duration_days: int


def category(raw: str) -> str:
    value = raw.strip().lower()
    if value not in CATEGORIES:
        raise RuleBroken(f"Choose a category: {', '.join(CATEGORIES)}.", "category")
    return value


def check_new_slot(slot: NewSlot, *, now: datetime, limits: Limits) -> NewSlot:
    """The slot as it will be stored (category normalised), or RuleBroken."""
    title = " ".join(slot.title.split())
    if not title:
        raise RuleBroken("Give the pin slot a title.", "title")
    if len(title) > MAX_TITLE:
        raise RuleBroken(f"The title must be at most {MAX_TITLE} characters.", "title")
    if len(slot.description) > MAX_DESCRIPTION:
        raise RuleBroken(f"The description must be at most {MAX_DESCRIPTION} characters.", "description")
    if slot.min_bid <= 0:
        raise RuleBroken("The minimum bid must be more than zero.", "minBid")
    if slot.buy_now_price is not None and slot.buy_now_price <= slot.min_bid:
        raise RuleBroken("The Buy Now price must be above the minimum bid.", "buyNowPrice")
    if slot.auction_end.tzinfo is None:
        raise RuleBroken("Give the auction end with a time zone (ISO 8601).", "auctionEnd")
    if slot.auction_end < now + limits.min_auction:
        raise RuleBroken("The auction must end at least 1 hour from now.", "auctionEnd")
    if slot.auction_end > now + limits.max_auction:
        raise RuleBroken("The auction must end within 30 days.", "auctionEnd")
    if not limits.min_duration_days <= slot.duration_days <= limits.max_duration_days:
        raise RuleBroken(f"The pin duration must be {limits.min_duration_days} to {limits.max_duration_days} days.",
                         "duration")
    return NewSlot(post_id=slot.post_id, title=title, description=slot.description.strip(),
                   category=category(slot.category), min_bid=slot.min_bid, buy_now_price=slot.buy_now_price,
                   auction_end=slot.auction_end, duration_days=slot.duration_days)


def check_room_on_post(placements: int) -> None:
    """A new slot needs a free pin on its post: `placements` counts the post's comments that are pinned, or
    won and on their way to being pinned."""
    if placements >= MAX_PINNED_PER_POST:
        raise StateConflict(f"This post already has {MAX_PINNED_PER_POST} pinned comments, the most Instagram "
                            "allows. Choose another post.", code="post_full")
