"""Request and response bodies, in the shapes of the spec's section 3 (camelCase on the wire, money as JSON
numbers)."""

import uuid
from datetime import datetime
from decimal import Decimal
from typing import Annotated, Literal

from pinbid_kit.api import ApiModel, Money, MultilineText, PlainText
from pinbid_kit.events.trust import RefundOutcome
from pinbid_kit.product_rules import ASK_MAX_LENGTH, REASON_MAX_LENGTH, TIME_LEFT_HOURS
from pydantic import AfterValidator, Field

from .campaigns import CampaignDetail, CampaignView
from .domain import campaigns as campaign_rules
from .domain import comments
from .domain.ask import PARAMETERS, Understood
from .domain.money import CENT, MAX_AMOUNT
from .domain.reliability import Record
from .domain.tabs import tab_of, won_auction
from .flags import FlagView
from .models import Bid, Slot, SlotPrice, User
from .queries import BidView, Page
from .second_chance import SecondChanceView


class InfluencerProfileOut(ApiModel):
    avg_views: int
    followers: int
    avg_engagement: float
    verified: bool


class CreatorRecordOut(ApiModel):
    """The creator's reliability, as of their last finished placement: `keptPercent` of `placements` kept pinned
    for their whole duration (null: a new creator), and how long they take to decide on a winning bid."""

    placements: int
    kept_percent: int | None
    response_minutes: int | None


class CreatorOut(ApiModel):
    id: uuid.UUID
    name: str
    instagram_handle: str | None
    influencer_profile: InfluencerProfileOut
    record: CreatorRecordOut


class RecordOut(ApiModel):
    pinned: int
    pinned_on_time_percent: int | None
    placements: int  # finished: kept to the end, ended early or by a dispute
    kept: int
    ended_early: int
    disputed_placements: int  # ended by a dispute an operator decided with a refund
    kept_percent: int | None
    decisions: int
    response_minutes: int | None  # average, from an auction's end to the creator's decision

    @classmethod
    def of(cls, r: Record) -> "RecordOut":
        return cls(pinned=r.pinned, pinned_on_time_percent=r.on_time_percent, placements=r.finished, kept=r.kept,
                   ended_early=r.ended_early, disputed_placements=r.disputed, kept_percent=r.kept_percent,
                   decisions=r.decisions,
                   response_minutes=r.response_minutes)


class PostOut(ApiModel):
    image_url: str
    media_type: str
    permalink: str
    instagram_id: str


class PermalinkOut(ApiModel):
    permalink: str


class BidderOut(ApiModel):
    name: str
    email: str | None = None


class BidHistoryOut(ApiModel):
    """A line of a slot's bid history."""

    id: uuid.UUID
    amount: Money
    status: str
    created_at: datetime
    updated_at: datetime
    user: BidderOut | None = None
    # the bid's comment (its text and author), for the slot's creator only, as the bidder
    comment: str | None = None
    comment_username: str | None = None


class PricePointOut(ApiModel):
    """The slot's public price from `at` on (never a bidder's hidden maximum)."""

    at: datetime
    price: Money


class SlotOut(ApiModel):
    id: uuid.UUID
    title: str
    description: str
    category: str
    min_bid: Money
    current_bid: Money | None
    buy_now_price: Money | None
    auction_end: datetime
    duration: int
    status: str
    outcome: str | None
    bid_count: int = Field(description="accepted bid actions, raises included: the order of the slot's live "
                           "events, not a number to show")
    bidder_count: int = Field(description="brands in the running, one bid each: a live bid while the auction runs, "
                              "the bids that stood at its close; cancelled and withdrawn bids left out. What the "
                              "screens show as the slot's bids and bidders")
    created_at: datetime
    post: PostOut
    instagram_post: PermalinkOut
    user: CreatorOut
    bids: list[BidHistoryOut] = []
    price_history: list[PricePointOut] = []  # with the bid history: the price as it moved, oldest first

    @classmethod
    def of(cls, slot: Slot, bids: list[BidHistoryOut] | None = None,
           prices: list[SlotPrice] | None = None) -> "SlotOut":
        return cls(
            id=slot.id, title=slot.title, description=slot.description, category=slot.category, min_bid=slot.min_bid,
            current_bid=slot.current_bid, buy_now_price=slot.buy_now_price, auction_end=slot.auction_end,
            duration=slot.duration_days, status=slot.status, outcome=slot.outcome, bid_count=slot.bid_count,
            bidder_count=slot.bidder_count,
            created_at=slot.created_at,
            post=PostOut(image_url=slot.media_url, media_type=slot.media_type, permalink=slot.permalink,
                         instagram_id=slot.post_id),
            instagram_post=PermalinkOut(permalink=slot.permalink),
            user=CreatorOut(id=slot.creator_id, name=slot.creator_name, instagram_handle=slot.creator_handle,
                            influencer_profile=InfluencerProfileOut(
                                avg_views=slot.avg_views, followers=slot.followers,
                                avg_engagement=float(slot.avg_engagement), verified=slot.verified),
                            record=CreatorRecordOut(placements=slot.creator_placements,
                                                    kept_percent=slot.creator_kept_pct,
                                                    response_minutes=slot.creator_response_minutes)),
            bids=bids or [], price_history=[PricePointOut(at=p.at, price=p.price) for p in prices or []])


