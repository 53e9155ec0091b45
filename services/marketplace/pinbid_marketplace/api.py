"""Marketplace's HTTP routes (thin): /marketplace/*, the influencer's and the buyer's auction calls."""

import uuid
from datetime import datetime
from decimal import Decimal
from typing import Annotated, Literal

from fastapi import APIRouter, Depends, Query
from pinbid_kit.api import ApiModel, Money, MultilineText, PlainText
from pinbid_kit.auth import require
from pinbid_kit.errors import Invalid
from pinbid_kit.tokens import Principal, TokenVerifier
from pydantic import AfterValidator, Field

from .approvals import Approvals
from .bidding import Bidding, Offer
from .closing import Closer
from .domain import comments
from .domain.listing import SORTS, NewSlot
from .domain.money import CENT, MAX_AMOUNT
from .domain.states import BidStatus
from .queries import APPROVAL_STATUSES, Queries, Search
from .rules import as_api_errors
from .slots import Slots
from .views import (
    BidOut,
    BuyerFiguresOut,
    InfluencerFiguresOut,
    RecordOut,
    SlotOut,
    SlotPageOut,
    history,
)


def _money(value: Decimal) -> Decimal:
    if not value.is_finite():
        raise ValueError("Enter an amount in dollars and cents.")
    if value <= 0:
        raise ValueError("The amount must be more than zero.")
    if value > MAX_AMOUNT:
        raise ValueError("The amount must be at most $1,000,000.00.")
    if value != value.quantize(CENT):
        raise ValueError("Use at most two decimals (cents).")
    return value.quantize(CENT)


MoneyIn = Annotated[Money, AfterValidator(_money)]
CommentId = Annotated[PlainText, Field(max_length=comments.MAX_COMMENT_ID)]
CommentText = Annotated[MultilineText, Field(max_length=comments.MAX_COMMENT_TEXT)]
Username = Annotated[PlainText, Field(max_length=comments.MAX_USERNAME)]


class CreateSlotIn(ApiModel):
    post_id: Annotated[PlainText, Field(min_length=1, max_length=64)]
    title: Annotated[PlainText, Field(max_length=200)]
    description: Annotated[MultilineText, Field(max_length=2000)] = ""
    category: Annotated[PlainText, Field(max_length=20)]
    min_bid: MoneyIn
    buy_now_price: MoneyIn | None = None
    auction_end: datetime
    duration: int | None = None


class PlaceBidIn(ApiModel):
    pin_slot_id: uuid.UUID
    amount: MoneyIn
    auto_bid_enabled: bool = False
    max_auto_bid: MoneyIn | None = None
    comment_id: CommentId | None = None
    comment_username: Username | None = None
    comment_text: CommentText | None = None  # what the comment named by commentId says, shown on the bid
    new_comment_text: CommentText | None = None


class ChangeBidIn(ApiModel):
    amount: MoneyIn
    auto_bid_enabled: bool | None = None
    max_auto_bid: MoneyIn | None = None


class BuyNowIn(ApiModel):
    pin_slot_id: uuid.UUID
    comment_id: CommentId | None = None
    comment_username: Username | None = None
    comment_text: CommentText | None = None
    new_comment_text: CommentText | None = None


class CommentSubmissionIn(ApiModel):
    bid_id: uuid.UUID
    comment_text: CommentText | None = None
    comment_id: CommentId | None = None
    comment_username: Username | None = None


class DecisionIn(ApiModel):
    status: Literal["APPROVED", "REJECTED"]


def offer(amount: Decimal, auto: bool, max_auto_bid: Decimal | None) -> Offer:
    if auto and max_auto_bid is None:
        raise Invalid("Enter the maximum amount for automatic bidding.", field="maxAutoBid")
    return Offer(amount=amount, auto_bid_enabled=auto, max_auto_bid=max_auto_bid if auto else None)


