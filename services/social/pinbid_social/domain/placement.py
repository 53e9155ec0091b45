"""The life of a pinned comment (ARCHITECTURE.md section 6): awaiting payment, awaiting the pin,
pinned, then completed after `duration` days, or unpinned early (recorded against the creator).

A placement is judged broken only by a second check in a row that finds the comment gone, hidden or unpinned:
one bad reading (a provider's hiccup, a comment re-pinned a minute later) only asks for a check again soon.
A check that cannot reach the provider judges nothing. While the comment is in place, each whole day reached
is counted once (payments releases the creator's share in stages on it)."""

import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum

SESSION, MANUAL = "SESSION", "MANUAL"  # how a creator pins (Settings -> Instagram Integration)


class Status(StrEnum):
    AWAITING_PAYMENT = "AWAITING_PAYMENT"  # approved, the buyer has not paid yet
    AWAITING_PIN = "AWAITING_PIN"  # WON and paid: the creator may pin
    PINNED = "PINNED"
    UNPINNED = "UNPINNED"  # unpinned (or deleted) before its duration ran out
    COMPLETED = "COMPLETED"
    ENDED = "ENDED"  # ended early on a refund (a dispute's decision, or a full refund in payments)


class Step(StrEnum):
    METRICS = "METRICS"
    SUSPECT = "SUSPECT"  # the first bad reading: check again soon before judging
    UNPINNED = "UNPINNED"
    COMPLETED = "COMPLETED"


class Broken(StrEnum):
    """What the tracker found, as CommentUnpinned's `reason`."""

    UNPINNED = "UNPINNED"
    HIDDEN = "HIDDEN"
    DELETED = "DELETED"


@dataclass(frozen=True)
class Observation:
    """What the provider says about a pinned comment right now."""

    exists: bool
    pinned: bool
    likes: int
    replies: int
    hidden: bool = False

    @property
    def broken(self) -> Broken | None:
        if not self.exists:
            return Broken.DELETED
        if self.hidden:
            return Broken.HIDDEN
        if not self.pinned:
            return Broken.UNPINNED
        return None


def ends_at(pinned_at: datetime, duration_days: int) -> datetime:
    return pinned_at + timedelta(days=duration_days)


def next_step(*, pinned_at: datetime, duration_days: int, now: datetime, seen: Observation,
              misses: int = 0) -> Step:
    """Completion wins once the duration is over, even if the creator unpinned afterwards. `misses`: the bad
    readings in a row before this one."""
    if now >= ends_at(pinned_at, duration_days):
        return Step.COMPLETED
    if seen.broken is not None:
        return Step.UNPINNED if misses >= 1 else Step.SUSPECT
    return Step.METRICS


def days_kept(*, pinned_at: datetime, duration_days: int, now: datetime) -> int:
    """Whole days since the pin, at most the placement's duration."""
    return max(0, min(duration_days, (now - pinned_at) // timedelta(days=1)))


def pin_actions(status: Status, method: str | None, posted_or_named: bool) -> list[str]:
    """What the creator may press for a placement: "pin" (Pinbid pins with the creator's login), "post" (Pinbid
    posts the comment for the creator to pin in the app) or "confirm" ("I pinned it", with a screenshot, once the
    comment is on the post). The method is the placement's, fixed when it was paid."""
    if status != Status.AWAITING_PIN:
        return []
    if method != "MANUAL":
        return ["pin"]
    return ["confirm"] if posted_or_named else ["post"]


def can_pin(status: Status) -> str | None:
    """None when a pin may start, else why not (a sentence for the creator)."""
    if status == Status.AWAITING_PIN:
        return None
    if status == Status.AWAITING_PAYMENT:
        return "The buyer has not paid for this bid yet; you can pin once the payment is complete."
    if status == Status.PINNED:
        return "This comment is already pinned."
    return "This placement is over; the comment can no longer be pinned."


@dataclass(frozen=True)
class Due:
    """A pinned placement claimed for a check: what the tracker read with its claim."""

    bid_id: uuid.UUID
    slot_id: uuid.UUID
    creator_id: uuid.UUID
    post_id: str
    comment_id: str
    pinned_at: datetime
    duration_days: int
    likes: int
    replies: int
    misses: int
    days_kept: int
    clicks: int
