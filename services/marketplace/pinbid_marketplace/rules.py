"""Glue between the pure rules and the tables: rows to domain objects and back, domain errors to API errors."""

import contextlib
import uuid
from collections.abc import Iterator
from datetime import timedelta
from decimal import Decimal

from pinbid_kit.api import Money
from pinbid_kit.errors import Conflict, Invalid
from pydantic import TypeAdapter

from .domain import auction
from .domain.errors import AmountTooLow, RuleBroken, StateConflict
from .domain.listing import Limits
from .domain.states import LIVE, BidStatus, SlotStatus, check_move
from .models import Bid, Slot
from .settings import MarketplaceSettings


def auction_rules(settings: MarketplaceSettings) -> auction.Rules:
    return auction.Rules(step=settings.bid_step, soft_close=timedelta(seconds=settings.soft_close_seconds),
                         second_price_increment=settings.second_price_increment)


def listing_limits(settings: MarketplaceSettings) -> Limits:
    return Limits(min_auction=timedelta(hours=settings.min_auction_hours),
                  max_auction=timedelta(days=settings.max_auction_days),
                  min_duration_days=settings.min_duration_days, max_duration_days=settings.max_duration_days)


_MONEY = TypeAdapter(Money)


class BidTooLow(Invalid):
    """The API's answer to the domain's AmountTooLow: the 422 also says what the current bid is, so a client can
    offer more without reading the slot again."""

    code = "bid_too_low"

    def __init__(self, detail: str, current_bid: Decimal | None):
        super().__init__(detail, field="amount")
        self.current_bid = current_bid

    def body(self) -> dict:
        return {**super().body(), "currentBid": _MONEY.dump_python(self.current_bid, mode="json")
                if self.current_bid is not None else None}


@contextlib.contextmanager
def as_api_errors() -> Iterator[None]:
    try:
        yield
    except AmountTooLow as exc:
        raise BidTooLow(exc.message, exc.current_bid) from None
    except RuleBroken as exc:
        raise Invalid(exc.message, field=exc.field, code=exc.code) from None
    except StateConflict as exc:
        raise Conflict(exc.message, code=exc.code) from None


def slot_state(row: Slot) -> auction.Slot:
    return auction.Slot(id=row.id, creator_id=row.creator_id, min_bid=row.min_bid, auction_end=row.auction_end,
                        buy_now_price=row.buy_now_price, current_bid=row.current_bid, bid_count=row.bid_count,
                        bidder_count=row.bidder_count,
                        status=SlotStatus(row.status), outcome=row.outcome, winning_bid_id=row.winning_bid_id)


def store_slot(row: Slot, state: auction.Slot) -> None:
    row.current_bid, row.bid_count, row.auction_end = state.current_bid, state.bid_count, state.auction_end
    row.bidder_count = state.bidder_count
    row.status, row.outcome, row.winning_bid_id = state.status.value, state.outcome, state.winning_bid_id


def bid_state(row: Bid) -> auction.Bid:
    return auction.Bid(id=row.id, buyer_id=row.buyer_id, amount=row.amount, ceiling=row.ceiling, seq=row.seq,
                       status=BidStatus(row.status), final_price=row.final_price)


def store_bid(row: Bid, state: auction.Bid) -> None:
    row.amount, row.ceiling, row.seq = state.amount, state.ceiling, state.seq
    row.status, row.final_price = state.status.value, state.final_price


def new_bid(bid_id: uuid.UUID, slot_id: uuid.UUID, buyer_id: uuid.UUID, now) -> Bid:
    """A bid row not yet stored, every column a use case writes set (store_write.write inserts it); the rules' values
    (amount, ceiling, seq, status, final price) are set by store_bid."""
    return Bid(id=bid_id, slot_id=slot_id, buyer_id=buyer_id, auto_bid_enabled=False, max_auto_bid=None,
               final_price=None, comment_id=None, comment_username=None, comment_text=None, comment_read_at=None,
               approved_text=None,
               approved_at=None, decided_at=None, likes=0, replies=0, clicks=0, is_demo=False, created_at=now,
               updated_at=now, raises=0, campaign_id=None)


def require_live(status: str) -> None:
    """A bid being changed must be live (ACTIVE or OUTBID). Checked at both stages: on the unlocked read (a bid that
    is no longer live never is again) and on the batch's read (it may have been cancelled in between)."""
    with as_api_errors():
        if BidStatus(status) not in LIVE:
            check_move(BidStatus(status), BidStatus.ACTIVE)