def routes(*, verifier: TokenVerifier, slots: Slots, bidding: Bidding, closer: Closer, approvals: Approvals,
           queries: Queries, default_duration: int, page_limit_max: int) -> list[APIRouter]:
    signed_in = Depends(require(verifier))
    influencer = Depends(require(verifier, "INFLUENCER"))
    buyer = Depends(require(verifier, "BUYER"))

    market = APIRouter(prefix="/marketplace", tags=["marketplace"])

    @market.get("/slots", response_model=SlotPageOut)
    async def list_slots(
        _: Principal = signed_in,
        q: Annotated[PlainText | None, Query(max_length=100)] = None,
        category: Annotated[PlainText | None, Query(max_length=20)] = None,
        min_price: Annotated[Decimal | None, Query(alias="minPrice", ge=0, le=MAX_AMOUNT)] = None,
        max_price: Annotated[Decimal | None, Query(alias="maxPrice", ge=0, le=MAX_AMOUNT)] = None,
        min_views: Annotated[int | None, Query(alias="minViews", ge=0, le=10**12)] = None,
        time_left: Annotated[Literal["all", "1h", "24h", "7d"] | None, Query(alias="timeLeft")] = None,
        verified: bool | None = None,
        min_kept_percent: Annotated[int | None, Query(alias="minKeptPercent", ge=0, le=100)] = None,
        sort_by: Annotated[PlainText, Query(alias="sortBy")] = "newest",
        page: Annotated[int, Query(ge=1, le=100_000)] = 1,
        limit: Annotated[int, Query(ge=1)] = 10,
    ) -> SlotPageOut:
        if sort_by not in SORTS:
            raise Invalid(f"sortBy must be one of: {', '.join(SORTS)}.", field="sortBy")
        if limit > page_limit_max:
            raise Invalid(f"limit must be at most {page_limit_max}.", field="limit")
        search = Search(q=q or None, category=category, min_price=min_price, max_price=max_price,
                        min_views=min_views, time_left=time_left, verified=verified,
                        min_kept_percent=min_kept_percent, sort_by=sort_by, page=page, limit=limit)
        return SlotPageOut.of(await queries.marketplace(search))

    @market.get("/categories", response_model=list[str])
    async def categories(_: Principal = signed_in) -> list[str]:
        return queries.categories()

    @market.get("/slots/{slot_id}", response_model=SlotOut)
    async def slot_detail(slot_id: uuid.UUID, principal: Principal = signed_in) -> SlotOut:
        slot, bids = await queries.slot(slot_id)
        return SlotOut.of(slot, history(bids, with_bidders=principal.user_id == slot.creator_id))

    creator = APIRouter(prefix="/influencer", tags=["influencer"])

    @creator.post("/pin-slots", response_model=SlotOut, status_code=201)
    async def create_slot(body: CreateSlotIn, principal: Principal = influencer) -> SlotOut:
        slot_id = await slots.create(principal.user_id, NewSlot(
            post_id=body.post_id, title=body.title, description=body.description, category=body.category,
            min_bid=body.min_bid, buy_now_price=body.buy_now_price, auction_end=body.auction_end,
            duration_days=body.duration if body.duration is not None else default_duration))
        slot, _ = await queries.slot(slot_id)
        return SlotOut.of(slot)

    @creator.get("/pin-slots/active", response_model=list[SlotOut])
    async def active_slots(principal: Principal = influencer) -> list[SlotOut]:
        return [SlotOut.of(slot, history(bids, with_bidders=True))
                for slot, bids in await queries.creator_active_slots(principal.user_id)]

    @creator.post("/pin-slots/{slot_id}/end-auction", response_model=SlotOut)
    async def end_auction(slot_id: uuid.UUID, principal: Principal = influencer) -> SlotOut:
        slot, bids = await closer.end_early(principal.user_id, slot_id)
        return SlotOut.of(slot, history(bids, with_bidders=True))

    @creator.get("/approvals", response_model=list[BidOut])
    async def pending_approvals(principal: Principal = influencer) -> list[BidOut]:
        return [BidOut.of(v) for v in await queries.creator_bids(principal.user_id, APPROVAL_STATUSES)]

    @creator.post("/approvals/{bid_id}", response_model=BidOut)
    async def decide(bid_id: uuid.UUID, body: DecisionIn, principal: Principal = influencer) -> BidOut:
        return BidOut.of(await approvals.decide(principal.user_id, bid_id, BidStatus(body.status)))

    @creator.post("/approvals/{bid_id}/comment", response_model=BidOut)
    async def approve_comment(bid_id: uuid.UUID, principal: Principal = influencer) -> BidOut:
        """Approve the brand's comment as it is now: the exact text Pinbid will post or pin."""
        return BidOut.of(await approvals.approve_comment(principal.user_id, bid_id))

    @creator.get("/record", response_model=RecordOut)
    async def own_record(principal: Principal = influencer) -> RecordOut:
        """The creator's reliability record, as brands see it (and the Approvals' average response time)."""
        return RecordOut.of(await queries.record(principal.user_id))

    @creator.get("/bids", response_model=list[BidOut])
    async def creator_bids(principal: Principal = influencer) -> list[BidOut]:
        return [BidOut.of(v) for v in await queries.creator_bids(principal.user_id)]

    @creator.get("/dashboard-figures", response_model=InfluencerFiguresOut)
    async def creator_figures(principal: Principal = influencer) -> InfluencerFiguresOut:
        return InfluencerFiguresOut.model_validate(await queries.creator_figures(principal.user_id))

    brand = APIRouter(prefix="/buyer", tags=["buyer"])

    @brand.post("/bids", response_model=BidOut, status_code=201)
    async def place_bid(body: PlaceBidIn, principal: Principal = buyer) -> BidOut:
        with as_api_errors():
            comment = comments.choose(body.comment_id, body.new_comment_text, body.comment_username, required=False,
                                      words=body.comment_text)
        return BidOut.of(await bidding.place(principal.user_id, body.pin_slot_id,
                                             offer(body.amount, body.auto_bid_enabled, body.max_auto_bid), comment))

    @brand.get("/bids", response_model=list[BidOut])
    async def my_bids(principal: Principal = buyer) -> list[BidOut]:
        return [BidOut.of(v) for v in await queries.buyer_bids(principal.user_id)]

    @brand.put("/bids/{bid_id}", response_model=BidOut)
    async def change_bid(bid_id: uuid.UUID, body: ChangeBidIn, principal: Principal = buyer) -> BidOut:
        auto = bool(body.auto_bid_enabled) if body.auto_bid_enabled is not None else body.max_auto_bid is not None
        return BidOut.of(await bidding.change(principal.user_id, bid_id, offer(body.amount, auto, body.max_auto_bid)))

    @brand.post("/bids/{bid_id}/cancel", response_model=BidOut)
    async def cancel_bid(bid_id: uuid.UUID, principal: Principal = buyer) -> BidOut:
        return BidOut.of(await bidding.cancel(principal.user_id, bid_id))

    @brand.post("/buy-now", response_model=BidOut, status_code=201)
    async def buy_now(body: BuyNowIn, principal: Principal = buyer) -> BidOut:
        with as_api_errors():
            comment = comments.choose(body.comment_id, body.new_comment_text, body.comment_username, required=False,
                                      words=body.comment_text)
        return BidOut.of(await bidding.buy_now(principal.user_id, body.pin_slot_id, comment))

    @brand.post("/comment-submission", response_model=BidOut)
    async def submit_comment(body: CommentSubmissionIn, principal: Principal = buyer) -> BidOut:
        with as_api_errors():
            comment = comments.choose(body.comment_id, body.comment_text, body.comment_username, required=True)
        assert comment is not None
        return BidOut.of(await bidding.submit_comment(principal.user_id, body.bid_id, comment))

    @brand.get("/dashboard-figures", response_model=BuyerFiguresOut)
    async def buyer_figures(principal: Principal = buyer) -> BuyerFiguresOut:
        return BuyerFiguresOut.model_validate(await queries.buyer_figures(principal.user_id))

    return [market, creator, brand]

