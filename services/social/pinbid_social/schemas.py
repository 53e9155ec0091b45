"""Social's HTTP request and response models: connecting Instagram, posts with their slots, the buyer's comments,
the pinning login and pinning. Tokens and sessions never appear in a response."""

import uuid
from datetime import datetime
from decimal import Decimal
from typing import Annotated, Literal

from pinbid_kit.api import ApiModel, Money, PlainText
from pinbid_kit.events.trust import DisputeOutcome
from pinbid_kit.product_rules import REASON_MAX_LENGTH
from pydantic import Field

from .links import TargetChange
from .models import Slot
from .queries import PostView


def _money(cents: int | None) -> Decimal | None:
    return None if cents is None else (Decimal(cents) / 100).quantize(Decimal("0.01"))


class InstagramConnectOut(ApiModel):
    url: str


class InstagramPinSlotOut(ApiModel):
    id: uuid.UUID
    title: str | None
    category: str | None
    status: str
    min_bid: Money | None
    current_bid: Money | None
    bid_count: int
    bidder_count: int  # the brands in the running: the number shown
    auction_end: datetime
    duration: int | None

    @classmethod
    def of(cls, slot: Slot) -> "InstagramPinSlotOut":
        return cls(id=slot.slot_id, title=slot.title, category=slot.category, status=slot.status,
                   min_bid=_money(slot.min_bid_cents), current_bid=_money(slot.current_bid_cents),
                   bid_count=slot.bid_count,
                   bidder_count=slot.bidder_count if slot.bidder_count is not None else slot.bid_count,
                   auction_end=slot.auction_end, duration=slot.duration_days)


class InstagramPostOut(ApiModel):
    """A post as the provider shows it (snake_case names, as the spec's client reads them) with its slots."""

    id: str
    media_type: str = Field(serialization_alias="media_type")
    media_url: str = Field(serialization_alias="media_url")
    caption: str
    views: int
    like_count: int = Field(serialization_alias="like_count")
    comments_count: int = Field(serialization_alias="comments_count")
    permalink: str
    timestamp: datetime | None
    pin_slots: list[InstagramPinSlotOut]

    @classmethod
    def of(cls, view: PostView) -> "InstagramPostOut":
        p = view.post
        return cls(id=p.id, media_type=p.media_type, media_url=p.media_url, caption=p.caption, views=p.views,
                   like_count=p.like_count, comments_count=p.comments_count, permalink=p.permalink,
                   timestamp=p.posted_at, pin_slots=[InstagramPinSlotOut.of(s) for s in view.slots])


class InstagramCommentOut(ApiModel):
    id: str
    comment: str
    username: str
    like_count: int


class InstagramConnectionOut(ApiModel):
    connected: bool
    instagram_id: str | None = None
    username: str | None = None
    account_type: str | None = None
    followers: int | None = None
    avg_views: int | None = None
    avg_engagement: Money | None = None
    verified: bool | None = None
    pinning_logged_in: bool = False
    last_synced_at: datetime | None = None
    pin_method: str = "SESSION"  # SESSION: Pinbid pins with the Instagram login; MANUAL: pinned in the app


class InstagramLoginIn(ApiModel):
    username: Annotated[PlainText, Field(min_length=1, max_length=64)]
    password: Annotated[str, Field(min_length=1, max_length=512)]  # passed on once, never stored
    verification_code: Annotated[PlainText, Field(max_length=12)] | None = None


class InstagramLoginOut(ApiModel):
    detail: str
    username: str


class LinkIn(ApiModel):
    url: Annotated[PlainText, Field(max_length=2000, description="The brand's page (https://…)")]
    promo_code: Annotated[PlainText | None, Field(max_length=32)] = None


class LinkOut(ApiModel):
    code: str
    short_url: str  # what the comment can say: people type it, as links in comments are not clickable
    destination: str
    promo_code: str | None


class LinkChangeOut(ApiModel, TargetChange):
    """A short link's target changed after its comment was pinned (for operators)."""


class ClicksAt(ApiModel):
    hour: datetime
    clicks: int


class FiguresAt(ApiModel):
    at: datetime
    likes: int
    replies: int


class ResultsOut(ApiModel):
    link: LinkOut | None
    clicks: int
    likes: int
    replies: int
    status: str
    clicks_by_hour: list[ClicksAt]
    figures: list[FiguresAt]


