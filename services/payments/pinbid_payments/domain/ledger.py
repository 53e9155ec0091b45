"""The double-entry ledger's rules. A posting is signed: positive debits an account, negative credits it.
Every transaction sums to zero. Each account has a normal side; its balance on that side never goes
below zero (the database enforces both as well)."""

import uuid
from dataclasses import dataclass
from enum import StrEnum

from .money import Split


class Side(StrEnum):
    DEBIT = "DEBIT"
    CREDIT = "CREDIT"


PLATFORM_FEES = "platform:fees"  # revenue: the 10% and any buyer fee, kept in 16 accounts (see platform_fees)
REFUND_LOSSES = "platform:refund_losses"  # expense: a creator share that could no longer be taken back


def platform_fees(payment_id: uuid.UUID) -> str:
    """The fee account of one payment: the platform's revenue is kept in 16 accounts, chosen by the last hex digit
    of the payment's id, so that payments completing at once do not queue on one balance row. A payment's refund
    takes its fee back from the same account. The revenue is their sum (`is_platform_fees`)."""
    return f"{PLATFORM_FEES}:{payment_id.hex[-1]}"


def is_platform_fees(account: str) -> bool:
    """One of the fee accounts (or the single one kept before they were split, migration 0003)."""
    return account == PLATFORM_FEES or account.startswith(PLATFORM_FEES + ":")


def buyer_charges(buyer_id: uuid.UUID) -> str:
    """Money received from a buyer (the provider holds it for us), net of refunds."""
    return f"buyer:{buyer_id}:charges"


def creator_pending(creator_id: uuid.UUID) -> str:
    """Owed to a creator once the comment is pinned."""
    return f"creator:{creator_id}:pending"


def creator_available(creator_id: uuid.UUID) -> str:
    """Owed to a creator and ready to be paid out."""
    return f"creator:{creator_id}:available"


def creator_payouts(creator_id: uuid.UUID) -> str:
    """Money sent out to a creator."""
    return f"creator:{creator_id}:payouts"


def creator_owed(creator_id: uuid.UUID) -> str:
    """Owed BY a creator (a receivable): released money taken back by a refund after it was paid out. The
    creator's next earnings pay it back first (`owed_recovered`); this is the negative balance Earnings shows."""
    return f"creator:{creator_id}:owed"


def campaign_balance(campaign_id: uuid.UUID) -> str:
    """A campaign's balance: what its brand paid in and has not spent nor had back; owed to the brand (a
    liability) until a win is drawn from it or it is returned."""
    return f"campaign:{campaign_id}:balance"


def normal_side(account: str) -> Side:
    if account.startswith("campaign:"):
        return Side.CREDIT
    if account.startswith("buyer:") or account == REFUND_LOSSES or (
            account.startswith("creator:") and account.endswith(":owed")):
        return Side.DEBIT
    if is_platform_fees(account) or account.startswith("creator:"):
        return Side.CREDIT
    raise ValueError(f"unknown account {account}")


def balance_change(account: str, amount_cents: int) -> int:
    """How a signed posting moves the account's balance on its normal side."""
    return amount_cents if normal_side(account) is Side.DEBIT else -amount_cents


class Unbalanced(ValueError):
    pass


@dataclass(frozen=True)
class Posting:
    account: str
    amount_cents: int


@dataclass(frozen=True)
class Transaction:
    kind: str
    postings: tuple[Posting, ...]

    def __post_init__(self) -> None:
        if len(self.postings) < 2:
            raise Unbalanced("a transaction has at least two postings")
        if any(p.amount_cents == 0 for p in self.postings):
            raise Unbalanced("a posting moves money")
        if sum(p.amount_cents for p in self.postings) != 0:
            raise Unbalanced(f"{self.kind} does not balance: {self.postings}")
        for p in self.postings:
            normal_side(p.account)


def _tx(kind: str, *postings: tuple[str, int]) -> Transaction:
    return Transaction(kind, tuple(Posting(a, c) for a, c in postings if c != 0))


def payment_received(payment_id: uuid.UUID, buyer_id: uuid.UUID, creator_id: uuid.UUID, money: Split) -> Transaction:
    return _tx("payment_received",
               (buyer_charges(buyer_id), money.total_cents),
               (platform_fees(payment_id), -money.platform_cents),
               (creator_pending(creator_id), -money.creator_cents))


def earnings_released(creator_id: uuid.UUID, cents: int) -> Transaction:
    return _tx("earnings_released", (creator_pending(creator_id), cents), (creator_available(creator_id), -cents))


