"""A campaign's money, as rules: what a fund call pays in, whether the balance covers a win, which funding
payments give back the rest at the end, and how a reversal splits between the balance and the platform's loss.
Integer cents only."""

import uuid
from dataclasses import dataclass

ENDED = "ENDED"


class CampaignClosed(ValueError):
    """The campaign takes no more money: ended, or its rest already returned."""


class NothingToFund(ValueError):
    """What was paid in already reaches the budget."""


def to_fund(*, status: str, settled: bool, budget_cents: int, funded_cents: int) -> int:
    """What a fund call pays in: the budget not funded yet."""
    if status == ENDED or settled:
        raise CampaignClosed("This campaign has ended.")
    left = budget_cents - funded_cents
    if left <= 0:
        raise NothingToFund("This campaign's budget is already funded.")
    return left


def covers(balance_cents: int, total_cents: int) -> bool:
    return 0 < total_cents <= balance_cents


@dataclass(frozen=True)
class Refundable:
    funding_id: uuid.UUID
    cents: int  # what is left of it at the provider: paid, less returned and reversed


def return_plan(left_cents: int, fundings: list[Refundable]) -> list[tuple[uuid.UUID, int]]:
    """Which funding payments give back `left_cents`, and how much each: in the order given (newest first, the
    caller's), each at most what is left of it. Raises when they cannot cover it (a ledger that disagrees with
    the provider's charges must stop the return, not guess)."""
    plan = []
    left = left_cents
    for funding in fundings:
        if left <= 0:
            break
        part = min(funding.cents, left)
        if part > 0:
            plan.append((funding.funding_id, part))
            left -= part
    if left > 0:
        raise ValueError(f"the funding payments cover {left_cents - left} of the {left_cents} cents to return")
    return plan


def reversal_from_balance(taken_cents: int, balance_cents: int) -> int:
    """Of `taken_cents` taken back at the provider, what the balance still holds gives; the rest was already
    spent on wins and is the platform's loss."""
    return max(0, min(taken_cents, balance_cents))
