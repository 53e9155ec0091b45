"""Marketplace's HTTP routes (thin): /marketplace/*, the influencer's and the buyer's auction calls."""

import uuid
from decimal import Decimal
from typing import Annotated, Literal

from fastapi import APIRouter, Depends, Query
from pinbid_kit.api import PlainText
from pinbid_kit.auth import Buyer, Influencer, Operator, SignedIn
from pinbid_kit.deps import from_state
from pinbid_kit.errors import Invalid
from pinbid_kit.product_rules import ASK_MAX_LENGTH, TIME_LEFT_HOURS

from .approvals import Approvals
from .asking import Asking
from .bidding import Bidding, Offer
from .campaigns import Campaigns, Changes, NewCampaign
from .closing import Closer
from .domain import comments
from .domain.ask import PARAMETERS
from .domain.campaigns import Terms
from .domain.listing import SORTS, NewSlot
from .domain.money import MAX_AMOUNT
from .domain.states import BidStatus
from .flags import Flags
from .queries import APPROVAL_STATUSES, Queries, Search
from .rules import as_api_errors
from .schemas import (
    BidOut,
    BuyerFiguresOut,
    BuyNowIn,
    CampaignChangesIn,
    CampaignDetailOut,
    CampaignIn,
    CampaignOut,
    ChangeBidIn,
    ClearFlagIn,
    CommentSubmissionIn,
    CreateSlotIn,
    DecisionIn,
    FlagOut,
    InfluencerFiguresOut,
    PlaceBidIn,
    RecordOut,
    SecondChanceOut,
    SlotOut,
    SlotPageOut,
    UnderstoodOut,
    history,
)
from .second_chance import SecondChance
from .settings import MarketplaceSettings
from .slots import Slots

SlotsDep = Annotated[Slots, Depends(from_state("slots"))]
BiddingDep = Annotated[Bidding, Depends(from_state("bidding"))]
CloserDep = Annotated[Closer, Depends(from_state("closer"))]
ApprovalsDep = Annotated[Approvals, Depends(from_state("approvals"))]
QueriesDep = Annotated[Queries, Depends(from_state("queries"))]
AskingDep = Annotated[Asking, Depends(from_state("asking"))]
AskParameter = Literal[PARAMETERS]
FlagsDep = Annotated[Flags, Depends(from_state("flags"))]
SecondChanceDep = Annotated[SecondChance, Depends(from_state("second_chance"))]
SettingsDep = Annotated[MarketplaceSettings, Depends(from_state("settings"))]
CampaignsDep = Annotated[Campaigns, Depends(from_state("campaigns"))]


def offer(amount: Decimal, auto: bool, max_auto_bid: Decimal | None) -> Offer:
    if auto and max_auto_bid is None:
        raise Invalid("Enter the maximum amount for automatic bidding.", field="maxAutoBid")
    return Offer(amount=amount, auto_bid_enabled=auto, max_auto_bid=max_auto_bid if auto else None)


market = APIRouter(prefix="/marketplace", tags=["marketplace"])


