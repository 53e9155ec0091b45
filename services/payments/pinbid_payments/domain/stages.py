"""The creator's share is released as the comment stays pinned: a quarter when it is pinned, the rest pro rata per
whole day kept, the remainder when the placement completes. A placement that ends early (unpinned, hidden or
deleted) gives the brand back the share not yet released, with the platform's fee on that same share. Integer
cents; every rounding is in the creator's and the brand's favour against the platform's, never below zero."""

from dataclasses import dataclass

from .money import Split

AT_PIN_DIVISOR = 4  # a quarter of the creator's share is released at pin time


def released_by(net_cents: int, *, days_kept: int, duration_days: int) -> int:
    """How much of `net_cents` is released after `days_kept` whole days of a `duration_days` placement."""
    at_pin = net_cents // AT_PIN_DIVISOR
    if duration_days <= 0:
        return net_cents
    days = min(max(days_kept, 0), duration_days)
    return at_pin + (net_cents - at_pin) * days // duration_days


@dataclass(frozen=True)
class EarlyEnd:
    """What goes back to the brand when a placement ends early with `released` cents already released."""

    creator_cents: int  # the creator's share not released: taken back from pending
    fee_cents: int  # the platform's 10% on that share
    refund_cents: int  # what the brand gets back: the two together


def early_end(money: Split, released_cents: int) -> EarlyEnd:
    creator_back = money.creator_cents - min(max(released_cents, 0), money.creator_cents)
    fee_back = money.fee_cents * creator_back // money.creator_cents if money.creator_cents else 0
    return EarlyEnd(creator_back, fee_back, creator_back + fee_back)
