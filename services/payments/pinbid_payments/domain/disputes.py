"""What each outcome of a dispute would move, computed before the operator decides, by the same rules that move
the money once they have (settlement.py): the brand's refund, the creator's share it takes, the part of that share
already paid out (then owed by the creator and recovered from their next earnings), and what CONTINUE releases.
Integer cents, no I/O."""

from dataclasses import dataclass

from pinbid_kit.events.trust import CONTINUE, DISPUTE_OUTCOMES, REFUND_ALL, REFUND_UNEARNED

from . import stages
from .money import Split

OUTCOMES = DISPUTE_OUTCOMES


@dataclass(frozen=True)
class Standing:
    """One payment as it stands, from its rows."""

    money: Split
    paid: bool  # COMPLETED, and no full refund made or ordered
    pinned: bool
    ended_early: bool  # an early end already took the unreleased share back (or is taking it)
    released: int  # the creator's share released so far
    unpaid: int  # of it, not paid out yet (nor used to pay back money owed)
    early_refund: int  # what an early end gave the brand back (0 when none was made)
    early_refund_creator: int  # of it, the creator's share
    due: int  # the creator's share due by now: the pin's quarter, the days kept, or all of it once completed


@dataclass(frozen=True)
class Moves:
    outcome: str
    to_brand: int  # what the brand gets back
    from_creator: int  # of it, the creator's share: not released yet, or released and taken back
    paid_out: int  # of `from_creator`, already paid out: owed by the creator, recovered from their next earnings
    to_creator: int  # released to the creator now (CONTINUE: what the dispute held)


def moves(standing: Standing, outcome: str) -> Moves:
    s, money = standing, standing.money
    if not s.paid:
        return Moves(outcome, 0, 0, 0, 0)
    if outcome == CONTINUE:
        held = min(s.due, money.creator_cents) - s.released if s.pinned and not s.ended_early else 0
        return Moves(outcome, 0, 0, 0, max(held, 0))
    if outcome == REFUND_UNEARNED:
        if not s.pinned or s.ended_early:
            return Moves(outcome, 0, 0, 0, 0)
        back = stages.early_end(money, s.released)
        return Moves(outcome, back.refund_cents, back.creator_cents, 0, 0)
    if outcome == REFUND_ALL:
        if s.early_refund >= money.total_cents:
            return Moves(outcome, 0, 0, 0, 0)
        return Moves(outcome, money.total_cents - s.early_refund, money.creator_cents - s.early_refund_creator,
                     s.released - s.unpaid, 0)
    raise ValueError(f"no such outcome: {outcome}")