@market.get("/slots", response_model=SlotPageOut)
async def list_slots(
    _: SignedIn,
    settings: SettingsDep,
    queries: QueriesDep,
    asking: AskingDep,
    q: Annotated[PlainText | None, Query(max_length=100)] = None,
    category: Annotated[PlainText | None, Query(max_length=20)] = None,
    min_price: Annotated[Decimal | None, Query(alias="minPrice", ge=0, le=MAX_AMOUNT)] = None,
    max_price: Annotated[Decimal | None, Query(alias="maxPrice", ge=0, le=MAX_AMOUNT)] = None,
    min_views: Annotated[int | None, Query(alias="minViews", ge=0, le=10**12)] = None,
    time_left: Annotated[Literal[("all", *TIME_LEFT_HOURS)] | None, Query(alias="timeLeft")] = None,
    verified: bool | None = None,
    min_kept_percent: Annotated[int | None, Query(alias="minKeptPercent", ge=0, le=100)] = None,
    no_bids: Annotated[bool | None, Query(alias="noBids")] = None,
    sort_by: Annotated[PlainText | None, Query(alias="sortBy", description="newest unless asked: with `ask`, "
                                               "the slots most relevant to the question first")] = None,
    page: Annotated[int, Query(ge=1, le=100_000)] = 1,
    limit: Annotated[int, Query(ge=1)] = 10,
    ask: Annotated[PlainText | None, Query(
        max_length=ASK_MAX_LENGTH, description="the AI search box: a question in plain English, read into these "
                                               "filters (the ones given here win) and ranked by what is left of it")
    ] = None,
    ignore: Annotated[list[AskParameter] | None, Query(description="parameters read from `ask` to leave out "
                                                       "(the chips the brand removed)")] = None,
) -> SlotPageOut:
    if sort_by is not None and sort_by not in SORTS:
        raise Invalid(f"sortBy must be one of: {', '.join(SORTS)}.", field="sortBy")
    if limit > settings.page_limit_max:
        raise Invalid(f"limit must be at most {settings.page_limit_max}.", field="limit")
    search = Search(q=q or None, category=category, min_price=min_price, max_price=max_price,
                    min_views=min_views, time_left=time_left, verified=verified,
                    min_kept_percent=min_kept_percent, no_bids=no_bids, sort_by=sort_by or "newest", page=page,
                    limit=limit)
    question = " ".join(ask.split()) if ask else ""
    if not question:
        return SlotPageOut.of(await queries.marketplace(search))
    given = {"category": category, "minPrice": min_price, "maxPrice": max_price, "minViews": min_views,
             "timeLeft": time_left, "verified": verified, "minKeptPercent": min_kept_percent, "noBids": no_bids,
             "sortBy": sort_by}
    answer = await asking.ask(question, search, set_by_brand={k for k, v in given.items() if v is not None}
                              | set(ignore or ()))
    return SlotPageOut.of(answer.page, UnderstoodOut.of(answer.understood, answer.ranked))


@market.get("/categories", response_model=list[str])
async def categories(_: SignedIn, queries: QueriesDep) -> list[str]:
    return queries.categories()


@market.get("/slots/{slot_id}", response_model=SlotOut)
async def slot_detail(slot_id: uuid.UUID, principal: SignedIn, queries: QueriesDep) -> SlotOut:
    slot, bids = await queries.slot(slot_id)
    prices = await queries.price_history([slot.id])
    return SlotOut.of(slot, history(bids, with_bidders=principal.user_id == slot.creator_id), prices.get(slot.id))


creator = APIRouter(prefix="/influencer", tags=["influencer"])


@creator.post("/pin-slots", response_model=SlotOut, status_code=201)
async def create_slot(body: CreateSlotIn, principal: Influencer, slots: SlotsDep, queries: QueriesDep,
                      settings: SettingsDep) -> SlotOut:
    slot_id = await slots.create(principal.user_id, NewSlot(
        post_id=body.post_id, title=body.title, description=body.description, category=body.category,
        min_bid=body.min_bid, buy_now_price=body.buy_now_price, auction_end=body.auction_end,
        duration_days=body.duration if body.duration is not None else settings.default_duration_days))
    slot, _ = await queries.slot(slot_id)
    return SlotOut.of(slot)


@creator.get("/pin-slots/active", response_model=list[SlotOut])
async def active_slots(principal: Influencer, queries: QueriesDep) -> list[SlotOut]:
    found = await queries.creator_active_slots(principal.user_id)
    prices = await queries.price_history([slot.id for slot, _ in found])
    return [SlotOut.of(slot, history(bids, with_bidders=True), prices.get(slot.id)) for slot, bids in found]


@creator.post("/pin-slots/{slot_id}/end-auction", response_model=SlotOut)
async def end_auction(slot_id: uuid.UUID, principal: Influencer, closer: CloserDep) -> SlotOut:
    slot, bids = await closer.end_early(principal.user_id, slot_id)
    return SlotOut.of(slot, history(bids, with_bidders=True))


@creator.get("/approvals", response_model=list[BidOut])
async def pending_approvals(principal: Influencer, queries: QueriesDep) -> list[BidOut]:
    return [BidOut.of(v, for_creator=True) for v in await queries.creator_bids(principal.user_id, APPROVAL_STATUSES)]


@creator.post("/approvals/{bid_id}", response_model=BidOut)
async def decide(bid_id: uuid.UUID, body: DecisionIn, principal: Influencer, approvals: ApprovalsDep) -> BidOut:
    return BidOut.of(await approvals.decide(principal.user_id, bid_id, BidStatus(body.status)), for_creator=True)


@creator.post("/approvals/{bid_id}/comment", response_model=BidOut)
async def approve_comment(bid_id: uuid.UUID, principal: Influencer, approvals: ApprovalsDep) -> BidOut:
    """Approve the brand's comment as it is now: the exact text Pinbid will post or pin."""
    return BidOut.of(await approvals.approve_comment(principal.user_id, bid_id), for_creator=True)


