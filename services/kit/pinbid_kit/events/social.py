import uuid
from datetime import datetime
from decimal import Decimal
from typing import Literal

from .catalog import EventData, event
from .trust import AccountSignal, DisputeOutcome, OperatorAction


class CreatorProfile(EventData):
    followers: int
    avg_views: int
    avg_engagement: Decimal
    verified: bool


@event("social.account.connected.v1")
class AccountConnected(EventData):
    """A user connected an Instagram account."""

    user_id: uuid.UUID
    instagram_id: str
    username: str
    profile: CreatorProfile


@event("social.account.updated.v1")
class AccountUpdated(EventData):
    """The statistics or name of a connected Instagram account changed."""

    user_id: uuid.UUID
    instagram_id: str
    username: str
    profile: CreatorProfile


@event("social.account.disconnected.v1")
class AccountDisconnected(EventData):
    """A user disconnected their Instagram account (or its token could no longer be refreshed)."""

    user_id: uuid.UUID


class SyncedPost(EventData):
    id: str  # the Instagram media id
    media_type: str  # IMAGE, VIDEO or CAROUSEL_ALBUM
    media_url: str
    permalink: str
    caption: str = ""
    views: int = 0
    like_count: int = 0
    comments_count: int = 0
    posted_at: datetime | None = None


@event("social.media.synced.v1")
class MediaSynced(EventData):
    """A creator's recent posts as last read from Instagram (the posts slots are created from)."""

    user_id: uuid.UUID
    instagram_id: str
    posts: list[SyncedPost]


@event("social.comment.pinned.v1")
class CommentPinned(EventData):
    """The winning brand's comment is pinned on the creator's post."""

    bid_id: uuid.UUID
    slot_id: uuid.UUID
    creator_id: uuid.UUID
    buyer_id: uuid.UUID
    comment_id: str
    comment_text: str
    pinned_at: datetime
    method: str = "SESSION"  # SESSION: pinned by Pinbid through the creator's login; MANUAL: "I pinned it", checked
    # MANUAL with a screenshot: Pinbid cannot see the pin, so releases wait for social.placement.accepted.v1
    awaits_acceptance: bool = False
    accept_by: datetime | None = None  # when awaiting: accepted by silence at this moment


@event("social.comment.unpinned.v1")
class CommentUnpinned(EventData):
    """A pinned comment stopped being pinned before its duration ran out (recorded against the creator)."""

    bid_id: uuid.UUID
    slot_id: uuid.UUID
    creator_id: uuid.UUID
    comment_id: str
    unpinned_at: datetime
    reason: str = "UNPINNED"  # UNPINNED, HIDDEN or DELETED: what the tracker found


@event("social.comment.metrics_updated.v1")
class CommentMetricsUpdated(EventData):
    """Fresh likes and replies of a pinned comment."""

    bid_id: uuid.UUID
    likes: int
    replies: int
    clicks: int = 0  # counted visits of the placement's vanity link (bots and repeats within a minute left out)


@event("social.comment.completed.v1")
class PlacementCompleted(EventData):
    """A pinned comment stayed pinned for the slot's whole duration."""

    bid_id: uuid.UUID
    slot_id: uuid.UUID
    creator_id: uuid.UUID
    completed_at: datetime


@event("social.comment.kept.v1")
class PlacementKept(EventData):
    """The tracker found a pinned comment still in place (pinned, visible, the approved text) a whole day more:
    `daysKept` whole days since `pinnedAt` (at most `durationDays`). Sent once per day reached, in order;
    payments releases the creator's share in stages on it."""

    bid_id: uuid.UUID
    slot_id: uuid.UUID
    creator_id: uuid.UUID
    pinned_at: datetime
    checked_at: datetime
    days_kept: int
    duration_days: int


@event("social.placement.accepted.v1")
class PlacementAccepted(EventData):
    """The brand accepted a placement the creator pinned in the Instagram app (its screenshot "looks right"), or
    the acceptance window ran out without an answer (`by` SILENCE). Releases held since the pin may go."""

    bid_id: uuid.UUID
    slot_id: uuid.UUID
    creator_id: uuid.UUID
    buyer_id: uuid.UUID
    accepted_at: datetime
    by: Literal["BRAND", "SILENCE"]


@event("social.placement.disputed.v1")
class PlacementDisputed(EventData):
    """The brand reported a problem with a placement (during the acceptance window or at any time while it runs),
    or the creator did not answer a fresh-screenshot request in time (`reporter` SYSTEM). Every further release
    of the placement stops until an operator decides."""

    dispute_id: uuid.UUID
    bid_id: uuid.UUID
    slot_id: uuid.UUID
    creator_id: uuid.UUID
    buyer_id: uuid.UUID
    reason: str
    reporter: Literal["BRAND", "SYSTEM"]
    reported_at: datetime
    answer_by: datetime | None = None  # the creator's time to answer with a note and a new screenshot


@event("social.dispute.decided.v1")
class DisputeDecided(EventData):
    """An operator decided a dispute: CONTINUE (releases resume), REFUND_UNEARNED (the placement ends; the brand
    gets back what was not yet released) or REFUND_ALL (the placement ends; the brand gets everything back and
    what was released is recovered from the creator)."""

    dispute_id: uuid.UUID
    bid_id: uuid.UUID
    slot_id: uuid.UUID
    creator_id: uuid.UUID
    buyer_id: uuid.UUID
    outcome: DisputeOutcome
    reason: str
    operator_id: uuid.UUID
    decided_at: datetime


@event("social.operator.acted.v1")
class SocialOperatorAction(OperatorAction):
    """An operator acted in social (decided a dispute, ...): for the audit log."""


@event("social.account.signal_observed.v1")
class SocialAccountSignal(AccountSignal):
    """A user connected an Instagram account (kind INSTAGRAM_ACCOUNT), for finding associated accounts."""


@event("social.bid_comment.resolved.v1")
class BidCommentResolved(EventData):
    """Social read, on the post, the existing comment a bid names (`commentId`): its text and author as Instagram
    has them, so the bid shows them wherever it is shown (`found` false: no such comment on the slot's post)."""

    bid_id: uuid.UUID
    comment_id: str
    found: bool
    text: str | None = None
    username: str | None = None
    read_at: datetime


@event("social.placement.recheck_requested.v1")
class RecheckRequested(EventData):
    """Pinbid asks the creator of a placement pinned in the Instagram app for a fresh screenshot, at a random time
    within the placement (at least once each): unanswered by `answer_by`, a SYSTEM dispute opens."""

    bid_id: uuid.UUID
    slot_id: uuid.UUID
    creator_id: uuid.UUID
    buyer_id: uuid.UUID
    requested_at: datetime
    answer_by: datetime


@event("social.dispute.answered.v1")
class DisputeAnswered(EventData):
    """The creator answered an open dispute with a new screenshot (and a note): the operator can decide."""

    dispute_id: uuid.UUID
    bid_id: uuid.UUID
    creator_id: uuid.UUID
    buyer_id: uuid.UUID
    answered_at: datetime


@event("social.placement.ended.v1")
class PlacementEnded(EventData):
    """A placement ended before its time on a refund (an operator's REFUND_* decision, or a full refund in payments):
    no more tracking or kept days. `method` SESSION: Pinbid unpins the comment itself; MANUAL: the creator is asked
    to unpin it in the Instagram app."""

    bid_id: uuid.UUID
    slot_id: uuid.UUID
    creator_id: uuid.UUID
    buyer_id: uuid.UUID
    method: Literal["SESSION", "MANUAL"]
    reason: str
    ended_at: datetime