class UnderstoodFiltersOut(ApiModel):
    """The filters read from the question, in the listing's own parameter names."""

    category: str | None = None
    min_price: Money | None = None
    max_price: Money | None = None
    time_left: str | None = None
    min_views: int | None = None
    verified: bool | None = None
    min_kept_percent: int | None = None
    no_bids: bool | None = None
    sort_by: str | None = None


class ChipOut(ApiModel):
    parameter: Literal[PARAMETERS] = Field(description="the listing parameter it set: send it in `ignore` to remove "
                                                       "the chip")
    label: str


class IgnoredOut(ApiModel):
    phrase: str
    reason: str


class UnderstoodOut(ApiModel):
    filters: UnderstoodFiltersOut
    chips: list[ChipOut]
    sentence: str = Field(description="the chips in one line, e.g. \"Fitness · up to $30\"")
    ignored: list[IgnoredOut] = Field(description="what was read but not applied, and why")
    ranked_by: str | None = Field(description="the words left of the question, which ranked the slots by meaning "
                                              "and keyword; null when nothing was left to rank by")

    @classmethod
    def of(cls, understood: Understood, ranked: bool) -> "UnderstoodOut":
        return cls(filters=UnderstoodFiltersOut.model_validate(understood.filters),
                   chips=[ChipOut(parameter=k, label=v) for k, v in understood.labels.items()],
                   sentence=understood.sentence,
                   ignored=[IgnoredOut(phrase=i.phrase, reason=i.reason) for i in understood.ignored],
                   ranked_by=understood.rest if ranked else None)


class SlotPageOut(ApiModel):
    slots: list[SlotOut]
    total: int = Field(description="The number of matching slots when totalIsExact; otherwise at least this many "
                                   "match (the count stopped there: show it as \"10,000+\")")
    total_is_exact: bool
    total_pages: int = Field(description="The pages that can be asked for: none past the first 10,000 matches")
    page: int
    understood: UnderstoodOut | None = Field(default=None, description="with `ask`: what the question was read as")

    @classmethod
    def of(cls, page: Page, understood: UnderstoodOut | None = None) -> "SlotPageOut":
        return cls(slots=[SlotOut.of(s) for s in page.slots], total=page.total, total_is_exact=page.total_is_exact,
                   total_pages=page.total_pages, page=page.page, understood=understood)


class PaymentOut(ApiModel):
    status: str
    expires_at: datetime | None
    paid_at: datetime | None  # the date of the transaction


class PinnedCommentOut(ApiModel):
    comment_text: str | None
    likes: int
    replies: int
    clicks: int
    status: str
    pinned_at: datetime | None