@creator.get("/record", response_model=RecordOut)
async def own_record(principal: Influencer, queries: QueriesDep) -> RecordOut:
    """The creator's reliability record, as brands see it (and the Approvals' average response time)."""
    return RecordOut.of(await queries.record(principal.user_id))


@creator.get("/bids", response_model=list[BidOut])
async def creator_bids(principal: Influencer, queries: QueriesDep) -> list[BidOut]:
    return [BidOut.of(v, for_creator=True) for v in await queries.creator_bids(principal.user_id)]


@creator.get("/bids/second-chances", response_model=list[SecondChanceOut])
async def second_chances(principal: Influencer, second_chance: SecondChanceDep) -> list[SecondChanceOut]:
    """The creator's slots whose winner fell through, each with the runner-up it can be offered to now (or the
    offer waiting for an answer)."""
    return [SecondChanceOut.of(v) for v in await second_chance.fallen_winners(principal.user_id)]


@creator.post("/bids/{bid_id}/second-chance", response_model=BidOut)
async def offer_second_chance(bid_id: uuid.UUID, principal: Influencer, second_chance: SecondChanceDep) -> BidOut:
    """Offer the slot of `bid_id`, its winner that was rejected or did not pay in time, to the runner-up at the
    runner-up's own last amount. Answers the offered bid."""
    return BidOut.of(await second_chance.offer(principal.user_id, bid_id), for_creator=True)


@creator.get("/dashboard-figures", response_model=InfluencerFiguresOut)
async def creator_figures(principal: Influencer, queries: QueriesDep) -> InfluencerFiguresOut:
    return InfluencerFiguresOut.model_validate(await queries.creator_figures(principal.user_id))


brand = APIRouter(prefix="/buyer", tags=["buyer"])


@brand.post("/bids", response_model=BidOut, status_code=201)
async def place_bid(body: PlaceBidIn, principal: Buyer, bidding: BiddingDep) -> BidOut:
    with as_api_errors():
        comment = comments.choose(body.comment_id, body.new_comment_text, body.comment_username, required=False,
                                  words=body.comment_text)
    return BidOut.of(await bidding.place(principal.user_id, body.pin_slot_id,
                                         offer(body.amount, body.auto_bid_enabled, body.max_auto_bid), comment))


@brand.get("/bids", response_model=list[BidOut])
async def my_bids(principal: Buyer, queries: QueriesDep) -> list[BidOut]:
    return [BidOut.of(v) for v in await queries.buyer_bids(principal.user_id)]


@brand.put("/bids/{bid_id}", response_model=BidOut)
async def change_bid(bid_id: uuid.UUID, body: ChangeBidIn, principal: Buyer, bidding: BiddingDep) -> BidOut:
    auto = bool(body.auto_bid_enabled) if body.auto_bid_enabled is not None else body.max_auto_bid is not None
    return BidOut.of(await bidding.change(principal.user_id, bid_id, offer(body.amount, auto, body.max_auto_bid)))


@brand.post("/bids/{bid_id}/cancel", response_model=BidOut)
async def cancel_bid(bid_id: uuid.UUID, principal: Buyer, bidding: BiddingDep) -> BidOut:
    return BidOut.of(await bidding.cancel(principal.user_id, bid_id))


@brand.post("/bids/{bid_id}/accept-offer", response_model=BidOut)
async def accept_offer(bid_id: uuid.UUID, principal: Buyer, second_chance: SecondChanceDep) -> BidOut:
    """Take the slot a second-chance offer gives this bid, at its price: the bid is approved, then paid for."""
    return BidOut.of(await second_chance.accept(principal.user_id, bid_id))


@brand.post("/bids/{bid_id}/decline-offer", response_model=BidOut)
async def decline_offer(bid_id: uuid.UUID, principal: Buyer, second_chance: SecondChanceDep) -> BidOut:
    return BidOut.of(await second_chance.decline(principal.user_id, bid_id))


@brand.post("/buy-now", response_model=BidOut, status_code=201)
async def buy_now(body: BuyNowIn, principal: Buyer, bidding: BiddingDep) -> BidOut:
    with as_api_errors():
        comment = comments.choose(body.comment_id, body.new_comment_text, body.comment_username, required=False,
                                  words=body.comment_text)
    return BidOut.of(await bidding.buy_now(principal.user_id, body.pin_slot_id, comment))


