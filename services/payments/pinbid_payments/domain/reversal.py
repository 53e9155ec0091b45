"""A full refund's reversal and a debt's recovery, computed as ledger transactions before anything is written
(settlement.reverse and recovery.recover post them, then record and announce what they computed)."""

import uuid
from dataclasses import dataclass

from . import ledger
from .money import Split


def recovered_parts(available: list[int], owed: int) -> list[int]:
    """What each release not paid out (`available`: its cents not yet taken for a debt, oldest first) gives to pay
    back `owed`: the oldest first, each at most what it has, all together at most `owed`."""
    parts = []
    left = max(owed, 0)
    for cents in available:
        part = min(cents, left)
        parts.append(part)
        left -= part
    return parts


@dataclass(frozen=True)
class Recovery:
    """A debt paid back from the creator's available balance."""
    parts: list[int]  # per release offered, what it gave
    transaction: ledger.Transaction | None  # `owed_recovered`, None when nothing was taken

    @property
    def cents(self) -> int:
        return sum(self.parts)


def recovery(creator_id: uuid.UUID, available: list[int], owed: int) -> Recovery:
    parts = recovered_parts(available, owed)
    taken = sum(parts)
    return Recovery(parts, ledger.owed_recovered(creator_id, taken) if taken > 0 else None)


@dataclass(frozen=True)
class Reversal:
    to_buyer: int  # what the brand gets back now
    taken_back: int  # released money taken back from the creator
    owed: int  # of it, already paid out: now owed by the creator
    owed_after: int  # what the creator owes in all once the refund is booked (before any recovery)
    refunded: ledger.Transaction | None  # `payment_refunded`; None when nothing is left to give back
    recovery: Recovery | None  # the new debt paid back at once from the creator's releases not paid out


def reversal(payment_id: uuid.UUID, buyer_id: uuid.UUID, creator_id: uuid.UUID, money: Split, *,
             already_refunded: int, net_cents: int, released_cents: int, creator_refunded_cents: int,
             unpaid_cents: int, owed_before: int, recoverable: list[int], payer: str | None = None) -> Reversal:
    """The buyer gets everything back but what an early end already refunded (`already_refunded`, of which
    `creator_refunded_cents` came from the creator's share). The creator's share comes back from where it is: not
    released yet (pending), released and not paid out (`unpaid_cents`, from the available balance), or paid out
    (owed by the creator, then recovered from `recoverable`: the creator's other releases not paid out, oldest
    first, in cents not yet taken for a debt)."""
    to_buyer = money.total_cents - already_refunded
    taken_back = released_cents
    owed = taken_back - unpaid_cents
    refunded = None
    if to_buyer > 0:  # nothing is left when an early end gave back all and no buyer fee was paid
        refunded = ledger.payment_refunded(
            payment_id, buyer_id, creator_id, to_buyer=to_buyer,
            from_fees=money.platform_cents - (already_refunded - creator_refunded_cents),
            from_pending=net_cents - released_cents - creator_refunded_cents, from_available=unpaid_cents,
            payer=payer)
    owed_after = owed_before + owed
    debt = recovery(creator_id, recoverable, owed_after) if owed > 0 else None
    return Reversal(to_buyer, taken_back, owed, owed_after, refunded, debt)