class BidOut(ApiModel):
    id: uuid.UUID
    amount: Money
    max_auto_bid: Money | None
    auto_bid_enabled: bool
    status: str
    tab: Literal["active", "won", "live", "past"]  # where it stands on My Bids
    won_auction: bool = Field(description="the bid won its auction and the win stands (not rejected, not left "
                              "unpaid), paid, pinned, completed or refunded alike: what Won Auctions counts, on My "
                              "Bids and the dashboard")
    final_price: Money | None  # what the buyer pays once the auction closed with this bid as winner
    created_at: datetime
    updated_at: datetime
    comment: str | None
    comment_id: str | None
    comment_username: str | None
    approved_comment: str | None  # the exact text the creator approved (disclosure first): what is posted or pinned
    comment_approved_at: datetime | None
    duration: int
    user: BidderOut
    pin_slot: SlotOut
    payment: PaymentOut | None
    pinned_comment: PinnedCommentOut | None
    # what the brand got back of its payment (an early end's unearned share, or all of it); None when nothing
    refunded: Money | None
    # an operator's refund decision on the placement's dispute (REFUND_UNEARNED or REFUND_ALL); None otherwise
    dispute_outcome: RefundOutcome | None
    offer_expires_at: datetime | None = Field(
        default=None, description="a second-chance offer (status OFFERED): the slot is offered at `amountOffered` "
                                  "until then; set once it was offered, whatever came of it")
    amount_offered: Money | None = Field(default=None, description="what a second-chance offer asks: the bid's own "
                                         "last amount (its maximum)")
    # the campaign that placed it (a brand's own bid either way); null for a bid placed by hand
    campaign_id: uuid.UUID | None = None
    campaign_name: str | None = None

    @classmethod
    def of(cls, view: BidView, *, for_creator: bool = False) -> "BidOut":
        """`for_creator`: a named comment shows only once social read it (the brand sees what it chose)."""
        bid, slot = view.bid, view.slot
        text, username = read_comment(bid) if for_creator else (bid.comment_text, bid.comment_username)
        payment = PaymentOut(status=bid.payment_status, expires_at=bid.payment_expires_at, paid_at=bid.paid_at) \
            if bid.payment_status else None
        pinned = PinnedCommentOut(comment_text=bid.pinned_text, likes=bid.likes, replies=bid.replies,
                                  clicks=bid.clicks, status=bid.pinned_status, pinned_at=bid.pinned_at) \
            if bid.pinned_status else None
        return cls(id=bid.id, amount=bid.amount, max_auto_bid=bid.max_auto_bid, auto_bid_enabled=bid.auto_bid_enabled,
                   status=bid.status, tab=tab_of(bid.status, bid.pinned_status, bid.payment_status).value,
                   won_auction=won_auction(bid.status, bid.payment_status), final_price=bid.final_price,
                   created_at=bid.created_at, updated_at=bid.updated_at, comment=text,
                   comment_id=bid.comment_id, comment_username=username, approved_comment=bid.approved_text,
                   comment_approved_at=bid.approved_at, duration=slot.duration_days, user=bidder(view.buyer, True),
                   pin_slot=SlotOut.of(slot), payment=payment, pinned_comment=pinned,
                   refunded=bid.refunded or None, dispute_outcome=bid.dispute_outcome,
                   offer_expires_at=bid.offer_expires_at,
                   amount_offered=bid.ceiling if bid.offer_expires_at is not None else None,
                   campaign_id=None if for_creator else bid.campaign_id,
                   campaign_name=None if for_creator else view.campaign_name)


class SecondChanceOut(ApiModel):
    """A slot whose winner fell through (rejected, or left unpaid): who it can be offered to now, or the offer
    waiting for its brand's answer. `runnerUp` is null while an offer is open or when nobody is left."""

    fallen: BidOut
    runner_up: BidOut | None
    runner_up_price: Money | None = Field(description="what an offer to the runner-up would ask: its own last "
                                          "amount (its maximum)")
    open_offer: BidOut | None

    @classmethod
    def of(cls, view: SecondChanceView) -> "SecondChanceOut":
        return cls(fallen=BidOut.of(view.fallen, for_creator=True),
                   runner_up=BidOut.of(view.runner_up, for_creator=True) if view.runner_up else None,
                   runner_up_price=view.runner_up.bid.ceiling if view.runner_up else None,
                   open_offer=BidOut.of(view.open_offer, for_creator=True) if view.open_offer else None)


def bidder(user: User | None, with_email: bool) -> BidderOut:
    if user is None:
        return BidderOut(name="A brand")
    return BidderOut(name=user.business_name or user.name, email=user.email if with_email else None)


def read_comment(bid: Bid) -> tuple[str | None, str | None]:
    """The text and author of the bid's comment as the creator may see them: a named comment's only once social
    read them on the post (before, they are only what the brand's client claimed)."""
    if bid.comment_id is not None and bid.comment_read_at is None:
        return None, None
    return bid.comment_text, bid.comment_username