@brand.post("/comment-submission", response_model=BidOut)
async def submit_comment(body: CommentSubmissionIn, principal: Buyer, bidding: BiddingDep) -> BidOut:
    with as_api_errors():
        comment = comments.choose(body.comment_id, body.comment_text, body.comment_username, required=True)
    assert comment is not None
    return BidOut.of(await bidding.submit_comment(principal.user_id, body.bid_id, comment))


@brand.get("/dashboard-figures", response_model=BuyerFiguresOut)
async def buyer_figures(principal: Buyer, queries: QueriesDep) -> BuyerFiguresOut:
    return BuyerFiguresOut.model_validate(await queries.buyer_figures(principal.user_id))


@brand.post("/campaigns", response_model=CampaignOut, status_code=201)
async def create_campaign(body: CampaignIn, principal: Buyer, campaigns: CampaignsDep) -> CampaignOut:
    """A campaign starts as a DRAFT: it bids once funded (POST /buyer/campaigns/{id}/fund) and started."""
    terms = Terms(name=body.name, budget=body.budget, max_per_slot=body.max_per_slot, comment_text=body.comment_text,
                  starts_at=body.starts_at or campaigns.clock(), ends_at=body.ends_at)
    return CampaignOut.of(await campaigns.create(principal.user_id, NewCampaign(
        terms=terms, filters=body.filters.rules(), ask=" ".join(body.ask.split()) if body.ask else None)))


@brand.get("/campaigns", response_model=list[CampaignOut])
async def my_campaigns(principal: Buyer, campaigns: CampaignsDep) -> list[CampaignOut]:
    return [CampaignOut.of(v) for v in await campaigns.list(principal.user_id)]


@brand.get("/campaigns/{campaign_id}", response_model=CampaignDetailOut)
async def campaign_detail(campaign_id: uuid.UUID, principal: Buyer, campaigns: CampaignsDep) -> CampaignDetailOut:
    return CampaignDetailOut.of_detail(await campaigns.detail(principal.user_id, campaign_id))


@brand.patch("/campaigns/{campaign_id}", response_model=CampaignOut)
async def edit_campaign(campaign_id: uuid.UUID, body: CampaignChangesIn, principal: Buyer,
                        campaigns: CampaignsDep) -> CampaignOut:
    """A lower budget is refused below what is committed (409 budget_below_committed)."""
    return CampaignOut.of(await campaigns.edit(principal.user_id, campaign_id, Changes(
        name=body.name, budget=body.budget, max_per_slot=body.max_per_slot, comment_text=body.comment_text,
        ends_at=body.ends_at, filters=body.filters.rules() if body.filters is not None else None,
        version=body.version)))


@brand.post("/campaigns/{campaign_id}/pause", response_model=CampaignOut)
async def pause_campaign(campaign_id: uuid.UUID, principal: Buyer, campaigns: CampaignsDep) -> CampaignOut:
    return CampaignOut.of(await campaigns.pause(principal.user_id, campaign_id))


@brand.post("/campaigns/{campaign_id}/resume", response_model=CampaignOut)
async def resume_campaign(campaign_id: uuid.UUID, principal: Buyer, campaigns: CampaignsDep) -> CampaignOut:
    return CampaignOut.of(await campaigns.resume(principal.user_id, campaign_id))


@brand.post("/campaigns/{campaign_id}/end", response_model=CampaignOut)
async def end_campaign(campaign_id: uuid.UUID, principal: Buyer, campaigns: CampaignsDep) -> CampaignOut:
    """Stops bidding at once; its live bids run their course, and what is not spent goes back once none is left."""
    return CampaignOut.of(await campaigns.end(principal.user_id, campaign_id))


ops = APIRouter(prefix="/ops", tags=["ops"])


@ops.get("/flags", response_model=list[FlagOut])
async def list_flags(_: Operator, flags: FlagsDep,
                     status: Literal["OPEN", "CLEARED"] | None = None) -> list[FlagOut]:
    """Bidders that may be tied to a creator (soft signals, bid patterns), highest score first."""
    return [FlagOut.model_validate(f) for f in await flags.list(status)]


@ops.post("/flags/{flag_id}/clear", response_model=FlagOut)
async def clear_flag(flag_id: uuid.UUID, body: ClearFlagIn, principal: Operator, flags: FlagsDep) -> FlagOut:
    return FlagOut.model_validate(await flags.clear(principal.user_id, flag_id, body.reason))


ROUTERS = (market, creator, brand, ops)