def payment_refunded(payment_id: uuid.UUID, buyer_id: uuid.UUID, creator_id: uuid.UUID, *, to_buyer: int,
                     from_fees: int, from_pending: int, from_available: int, payer: str | None = None) -> Transaction:
    """`to_buyer` goes back to the buyer: the platform's part from its fee account, the creator's from where it
    is (not yet released, or released and not paid out); what was already paid out is owed by the creator
    (`creator_owed`), recovered from their next earnings. `payer`: where the money came from and goes back to
    (the buyer's charges; a campaign's balance for a win drawn from it)."""
    owed = to_buyer - from_fees - from_pending - from_available
    if min(to_buyer, from_fees, from_pending, from_available, owed) < 0:
        raise Unbalanced("cannot take back more than was paid")
    return _tx("payment_refunded",
               (payer or buyer_charges(buyer_id), -to_buyer),
               (platform_fees(payment_id), from_fees),
               (creator_pending(creator_id), from_pending),
               (creator_available(creator_id), from_available),
               (creator_owed(creator_id), owed))


def owed_recovered(creator_id: uuid.UUID, cents: int) -> Transaction:
    """Money the creator owes is taken from their available balance (new releases, or a failed payout's return)."""
    return _tx("owed_recovered", (creator_available(creator_id), cents), (creator_owed(creator_id), -cents))


def placement_ended_early(payment_id: uuid.UUID, buyer_id: uuid.UUID, creator_id: uuid.UUID, *, creator_cents: int,
                          fee_cents: int, payer: str | None = None) -> Transaction:
    """The share of a placement not earned goes back to the buyer (to `payer`, as in `payment_refunded`): the
    creator's part not yet released (from pending) and the platform's fee on it."""
    return _tx("placement_ended_early",
               (payer or buyer_charges(buyer_id), -(creator_cents + fee_cents)),
               (platform_fees(payment_id), fee_cents),
               (creator_pending(creator_id), creator_cents))


def payout_sent(creator_id: uuid.UUID, net_cents: int) -> Transaction:
    return _tx("payout_sent", (creator_available(creator_id), net_cents), (creator_payouts(creator_id), -net_cents))


def payout_reversed(creator_id: uuid.UUID, net_cents: int) -> Transaction:
    return _tx("payout_reversed", (creator_payouts(creator_id), net_cents),
               (creator_available(creator_id), -net_cents))


def loss_recovered(creator_id: uuid.UUID, cents: int) -> Transaction:
    """A failed payout brought back a share that had been booked as a refund loss."""
    return _tx("loss_recovered", (creator_available(creator_id), cents), (REFUND_LOSSES, -cents))


def campaign_funded(campaign_id: uuid.UUID, buyer_id: uuid.UUID, cents: int) -> Transaction:
    """The brand paid into its campaign through Checkout: money received, owed back to the brand until spent."""
    return _tx("campaign_funded", (buyer_charges(buyer_id), cents), (campaign_balance(campaign_id), -cents))


def campaign_drawn(payment_id: uuid.UUID, campaign_id: uuid.UUID, creator_id: uuid.UUID, money: Split) -> Transaction:
    """A campaign's approved win paid from its balance: `payment_received`, funded by the balance instead of a
    charge of its own."""
    return _tx("campaign_drawn",
               (campaign_balance(campaign_id), money.total_cents),
               (platform_fees(payment_id), -money.platform_cents),
               (creator_pending(creator_id), -money.creator_cents))


def campaign_returned(campaign_id: uuid.UUID, buyer_id: uuid.UUID, cents: int) -> Transaction:
    """What was left of an ended campaign's balance, refunded to the brand through the provider."""
    return _tx("campaign_returned", (campaign_balance(campaign_id), cents), (buyer_charges(buyer_id), -cents))


def campaign_funding_reversed(campaign_id: uuid.UUID, buyer_id: uuid.UUID, cents: int, *,
                              from_balance: int) -> Transaction:
    """The provider took `cents` of a funding payment back (a refund made there, or a dispute): from the balance
    as far as it goes; what the campaign had already spent on wins is the platform's loss."""
    if not 0 <= from_balance <= cents:
        raise Unbalanced("the balance gives at most what was taken back")
    return _tx("campaign_funding_reversed", (buyer_charges(buyer_id), -cents),
               (campaign_balance(campaign_id), from_balance), (REFUND_LOSSES, cents - from_balance))