def history(views: list[BidView], *, with_bidders: bool) -> list[BidHistoryOut]:
    """Bid history, newest first. Other buyers see amounts and statuses, not who bid nor their comments."""
    return [BidHistoryOut(id=v.bid.id, amount=v.bid.amount, status=v.bid.status, created_at=v.bid.created_at,
                          updated_at=v.bid.updated_at, user=bidder(v.buyer, True) if with_bidders else None,
                          comment=read_comment(v.bid)[0] if with_bidders else None,
                          comment_username=read_comment(v.bid)[1] if with_bidders else None)
            for v in views]


class InfluencerFiguresOut(ApiModel):
    active_slots: int
    pending_approvals: int
    completed_jobs: int


class BuyerFiguresOut(ApiModel):
    active_bids: int
    won_auctions: int


__all__ = ["Bid"]


# --- requests ---------------------------------------------------------------------------------------
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


class FlagOut(ApiModel, FlagView):
    """A bidder that may be tied to a creator, for operators: the reasons found and their score (0..100)."""


class ClearFlagIn(ApiModel):
    reason: Annotated[MultilineText, Field(min_length=1, max_length=REASON_MAX_LENGTH)]


# --- campaigns (issue 36) -----------------------------------------------------------------------------------------
CampaignName = Annotated[PlainText, Field(max_length=campaign_rules.MAX_NAME)]
CampaignComment = Annotated[MultilineText, Field(max_length=comments.MAX_COMMENT_TEXT)]
# the listing's own parameters and bounds (GET /marketplace/slots)
FilterPrice = Annotated[Money, Field(ge=0, le=MAX_AMOUNT)]


class CampaignFilters(ApiModel):
    """Who the campaign reaches, in the listing's own parameters (GET /marketplace/slots): a slot fits when the
    listing would show it with these filters."""

    category: Annotated[PlainText, Field(max_length=20)] | None = None
    min_price: FilterPrice | None = None
    max_price: FilterPrice | None = None
    min_views: Annotated[int, Field(ge=0, le=campaign_rules.MAX_VIEWS)] | None = None
    verified: bool | None = None
    min_kept_percent: Annotated[int, Field(ge=0, le=100)] | None = None
    time_left: Literal[("all", *TIME_LEFT_HOURS)] | None = None  # type: ignore[valid-type]
    search: Annotated[PlainText, Field(max_length=campaign_rules.MAX_SEARCH)] | None = None

    def rules(self) -> campaign_rules.Filters:
        return campaign_rules.Filters(category=self.category, min_price=self.min_price, max_price=self.max_price,
                                      min_views=self.min_views, verified=self.verified,
                                      min_kept_percent=self.min_kept_percent, time_left=self.time_left,
                                      search=self.search)

    @classmethod
    def of(cls, stored: dict) -> "CampaignFilters":
        f = campaign_rules.Filters.of_json(stored)
        return cls(category=f.category, min_price=f.min_price, max_price=f.max_price, min_views=f.min_views,
                   verified=f.verified, min_kept_percent=f.min_kept_percent, time_left=f.time_left, search=f.search)


class CampaignIn(ApiModel):
    name: CampaignName
    filters: CampaignFilters = CampaignFilters()
    ask: Annotated[PlainText, Field(max_length=ASK_MAX_LENGTH)] | None = Field(
        default=None, description="a question for the AI search box: its filters are read and merged into `filters` "
                                  "(those given in `filters` win); the answer's `understood` says which")
    budget: MoneyIn
    max_per_slot: MoneyIn
    comment_text: CampaignComment = Field(description="a new comment: Pinbid posts it with the ad disclosure first")
    starts_at: datetime | None = None
    ends_at: datetime


class CampaignChangesIn(ApiModel):
    name: CampaignName | None = None
    budget: MoneyIn | None = None
    max_per_slot: MoneyIn | None = None
    comment_text: CampaignComment | None = None
    ends_at: datetime | None = None
    filters: CampaignFilters | None = None
    version: int | None = Field(default=None, description="the version edited: 409 campaign_changed if it moved")


class CampaignCountsOut(ApiModel):
    bidding: int
    leading: int
    outbid: int
    won: int
    pinned: int


