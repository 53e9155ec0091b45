import uuid
from datetime import datetime
from typing import Literal

from .catalog import EventData, event
from .trust import AccountSignal, DisputeOutcome, OperatorAction


class BidPayment(EventData):
    """The payment of a buyer's bid to a creator: what the events about one payment carry first."""

    payment_id: uuid.UUID
    bid_id: uuid.UUID
    buyer_id: uuid.UUID
    creator_id: uuid.UUID


class PaidBid(BidPayment):
    """A payment with its amount: the money that came in or went back."""

    amount_cents: int
    currency: str = "USD"


@event("payments.payment.requested.v1")
class PaymentRequested(PaidBid):
    """The buyer of an approved bid is asked to pay `amountCents` before `expiresAt`."""

    expires_at: datetime


@event("payments.payment.completed.v1")
class PaymentCompleted(PaidBid):
    """The buyer paid for a bid. The creator must pin its comment by `pinDeadlineAt`, or the buyer is refunded."""

    pin_deadline_at: datetime | None = None


class PayoutFigures(EventData):
    """A creator's payout for a period, gross to net: what the payout events about it carry first."""

    payout_id: uuid.UUID
    creator_id: uuid.UUID
    period: str
    gross_cents: int
    fee_cents: int
    net_cents: int
    currency: str = "USD"


@event("payments.payout.paid.v1")
class PayoutPaid(PayoutFigures):
    """A payout reached the creator. For finance: amounts in minor units, one idempotency key per payout."""

    idempotency_key: str


@event("payments.payment.expired.v1")
class PaymentExpired(BidPayment):
    """The pay window of an approved bid ran out unpaid."""


@event("payments.payment.refunded.v1")
class PaymentRefunded(PaidBid):
    """A paid bid was refunded in full (for example: not pinned within the pin deadline): the brand now has back
    everything it paid. `amountCents` is what the brand paid; `refundCents` is what this refund gave back, which
    is less when a partial refund (`payments.payment.partially_refunded.v1`) gave back part of it before: add
    `refundCents`, never `amountCents`. `recoveredCents`: released money taken back from the creator, of which
    `owedCents` was already paid out and is now owed by the creator. Minor units. (The three were added after the
    first release of v1: absent only on events recorded before it.)"""

    reason: str
    refund_cents: int | None = None
    recovered_cents: int | None = None
    owed_cents: int | None = None


@event("payments.payment.paid_after_expiry.v1")
class PaymentPaidAfterExpiry(PaidBid):
    """The buyer's money arrived after the pay window had closed (the bid is EXPIRED): it was taken and is given
    back at once (`payments.payment.refunded.v1` with reason `paid_after_expiry` follows in the same transaction).
    No `payments.payment.completed.v1` precedes it; for finance this is the money coming in. Minor units."""

    paid_at: datetime


@event("payments.earning.released.v1")
class EarningReleased(BidPayment):
    """Part of a creator's share of a paid bid was released: it moved from pending to the creator's available
    balance (ledger `earnings_released`) and will be paid out. One per release; `idempotencyKey`
    (`release-<paymentId>-<stage>`) names it everywhere. `kind` says what released it: PIN (the quarter when the
    comment was pinned, or everything due when a pin arrives after its later stages), ACCEPTED (the brand accepted
    a pin made on the creator's word: what was held since the pin), DAY (a whole day kept), COMPLETED (the
    remainder when the placement completed), DISPUTE_CONTINUE (an operator decided a dispute for the creator: what
    accrued while held). `stage`: 0 at pin, n after n whole days, 100000 at completion. `amountCents` of the
    creator's `netCents`; `feeCents` is the platform's fee on this part (already kept by the platform at payment);
    `releasedCents` is the total released of this bid after this one. Minor units."""

    kind: Literal["PIN", "ACCEPTED", "DAY", "COMPLETED", "DISPUTE_CONTINUE"]
    stage: int
    amount_cents: int
    fee_cents: int
    released_cents: int
    net_cents: int
    currency: str = "USD"
    ledger_transaction_id: uuid.UUID
    released_at: datetime
    idempotency_key: str


