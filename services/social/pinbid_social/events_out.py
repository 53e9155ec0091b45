"""The integration events social announces, built from what it read from Instagram and from its rows. Only built
here: the use case that causes them collects its events and writes them once, in its own transaction
(`outbox.publish_all`)."""

import uuid
from datetime import datetime

from pinbid_kit.events.social import (
    AccountConnected,
    AccountDisconnected,
    AccountUpdated,
    CommentMetricsUpdated,
    CommentPinned,
    CommentUnpinned,
    CreatorProfile,
    DisputeAnswered,
    DisputeDecided,
    MediaSynced,
    PlacementAccepted,
    PlacementCompleted,
    PlacementDisputed,
    PlacementEnded,
    PlacementKept,
    RecheckRequested,
    SocialAccountSignal,
    SocialOperatorAction,
    SyncedPost,
)

from .domain.placement import Due
from .domain.stats import ProfileStats
from .models import Dispute, Placement
from .ports import Media, Profile


def _profile(stats: ProfileStats) -> CreatorProfile:
    return CreatorProfile(followers=stats.followers, avg_views=stats.avg_views, avg_engagement=stats.avg_engagement,
                          verified=stats.verified)


def account_connected(user_id: uuid.UUID, profile: Profile, stats: ProfileStats) -> AccountConnected:
    return AccountConnected(user_id=user_id, instagram_id=profile.id, username=profile.username,
                            profile=_profile(stats))


def instagram_account_signal(user_id: uuid.UUID, instagram_id: str, observed_at: datetime) -> SocialAccountSignal:
    """The user holds this Instagram account: only its hash leaves social (pinbid_kit.events.trust)."""
    [signal] = SocialAccountSignal.observed(user_id, [("INSTAGRAM_ACCOUNT", instagram_id)], observed_at)
    return signal  # an Instagram account always has an id


def account_updated(user_id: uuid.UUID, profile: Profile, stats: ProfileStats) -> AccountUpdated:
    return AccountUpdated(user_id=user_id, instagram_id=profile.id, username=profile.username,
                          profile=_profile(stats))


def account_disconnected(user_id: uuid.UUID) -> AccountDisconnected:
    return AccountDisconnected(user_id=user_id)


def media_synced(user_id: uuid.UUID, instagram_id: str, media: list[Media]) -> MediaSynced:
    return MediaSynced(user_id=user_id, instagram_id=instagram_id, posts=[
        SyncedPost(id=m.id, media_type=m.media_type, media_url=m.media_url, permalink=m.permalink, caption=m.caption,
                   views=m.views, like_count=m.like_count, comments_count=m.comments_count, posted_at=m.posted_at)
        for m in media])


def comment_pinned(placement: Placement, comment_id: str, text: str, pinned_at: datetime, method: str, *,
                   accept_by: datetime | None = None) -> CommentPinned:
    return CommentPinned(
        bid_id=placement.bid_id, slot_id=placement.slot_id, creator_id=placement.creator_id,
        buyer_id=placement.buyer_id, comment_id=comment_id, comment_text=text, pinned_at=pinned_at, method=method,
        awaits_acceptance=accept_by is not None, accept_by=accept_by)


# trust (issue 22)
def _parties(placement: Placement) -> dict:
    return {"bid_id": placement.bid_id, "slot_id": placement.slot_id, "creator_id": placement.creator_id,
            "buyer_id": placement.buyer_id}


def placement_accepted(placement: Placement, at: datetime, by: str) -> PlacementAccepted:
    return PlacementAccepted(**_parties(placement), accepted_at=at, by=by)


def placement_disputed(placement: Placement, dispute: Dispute) -> PlacementDisputed:
    return PlacementDisputed(**_parties(placement), dispute_id=dispute.id, reason=dispute.reason,
                             reporter=dispute.reporter, reported_at=dispute.reported_at,
                             answer_by=dispute.answer_by)


def recheck_requested(placement: Placement, at: datetime, answer_by: datetime) -> RecheckRequested:
    return RecheckRequested(**_parties(placement), requested_at=at, answer_by=answer_by)


def dispute_answered(placement: Placement, dispute_id: uuid.UUID, at: datetime) -> DisputeAnswered:
    return DisputeAnswered(dispute_id=dispute_id, bid_id=placement.bid_id, creator_id=placement.creator_id,
                           buyer_id=placement.buyer_id, answered_at=at)


def dispute_decided(placement: Placement, dispute: Dispute) -> DisputeDecided:
    assert dispute.outcome and dispute.decided_by and dispute.decided_at
    return DisputeDecided(**_parties(placement), dispute_id=dispute.id, outcome=dispute.outcome,
                          reason=dispute.decision_reason or "", operator_id=dispute.decided_by,
                          decided_at=dispute.decided_at)


def operator_action(operator_id: uuid.UUID, action: str, object_type: str, object_id: str, reason: str,
                    at: datetime) -> SocialOperatorAction:
    return SocialOperatorAction(action_id=uuid.uuid4(), operator_id=operator_id, action=action,
                                object_type=object_type, object_id=object_id, reason=reason, acted_at=at)


def placement_ended(placement: Placement, reason: str, at: datetime) -> PlacementEnded:
    return PlacementEnded(**_parties(placement), method="MANUAL" if placement.pin_method == "MANUAL" else "SESSION",
                          reason=reason, ended_at=at)


# the tracker's: a run's events are written together, once
def comment_metrics_updated(due: Due, likes: int, replies: int, clicks: int) -> CommentMetricsUpdated:
    return CommentMetricsUpdated(bid_id=due.bid_id, likes=likes, replies=replies, clicks=clicks)


def placement_kept(due: Due, days_kept: int, checked_at: datetime) -> PlacementKept:
    return PlacementKept(bid_id=due.bid_id, slot_id=due.slot_id, creator_id=due.creator_id, pinned_at=due.pinned_at,
                         checked_at=checked_at, days_kept=days_kept, duration_days=due.duration_days)


def placement_completed(due: Due, completed_at: datetime) -> PlacementCompleted:
    return PlacementCompleted(bid_id=due.bid_id, slot_id=due.slot_id, creator_id=due.creator_id,
                              completed_at=completed_at)


def comment_unpinned(due: Due, reason: str, unpinned_at: datetime) -> CommentUnpinned:
    return CommentUnpinned(bid_id=due.bid_id, slot_id=due.slot_id, creator_id=due.creator_id,
                           comment_id=due.comment_id, unpinned_at=unpinned_at, reason=reason)