class CampaignUnderstoodOut(ApiModel):
    filters: list[str] = Field(description="the filters taken from the question, by parameter name")
    sentence: str
    ignored: list[IgnoredOut]


class CampaignOut(ApiModel):
    id: uuid.UUID
    name: str
    status: Literal["DRAFT", "ACTIVE", "PAUSED", "OUT_OF_BUDGET", "ENDED"]
    reason: str | None = Field(description="why it stopped bidding: paused, budget, ends_at, ended_by_brand, "
                                           "funding_reversed")
    filters: CampaignFilters
    ask: str | None
    budget: Money
    max_per_slot: Money
    funded: Money
    committed: Money = Field(description="the maxima of its live bids plus its wins that stand: reserved")
    spent: Money = Field(description="what its paid wins cost")
    available: Money = Field(description="what it may still commit: min(budget, funded) - committed")
    comment_text: str
    starts_at: datetime
    ends_at: datetime
    created_at: datetime
    updated_at: datetime
    version: int
    counts: CampaignCountsOut
    understood: CampaignUnderstoodOut | None = Field(default=None, description="on creation from `ask`")
    fitting_now: int | None = Field(default=None, description="on creation and in the detail: the open slots its "
                                    "filters keep now, counted up to 1,000 (0: it waits for new slots that fit)")

    @classmethod
    def of(cls, view: CampaignView) -> "CampaignOut":
        c, f = view.campaign, view.figures
        understood = CampaignUnderstoodOut(
            filters=view.understood.taken, sentence=view.understood.sentence,
            ignored=[IgnoredOut(phrase=i.phrase, reason=i.reason) for i in view.understood.ignored]
        ) if view.understood else None
        return cls(id=c.id, name=c.name, status=c.status, reason=c.reason, filters=CampaignFilters.of(c.filters),
                   ask=c.ask, budget=c.budget, max_per_slot=c.max_per_slot, funded=c.funded, committed=f.committed,
                   spent=f.spent, available=view.available, comment_text=c.comment_text, starts_at=c.starts_at,
                   ends_at=c.ends_at, created_at=c.created_at, updated_at=c.updated_at, version=c.version,
                   counts=CampaignCountsOut(**f.counts), understood=understood, fitting_now=view.fitting_now)


class CampaignBidOut(ApiModel):
    id: uuid.UUID
    slot_id: uuid.UUID
    slot_title: str
    creator_name: str
    status: str
    amount: Money
    max_auto_bid: Money | None
    final_price: Money | None
    clicks: int
    cost_per_click: Money | None = Field(description="the final price over the clicks, once it won and was clicked")
    updated_at: datetime


class CampaignSkippedOut(ApiModel):
    slot_id: uuid.UUID
    slot_title: str
    reason: Literal["BELOW_MINIMUM", "OWN_BID", "ASSOCIATED", "CLOSED"] = Field(
        description="BELOW_MINIMUM: the most per comment is below what the auction accepts; OWN_BID: you already bid "
                    "there yourself; ASSOCIATED: you may not bid on this creator; CLOSED: it ended first")
    at: datetime


class SpendPointOut(ApiModel):
    at: datetime
    spent: Money
    committed: Money


class CampaignDetailOut(CampaignOut):
    bids: list[CampaignBidOut]
    skipped: list[CampaignSkippedOut] = Field(description="fitting slots it placed no bid on, and why")
    spend_over_time: list[SpendPointOut]

    @classmethod
    def of_detail(cls, d: CampaignDetail) -> "CampaignDetailOut":
        base = CampaignOut.of(d.view).model_dump()
        return cls(**base, bids=[CampaignBidOut(
            id=b.bid_id, slot_id=b.slot_id, slot_title=b.slot_title, creator_name=b.creator_name, status=b.status,
            amount=b.amount, max_auto_bid=b.max_auto_bid, final_price=b.final_price, clicks=b.clicks,
            cost_per_click=(b.final_price / b.clicks).quantize(CENT) if b.final_price is not None and b.clicks
            else None, updated_at=b.updated_at) for b in d.bids],
            skipped=[CampaignSkippedOut(slot_id=s.slot_id, slot_title=s.slot_title, reason=s.outcome, at=s.at)
                     for s in d.skipped],
            spend_over_time=[SpendPointOut(at=p.at, spent=p.spent, committed=p.committed)
                             for p in d.spend_over_time])