@event("payments.payout.created.v1")
class PayoutCreated(PayoutFigures):
    """A payout was created for a creator and period. For finance: minor units, one idempotency key."""

    method: str
    idempotency_key: str


@event("payments.payout.failed.v1")
class PayoutFailed(EventData):
    """A payout could not be delivered; the money stays in the creator's available balance."""

    payout_id: uuid.UUID
    creator_id: uuid.UUID
    period: str
    net_cents: int
    currency: str = "USD"
    reason: str
    idempotency_key: str


@event("payments.payout_account.changed.v1")
class PayoutAccountChanged(EventData):
    """A creator's payouts now go somewhere new (a bank account, a PayPal address, a Stripe account), so that the
    creator is told, whatever their notice preferences, with how to undo it. `account` is masked
    (`bank account ••••9012`), never the full value."""

    creator_id: uuid.UUID
    method: Literal["BANK_TRANSFER", "PAYPAL", "STRIPE"]
    account: str
    changed_at: datetime


@event("payments.payment.failed.v1")
class PaymentFailed(BidPayment):
    """An attempt to pay for a bid failed (for example a declined card). The request stays open: the
    buyer may try again until it expires."""

    reason: str


@event("payments.payment.partially_refunded.v1")
class PaymentPartiallyRefunded(BidPayment):
    """Part of a paid bid went back to the buyer: the share of a placement not earned because the comment was
    unpinned, hidden or deleted early (`reason`). `refundCents` of `amountCents` were refunded."""

    amount_cents: int
    refund_cents: int
    currency: str = "USD"
    reason: str


@event("payments.operator.acted.v1")
class PaymentsOperatorAction(OperatorAction):
    """An operator acted in payments (refunded a payment, ...): for the audit log."""


@event("payments.account.signal_observed.v1")
class PaymentsAccountSignal(AccountSignal):
    """A user connected a payout account (PAYOUT_ACCOUNT; a PayPal address also as EMAIL, a bank account's holder as
    NAME) or paid with a card (CARD, the provider's card fingerprint; the billing email as EMAIL, the cardholder as
    NAME), for finding associated accounts."""


@event("payments.dispute.settled.v1")
class DisputeSettled(EventData):
    """The money of an operator's decision on a disputed placement moved (for finance). CONTINUE: the held
    releases went to the creator; REFUND_UNEARNED: the share not released went back to the brand with its fee;
    REFUND_ALL: the brand got everything back and what was released was taken back from the creator
    (`recoveredCents`, of which `owedCents` was already paid out and is now owed by the creator). Minor units."""

    dispute_id: uuid.UUID
    payment_id: uuid.UUID
    bid_id: uuid.UUID
    buyer_id: uuid.UUID
    creator_id: uuid.UUID
    outcome: DisputeOutcome
    refunded_cents: int  # back to the brand, through the provider
    released_cents: int  # released to the creator by this settlement (CONTINUE)
    recovered_cents: int  # taken back from the creator (REFUND_ALL)
    owed_cents: int  # of recoveredCents: already paid out, now owed by the creator
    currency: str = "USD"
    ledger_transaction_ids: list[uuid.UUID]
    settled_at: datetime


@event("payments.recovery.recorded.v1")
class RecoveryRecorded(EventData):
    """Money a creator owes (OWED: a refund took back released money already paid out) or some of it taken back
    from their available balance (RECOVERED: new releases pay it back first). `owedCents` is what is still owed
    after this step. Minor units."""

    recovery_id: uuid.UUID
    creator_id: uuid.UUID
    kind: Literal["OWED", "RECOVERED"]
    amount_cents: int
    owed_cents: int
    currency: str = "USD"
    refunded_payment_id: uuid.UUID | None = None  # OWED: the payment whose refund created the debt
    ledger_transaction_id: uuid.UUID
    recorded_at: datetime
