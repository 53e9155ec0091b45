"""The life of a pinned comment (ARCHITECTURE.md section 6): awaiting payment, awaiting the pin,
pinned, then completed after `duration` days, or unpinned early (recorded against the creator)."""

from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum


class Status(StrEnum):
    AWAITING_PAYMENT = "AWAITING_PAYMENT"  # approved, the buyer has not paid yet
    AWAITING_PIN = "AWAITING_PIN"  # WON and paid: the creator may pin
    PINNED = "PINNED"
    UNPINNED = "UNPINNED"  # unpinned (or deleted) before its duration ran out
    COMPLETED = "COMPLETED"


class Step(StrEnum):
    METRICS = "METRICS"
    UNPINNED = "UNPINNED"
    COMPLETED = "COMPLETED"


@dataclass(frozen=True)
class Observation:
    """What the provider says about a pinned comment right now."""

    exists: bool
    pinned: bool
    likes: int
    replies: int


def ends_at(pinned_at: datetime, duration_days: int) -> datetime:
    return pinned_at + timedelta(days=duration_days)


def next_step(*, pinned_at: datetime, duration_days: int, now: datetime, seen: Observation) -> Step:
    """Completion wins once the duration is over, even if the creator unpinned afterwards."""
    if now >= ends_at(pinned_at, duration_days):
        return Step.COMPLETED
    if not seen.exists or not seen.pinned:
        return Step.UNPINNED
    return Step.METRICS


def can_pin(status: Status) -> str | None:
    """None when a pin may start, else why not (a sentence for the creator)."""
    if status == Status.AWAITING_PIN:
        return None
    if status == Status.AWAITING_PAYMENT:
        return "The buyer has not paid for this bid yet; you can pin once the payment is complete."
    if status == Status.PINNED:
        return "This comment is already pinned."
    return "This placement is over; the comment can no longer be pinned."
