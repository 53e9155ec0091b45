"""Payments' HTTP request and response models: checkout, the provider webhook, creators' earnings, payouts and
payout settings, and the buyer's total spent (for the gateway's dashboard)."""

import uuid
from datetime import datetime
from typing import Annotated, Literal

from pinbid_kit.api import ApiModel, Money, MultilineText, PlainText
from pinbid_kit.events.trust import DisputeOutcome
from pinbid_kit.product_rules import REASON_MAX_LENGTH
from pydantic import Field

from .domain import disputes
from .domain.money import to_money
from .domain.payout_settings import PayoutSettings
from .models import Payment, Payout

Short = Annotated[PlainText, Field(max_length=300)]


class CheckoutIn(ApiModel):
    bid_id: uuid.UUID


class UrlOut(ApiModel):
    url: str


class WebhookOut(ApiModel):
    received: bool
    outcome: str


class EarningsOut(ApiModel):
    total_earnings: Money
    this_month_earnings: Money
    pending_payouts: Money
    pending_balance: Money  # not released yet: the stages to come while comments stay pinned
    available_balance: Money  # released and not paid out
    released_earnings: Money
    refunded_earnings: Money  # the creator's share that went back to brands (placements that ended early)
    owed: Money  # still to recover from this creator (a refund of money already paid out); 0 when none


class PayoutOut(ApiModel):
    id: uuid.UUID
    period: str
    amount: Money  # gross: what the buyers paid for the bids in this payout
    fees: Money  # the platform's 10%
    net_amount: Money  # what the creator receives
    currency: str
    method: str
    status: Literal["COMPLETED", "PENDING", "FAILED"]
    failure_reason: str | None
    created_at: datetime
    paid_at: datetime | None

    @classmethod
    def of(cls, p: Payout) -> "PayoutOut":
        status = {"PAID": "COMPLETED", "CREATED": "PENDING"}.get(p.status, "FAILED")
        return cls(id=p.id, period=p.period, amount=to_money(p.gross_cents), fees=to_money(p.fee_cents),
                   net_amount=to_money(p.net_cents), currency=p.currency, method=p.method, status=status,
                   failure_reason=p.failure_reason if p.status == "FAILED" else None, created_at=p.created_at,
                   paid_at=p.settled_at if p.status == "PAID" else None)


class PayoutSettingsIn(ApiModel):
    """Every field may be missing or empty: the rules of SPEC section 5 answer with their own messages."""

    payout_method: Short | None = None
    minimum_payout: Annotated[Money, Field(max_digits=12, decimal_places=2)] | None = None
    schedule: Short | None = None
    paypal_email: Short | None = None
    bank_account: Short | None = None
    currency: Short | None = None
    routing_number: Short | None = None
    sort_code: Short | None = None
    account_name: Short | None = None
    tax_form_submitted: bool = False

    def domain(self) -> PayoutSettings:
        return PayoutSettings(**{name: getattr(self, name) for name in PayoutSettings.__dataclass_fields__})


class PayoutSettingsOut(ApiModel):
    payout_method: str
    minimum_payout: Money
    schedule: str
    paypal_email: str | None
    bank_account: str | None
    currency: str
    routing_number: str | None
    sort_code: str | None
    account_name: str | None
    tax_form_submitted: bool
    saved: bool

    @classmethod
    def of(cls, s: PayoutSettings, saved: bool = True) -> "PayoutSettingsOut":
        return cls(saved=saved, **{name: getattr(s, name) for name in PayoutSettings.__dataclass_fields__})


class TotalSpentOut(ApiModel):
    total_spent: Money


class MonthlyEarningsOut(ApiModel):
    """One calendar month (UTC) of the Earnings chart."""

    month: str = Field(description="YYYY-MM")
    earnings: Money  # net earned on paid bids not refunded, by the day paid
    payouts: Money  # payouts paid that month

    @classmethod
    def of(cls, row: dict) -> "MonthlyEarningsOut":
        return cls(month=row["month"], earnings=to_money(row["earnings"]), payouts=to_money(row["payouts"]))


class MonthlySpendOut(ApiModel):
    """One calendar month (UTC) of the brand dashboard's spend chart."""

    month: str = Field(description="YYYY-MM")
    spent: Money  # paid for bids not refunded (buyer fee included), by the day paid


class OpsPaymentOut(ApiModel):
    """A payment as the operator's desk lists it. `status`: REQUESTED, COMPLETED, REFUNDING (a full refund ordered,
    the provider not done yet), REFUNDED or EXPIRED; `refunded`: what went back to the brand; `released`: what
    the creator has been released and keeps."""

    id: uuid.UUID
    bid_id: uuid.UUID
    buyer_id: uuid.UUID
    creator_id: uuid.UUID
    amount: Money
    currency: str
    status: str
    refunded: Money
    released: Money
    paid_at: datetime | None

    @classmethod
    def of(cls, p: Payment, released_cents: int) -> "OpsPaymentOut":
        if p.status == "REFUNDED":
            refunded = p.amount_cents
        elif p.early_refunded_at is not None:
            refunded = p.early_refund_cents or 0
        else:
            refunded = 0
        status = "REFUNDING" if p.status == "COMPLETED" and p.full_refund_requested_at is not None else p.status
        return cls(id=p.id, bid_id=p.bid_id, buyer_id=p.buyer_id, creator_id=p.creator_id,
                   amount=to_money(p.amount_cents), currency=p.currency, status=status, refunded=to_money(refunded),
                   released=to_money(released_cents), paid_at=p.completed_at)


class OutcomeMovesOut(ApiModel):
    """What one outcome of the bid's dispute would move if decided now. `toBrand`: what the brand gets back;
    `fromCreator`: of it, the creator's share (not released yet, or released and taken back); `paidOut`: of that,
    already paid out, so owed by the creator and recovered from their next earnings; `toCreator`: released to the
    creator at once (CONTINUE: what the dispute held)."""

    outcome: DisputeOutcome
    to_brand: Money
    from_creator: Money
    paid_out: Money
    to_creator: Money


class DisputeMoneyOut(ApiModel):
    """A disputed bid's payment for the operator's decision: what the brand paid, what the creator has been
    released and paid out so far, and what each outcome would move (payments' own rules, domain/disputes.py)."""

    bid_id: uuid.UUID
    payment_id: uuid.UUID
    currency: str
    status: str
    paid: Money
    released: Money
    paid_out: Money
    outcomes: list[OutcomeMovesOut]

    @classmethod
    def of(cls, p: Payment, standing: "disputes.Standing") -> "DisputeMoneyOut":
        status = "REFUNDING" if p.status == "COMPLETED" and p.full_refund_requested_at is not None else p.status
        return cls(bid_id=p.bid_id, payment_id=p.id, currency=p.currency, status=status,
                   paid=to_money(p.amount_cents), released=to_money(standing.released),
                   paid_out=to_money(standing.released - standing.unpaid),
                   outcomes=[OutcomeMovesOut(outcome=m.outcome, to_brand=to_money(m.to_brand),
                                             from_creator=to_money(m.from_creator), paid_out=to_money(m.paid_out),
                                             to_creator=to_money(m.to_creator))
                             for m in (disputes.moves(standing, o) for o in disputes.OUTCOMES)])


class RefundIn(ApiModel):
    reason: Annotated[MultilineText, Field(min_length=1, max_length=REASON_MAX_LENGTH)]