class PinMethodIn(ApiModel):
    pin_method: Literal["SESSION", "MANUAL"]


class PinMethodOut(ApiModel):
    pin_method: str


class PinStateOut(ApiModel):
    """A placement waiting for its pin: its method (fixed when paid) and what the creator may press now."""

    bid_id: uuid.UUID
    method: Literal["SESSION", "MANUAL"]
    actions: list[Literal["pin", "post", "confirm"]]


class PinCommentOut(ApiModel):
    bid_id: uuid.UUID
    comment_id: str
    comment_text: str
    status: str
    detail: str


# --- trust (issue 22) ------------------------------------------------------------------------------------
Reason = Annotated[PlainText, Field(min_length=1, max_length=REASON_MAX_LENGTH)]


class PlacementAcceptanceOut(ApiModel):
    status: Literal["NOT_NEEDED", "AWAITING", "ACCEPTED"]
    accept_by: datetime | None
    accepted_at: datetime | None
    accepted_by: Literal["BRAND", "SILENCE"] | None


class PlacementEvidenceOut(ApiModel):
    id: uuid.UUID
    kind: Literal["PIN", "RECHECK", "ANSWER"]
    uploaded_at: datetime
    url: str


class PlacementRecheckOut(ApiModel):
    requested_at: datetime
    answer_by: datetime
    answered_at: datetime | None


class DisputeOut(ApiModel):
    id: uuid.UUID
    status: Literal["OPEN", "DECIDED"]
    reason: str
    reporter: Literal["BRAND", "SYSTEM"]
    reported_at: datetime
    creator_note: str | None
    answer_by: datetime
    answered_at: datetime | None
    outcome: DisputeOutcome | None
    decision_reason: str | None
    decided_at: datetime | None


class PlacementActionOut(ApiModel):
    open: bool = Field(description="the viewer may do it now")
    until: datetime | None = Field(description="while open, the moment it closes (null: no deadline)")


class PlacementAnswerOut(PlacementActionOut):
    kind: Literal["ANSWER", "RECHECK"] | None = Field(
        description="while open, what the screenshot answers: the open dispute or the fresh-screenshot request")


class PlacementActionsOut(ApiModel):
    """What the person asking may do to the placement now, and by when, by the rules the changes are checked with:
    the brand's accept ("Looks right") and report, the creator's answer (a screenshot); all closed for others."""

    accept: PlacementActionOut
    report: PlacementActionOut = Field(description='"Report a problem" while accept is open, else "no longer '
                                                   'pinned"')
    answer: PlacementAnswerOut


class PlacementTrustOut(ApiModel):
    method: Literal["SESSION", "MANUAL"]
    acceptance: PlacementAcceptanceOut
    evidence: list[PlacementEvidenceOut]
    recheck: PlacementRecheckOut | None
    dispute: DisputeOut | None
    ended: bool
    end_reason: str | None
    actions: PlacementActionsOut


class PlacementReportIn(ApiModel):
    reason: Reason


class DisputeDecisionIn(ApiModel):
    """`decideNowReason`: required to decide while the creator may still answer (else 409 awaiting_answer), and
    written to the dispute's history and the audit log."""

    outcome: DisputeOutcome
    reason: Reason
    decide_now_reason: Reason | None = None


class DisputeListItemOut(ApiModel):
    id: uuid.UUID
    bid_id: uuid.UUID
    slot_id: uuid.UUID
    status: Literal["OPEN", "DECIDED"]
    reason: str
    reporter: Literal["BRAND", "SYSTEM"]
    reported_at: datetime
    answered_at: datetime | None
    answer_by: datetime
    creator_id: uuid.UUID
    creator_name: str | None
    buyer_id: uuid.UUID
    buyer_name: str | None
    amount: Money | None
    post_url: str | None
    outcome: DisputeOutcome | None
    decided_at: datetime | None
    awaiting_answer: bool = Field(description="open, not answered, and the creator may still answer: a decision "
                                              "needs decideNowReason")


class DisputeHistoryStepOut(ApiModel):
    at: datetime
    what: str
    by: str


class DisputeDetailOut(DisputeListItemOut):
    evidence: list[PlacementEvidenceOut]
    creator_note: str | None
    decision_reason: str | None
    history: list[DisputeHistoryStepOut]
