"""Payments' tables (its own database)."""

import uuid
from datetime import datetime
from decimal import Decimal

from pinbid_kit.tables import KitTables
from sqlalchemy import (
    BigInteger,
    Boolean,
    CheckConstraint,
    DateTime,
    ForeignKey,
    Identity,
    Index,
    Integer,
    Numeric,
    String,
    Text,
    UniqueConstraint,
    func,
    text,
)
from sqlalchemy.dialects.postgresql import JSONB, UUID
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(KitTables, DeclarativeBase, revocations=True):
    """Payments' tables, the kit's outbox, inbox, mail queue and token revocations among them."""


token_revocations = Base.metadata.tables["token_revocations"]

Id = UUID(as_uuid=True)
When = DateTime(timezone=True)


class User(Base):
    """Names and emails from identity's events (for Checkout's customer email and the report)."""

    __tablename__ = "users"

    id: Mapped[uuid.UUID] = mapped_column(Id, primary_key=True)
    name: Mapped[str] = mapped_column(String(100))
    email: Mapped[str] = mapped_column(String(254))
    role: Mapped[str] = mapped_column(String(20))


class Payment(Base):
    """The request to pay for one approved bid, and what became of it."""

    __tablename__ = "payments"
    __table_args__ = (
        CheckConstraint("status IN ('REQUESTED', 'COMPLETED', 'EXPIRED', 'REFUNDED')", name="payment_status"),
        Index("payments_early_refund_due", "early_refund_next_at",
              postgresql_where=text("early_refund_next_at IS NOT NULL AND early_refunded_at IS NULL")),
        CheckConstraint("amount_cents = price_cents + buyer_fee_cents", name="payment_amount"),
        CheckConstraint("price_cents = fee_cents + creator_cents AND price_cents > 0", name="payment_split"),
        Index("payments_open_by_expiry", "expires_at", postgresql_where="status = 'REQUESTED'"),
        Index("payments_unpinned_by_deadline", "pin_deadline_at",
              postgresql_where="status = 'COMPLETED' AND pinned_at IS NULL"),
        Index("payments_buyer", "buyer_id"),
        Index("payments_creator", "creator_id"),
        Index("payments_full_refund_due", "full_refund_next_at",
              postgresql_where=text("full_refund_next_at IS NOT NULL")),
    )

    id: Mapped[uuid.UUID] = mapped_column(Id, primary_key=True, default=uuid.uuid4)
    bid_id: Mapped[uuid.UUID] = mapped_column(Id, unique=True)
    slot_id: Mapped[uuid.UUID] = mapped_column(Id)
    slot_title: Mapped[str] = mapped_column(String(300))
    buyer_id: Mapped[uuid.UUID] = mapped_column(Id)
    creator_id: Mapped[uuid.UUID] = mapped_column(Id)
    price_cents: Mapped[int] = mapped_column(BigInteger)
    fee_cents: Mapped[int] = mapped_column(BigInteger)
    creator_cents: Mapped[int] = mapped_column(BigInteger)
    buyer_fee_cents: Mapped[int] = mapped_column(BigInteger)
    amount_cents: Mapped[int] = mapped_column(BigInteger)
    currency: Mapped[str] = mapped_column(String(3))
    status: Mapped[str] = mapped_column(String(20), default="REQUESTED")
    expires_at: Mapped[datetime] = mapped_column(When)
    created_at: Mapped[datetime] = mapped_column(When, server_default=func.now())
    completed_at: Mapped[datetime | None] = mapped_column(When)
    provider_session_id: Mapped[str | None] = mapped_column(String(255))
    payment_intent: Mapped[str | None] = mapped_column(String(255), index=True)
    pin_deadline_at: Mapped[datetime | None] = mapped_column(When)
    pinned_at: Mapped[datetime | None] = mapped_column(When)
    refunded_at: Mapped[datetime | None] = mapped_column(When)
    refund_reason: Mapped[str | None] = mapped_column(String(100))
    last_failure: Mapped[str | None] = mapped_column(Text)
    # ended early (unpinned, hidden or deleted): the unearned share goes back to the buyer through the provider
    ended_early_at: Mapped[datetime | None] = mapped_column(When)
    early_end_reason: Mapped[str | None] = mapped_column(String(20))
    early_refund_cents: Mapped[int | None] = mapped_column(BigInteger)
    early_refund_attempts: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    early_refund_next_at: Mapped[datetime | None] = mapped_column(When)  # when the refund job tries (again)
    early_refunded_at: Mapped[datetime | None] = mapped_column(When)
    # pinned in the Instagram app with a screenshot: nothing is released until the brand accepts (or its silence
    # does); the days kept and the completion seen meanwhile are remembered and released on acceptance
    awaits_acceptance: Mapped[bool] = mapped_column(Boolean, default=False, server_default="false")
    accepted_at: Mapped[datetime | None] = mapped_column(When)
    days_kept: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    duration_days: Mapped[int | None] = mapped_column(Integer)
    placement_completed_at: Mapped[datetime | None] = mapped_column(When)
    # a full refund ordered (an operator, or a dispute's REFUND_ALL): releases stop at once, the refund job asks
    # the provider and books it
    full_refund_requested_at: Mapped[datetime | None] = mapped_column(When)
    full_refund_reason: Mapped[str | None] = mapped_column(String(100))
    full_refund_attempts: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    full_refund_next_at: Mapped[datetime | None] = mapped_column(When)
    # a campaign's win paid from its balance (no checkout): a refund of it goes back to that balance
    campaign_id: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("campaigns.id"))


class Campaign(Base):
    """A brand's campaign as marketplace announces it (the highest `version` kept), and its money here: what was
    paid in (`funded_cents`, net of what the provider took back), drawn for wins, returned at the end. The balance
    itself is the ledger's account `campaign:<id>:balance` (a liability to the brand). The row is the lock every
    movement of the campaign's money takes first."""

    __tablename__ = "campaigns"
    __table_args__ = (
        CheckConstraint("status IN ('DRAFT', 'ACTIVE', 'PAUSED', 'OUT_OF_BUDGET', 'ENDED')", name="campaign_status"),
        CheckConstraint("budget_cents >= 0 AND funded_cents >= 0 AND drawn_cents >= 0 AND returned_cents >= 0 "
                        "AND reversed_cents >= 0", name="campaign_amounts"),
        Index("campaigns_buyer", "buyer_id"),
        Index("campaigns_return_due", "return_next_at", postgresql_where=text("return_next_at IS NOT NULL")),
    )

    id: Mapped[uuid.UUID] = mapped_column(Id, primary_key=True)
    buyer_id: Mapped[uuid.UUID] = mapped_column(Id)
    name: Mapped[str] = mapped_column(String(200))
    status: Mapped[str] = mapped_column(String(20))
    budget_cents: Mapped[int] = mapped_column(BigInteger)
    currency: Mapped[str] = mapped_column(String(3))
    version: Mapped[int] = mapped_column(BigInteger)
    funded_cents: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")
    drawn_cents: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")
    returned_cents: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")
    reversed_cents: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")
    settled_at: Mapped[datetime | None] = mapped_column(When)  # ended: its rest is to go back to the brand
    # a return the provider refused in part: the campaigns' return job tries the rest again then
    return_attempts: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    return_next_at: Mapped[datetime | None] = mapped_column(When)
    updated_at: Mapped[datetime] = mapped_column(When, server_default=func.now())


class CampaignFunding(Base):
    """One payment into a campaign's balance through Checkout: OPEN while its session can be paid, COMPLETED once
    paid, EXPIRED if it never was. `returned_cents`: refunded by Pinbid when the campaign's rest went back;
    `reversed_cents`: taken back at the provider by someone else (a refund made there, or a dispute:
    `disputed_cents`)."""

    __tablename__ = "campaign_fundings"
    __table_args__ = (
        CheckConstraint("status IN ('OPEN', 'COMPLETED', 'EXPIRED')", name="funding_status"),
        CheckConstraint("amount_cents > 0 AND returned_cents >= 0 AND reversed_cents >= 0 "
                        "AND returned_cents + reversed_cents <= amount_cents", name="funding_amounts"),
        Index("campaign_fundings_campaign", "campaign_id", "created_at"),
    )

    id: Mapped[uuid.UUID] = mapped_column(Id, primary_key=True, default=uuid.uuid4)
    campaign_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("campaigns.id"))
    buyer_id: Mapped[uuid.UUID] = mapped_column(Id)
    amount_cents: Mapped[int] = mapped_column(BigInteger)
    currency: Mapped[str] = mapped_column(String(3))
    status: Mapped[str] = mapped_column(String(20), default="OPEN")
    expires_at: Mapped[datetime] = mapped_column(When)
    provider_session_id: Mapped[str | None] = mapped_column(String(255))
    url: Mapped[str | None] = mapped_column(Text)
    payment_intent: Mapped[str | None] = mapped_column(String(255), index=True)
    returned_cents: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")
    reversed_cents: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")
    disputed_cents: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")  # of reversed_cents
    created_at: Mapped[datetime] = mapped_column(When, server_default=func.now())
    completed_at: Mapped[datetime | None] = mapped_column(When)


class CheckoutSession(Base):
    """A checkout session opened at the provider for a payment (a new one once the previous expired)."""

    __tablename__ = "checkout_sessions"
    __table_args__ = (UniqueConstraint("payment_id", "attempt"),)

    id: Mapped[str] = mapped_column(String(255), primary_key=True)
    payment_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("payments.id"))
    attempt: Mapped[int] = mapped_column(Integer)
    url: Mapped[str] = mapped_column(Text)
    expires_at: Mapped[datetime] = mapped_column(When)
    created_at: Mapped[datetime] = mapped_column(When, server_default=func.now())


class WebhookEvent(Base):
    """Provider events already applied (recorded in the transaction that applied them)."""

    __tablename__ = "webhook_events"

    id: Mapped[str] = mapped_column(String(255), primary_key=True)
    type: Mapped[str] = mapped_column(String(100))
    outcome: Mapped[str] = mapped_column(String(200))
    received_at: Mapped[datetime] = mapped_column(When, server_default=func.now())


class Earning(Base):
    """A creator's share of one paid bid: PENDING until pinned, RELEASING in stages while the comment stays
    pinned (`released_cents`), AVAILABLE once all of it is released; ENDED_EARLY when the placement ended before
    its duration (the released part kept, `refunded_cents` back to the brand), REFUNDED when all went back. The
    money is paid out by releases (EarningRelease)."""

    __tablename__ = "earnings"
    __table_args__ = (
        CheckConstraint("status IN ('PENDING', 'RELEASING', 'AVAILABLE', 'ENDED_EARLY', 'REFUNDED')",
                        name="earning_status"),
        CheckConstraint("released_cents >= 0 AND refunded_cents >= 0 AND released_cents + refunded_cents "
                        "<= net_cents", name="earning_shares"),
        Index("earnings_creator", "creator_id", "earned_at"),
    )

    payment_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("payments.id"), primary_key=True)
    bid_id: Mapped[uuid.UUID] = mapped_column(Id)
    creator_id: Mapped[uuid.UUID] = mapped_column(Id)
    buyer_id: Mapped[uuid.UUID] = mapped_column(Id)
    slot_title: Mapped[str] = mapped_column(String(300))
    gross_cents: Mapped[int] = mapped_column(BigInteger)
    fee_cents: Mapped[int] = mapped_column(BigInteger)
    net_cents: Mapped[int] = mapped_column(BigInteger)
    currency: Mapped[str] = mapped_column(String(3))
    status: Mapped[str] = mapped_column(String(20))
    earned_at: Mapped[datetime] = mapped_column(When)
    available_at: Mapped[datetime | None] = mapped_column(When)
    payout_id: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("payouts.id"))  # the last payout that paid some
    released_cents: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")
    refunded_cents: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")

    @classmethod
    def pending_of(cls, payment: "Payment", now: datetime) -> "Earning":
        """The creator's share of a paid payment (a checkout's or a campaign's draw), pending until released."""
        return cls(payment_id=payment.id, bid_id=payment.bid_id, creator_id=payment.creator_id,
                   buyer_id=payment.buyer_id, slot_title=payment.slot_title, gross_cents=payment.price_cents,
                   fee_cents=payment.fee_cents, net_cents=payment.creator_cents, currency=payment.currency,
                   status="PENDING", earned_at=now)


class EarningRelease(Base):
    """One stage of an earning made available to the creator (stage 0 at pin, n after day n, the duration at
    completion); a payout pays the releases it claims."""

    __tablename__ = "earning_releases"
    __table_args__ = (
        CheckConstraint("cents > 0", name="release_moves_money"),
        CheckConstraint("recovered_cents >= 0 AND recovered_cents <= cents", name="release_recovered_share"),
        Index("earning_releases_unpaid", "creator_id", "released_at", postgresql_where=text("payout_id IS NULL")),
        Index("earning_releases_payout", "payout_id"),
    )

    payment_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("payments.id"), primary_key=True)
    stage: Mapped[int] = mapped_column(Integer, primary_key=True)
    creator_id: Mapped[uuid.UUID] = mapped_column(Id)
    cents: Mapped[int] = mapped_column(BigInteger)
    fee_cents: Mapped[int] = mapped_column(BigInteger)  # the platform's fee on this share (the payout shows it)
    released_at: Mapped[datetime] = mapped_column(When)
    payout_id: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("payouts.id"))
    # the part of this release that paid back money the creator owed (never paid out)
    recovered_cents: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")


class PaymentDispute(Base):
    """A dispute of a placement as payments knows it (from social's events): OPEN holds every release of the
    payment; DECIDED carries the operator's outcome and, once its money moved, when it was settled. Keyed by the
    dispute's id, so a redelivered or late `disputed` after its decision changes nothing."""

    __tablename__ = "payment_disputes"
    __table_args__ = (
        CheckConstraint("status IN ('OPEN', 'DECIDED')", name="dispute_status"),
        CheckConstraint("outcome IS NULL OR outcome IN ('CONTINUE', 'REFUND_UNEARNED', 'REFUND_ALL')",
                        name="dispute_outcome"),
        Index("payment_disputes_payment", "payment_id"),
    )

    dispute_id: Mapped[uuid.UUID] = mapped_column(Id, primary_key=True)
    payment_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("payments.id"))
    status: Mapped[str] = mapped_column(String(10))
    outcome: Mapped[str | None] = mapped_column(String(20))
    reported_at: Mapped[datetime | None] = mapped_column(When)
    decided_at: Mapped[datetime | None] = mapped_column(When)
    settled_at: Mapped[datetime | None] = mapped_column(When)


class CreatorRecovery(Base):
    """Money a creator owes after a refund of released money already paid out (OWED), and each time some of it
    is taken back from their available balance (RECOVERED). `owed_after_cents`: what is still owed after it."""

    __tablename__ = "creator_recoveries"
    __table_args__ = (
        CheckConstraint("kind IN ('OWED', 'RECOVERED')", name="recovery_kind"),
        CheckConstraint("cents > 0 AND owed_after_cents >= 0", name="recovery_amounts"),
        Index("creator_recoveries_creator", "creator_id", "recorded_at"),
    )

    id: Mapped[uuid.UUID] = mapped_column(Id, primary_key=True, default=uuid.uuid4)
    creator_id: Mapped[uuid.UUID] = mapped_column(Id)
    kind: Mapped[str] = mapped_column(String(10))
    cents: Mapped[int] = mapped_column(BigInteger)
    owed_after_cents: Mapped[int] = mapped_column(BigInteger)
    currency: Mapped[str] = mapped_column(String(3))
    refunded_payment_id: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("payments.id"))  # OWED: which refund
    transaction_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("ledger_transactions.id"))
    recorded_at: Mapped[datetime] = mapped_column(When)


class PayoutSettingsRow(Base):
    __tablename__ = "payout_settings"

    creator_id: Mapped[uuid.UUID] = mapped_column(Id, primary_key=True)
    payout_method: Mapped[str] = mapped_column(String(20))
    minimum_payout: Mapped[Decimal] = mapped_column(Numeric(12, 2))
    schedule: Mapped[str] = mapped_column(String(20))
    currency: Mapped[str] = mapped_column(String(3))
    account_name: Mapped[str | None] = mapped_column(String(200))
    # sealed with pinbid_kit.secrets (Fernet); read back masked
    paypal_email_sealed: Mapped[str | None] = mapped_column(Text)
    bank_account_sealed: Mapped[str | None] = mapped_column(Text)
    routing_number_sealed: Mapped[str | None] = mapped_column(Text)
    sort_code_sealed: Mapped[str | None] = mapped_column(Text)
    tax_form_submitted: Mapped[bool] = mapped_column(Boolean, default=False)
    stripe_account_id: Mapped[str | None] = mapped_column(String(255))
    updated_at: Mapped[datetime] = mapped_column(When, server_default=func.now(), onupdate=func.now())


class Payout(Base):
    __tablename__ = "payouts"
    __table_args__ = (
        UniqueConstraint("creator_id", "period"),
        CheckConstraint("status IN ('CREATED', 'PAID', 'FAILED')", name="payout_status"),
        CheckConstraint("gross_cents = fee_cents + net_cents AND net_cents > 0", name="payout_amounts"),
        Index("payouts_unsent", "created_at", postgresql_where="status = 'CREATED'"),
    )

    id: Mapped[uuid.UUID] = mapped_column(Id, primary_key=True, default=uuid.uuid4)
    creator_id: Mapped[uuid.UUID] = mapped_column(Id)
    period: Mapped[str] = mapped_column(String(20))
    method: Mapped[str] = mapped_column(String(20))
    gross_cents: Mapped[int] = mapped_column(BigInteger)
    fee_cents: Mapped[int] = mapped_column(BigInteger)
    net_cents: Mapped[int] = mapped_column(BigInteger)
    currency: Mapped[str] = mapped_column(String(3))
    status: Mapped[str] = mapped_column(String(20), default="CREATED")
    idempotency_key: Mapped[str] = mapped_column(String(100), unique=True)
    provider_reference: Mapped[str | None] = mapped_column(String(255))
    failure_reason: Mapped[str | None] = mapped_column(Text)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(When, server_default=func.now())
    settled_at: Mapped[datetime | None] = mapped_column(When)


class PayoutRun(Base):
    """One row per creator and period: the payout worker's once-only claim, whatever it decided."""

    __tablename__ = "payout_runs"

    creator_id: Mapped[uuid.UUID] = mapped_column(Id, primary_key=True)
    period: Mapped[str] = mapped_column(String(20), primary_key=True)
    outcome: Mapped[str] = mapped_column(String(30))
    available_cents: Mapped[int] = mapped_column(BigInteger)
    payout_id: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("payouts.id"))
    created_at: Mapped[datetime] = mapped_column(When, server_default=func.now())


class LedgerAccount(Base):
    __tablename__ = "ledger_accounts"
    __table_args__ = (
        CheckConstraint("balance_cents >= 0", name="no_negative_balance"),
        CheckConstraint("normal_side IN ('DEBIT', 'CREDIT')", name="normal_side"),
    )

    account: Mapped[str] = mapped_column(String(120), primary_key=True)
    normal_side: Mapped[str] = mapped_column(String(6))
    balance_cents: Mapped[int] = mapped_column(BigInteger, default=0)  # on the normal side; kept by a trigger


class LedgerTransaction(Base):
    __tablename__ = "ledger_transactions"

    id: Mapped[uuid.UUID] = mapped_column(Id, primary_key=True, default=uuid.uuid4)
    kind: Mapped[str] = mapped_column(String(40))
    payment_id: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("payments.id"), index=True)
    payout_id: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("payouts.id"), index=True)
    created_at: Mapped[datetime] = mapped_column(When, server_default=func.now())


class LedgerEntry(Base):
    __tablename__ = "ledger_entries"
    __table_args__ = (CheckConstraint("amount_cents <> 0", name="entry_moves_money"),)

    id: Mapped[int] = mapped_column(BigInteger, Identity(), primary_key=True)
    transaction_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("ledger_transactions.id"), index=True)
    account: Mapped[str] = mapped_column(ForeignKey("ledger_accounts.account"), index=True)
    amount_cents: Mapped[int] = mapped_column(BigInteger)  # positive debits, negative credits


class SandboxCheckout(Base):
    """The sandbox provider's own record of a checkout session (what Stripe would hold)."""

    __tablename__ = "sandbox_checkouts"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    idempotency_key: Mapped[str] = mapped_column(String(100), unique=True)
    title: Mapped[str] = mapped_column(String(300))
    amount_cents: Mapped[int] = mapped_column(BigInteger)
    currency: Mapped[str] = mapped_column(String(3))
    metadata_: Mapped[dict] = mapped_column("metadata", JSONB)
    customer_email: Mapped[str | None] = mapped_column(String(254))
    success_url: Mapped[str] = mapped_column(Text)
    cancel_url: Mapped[str] = mapped_column(Text)
    status: Mapped[str] = mapped_column(String(20), default="open")  # open, complete, expired
    payment_intent: Mapped[str | None] = mapped_column(String(64))
    refunded: Mapped[bool] = mapped_column(Boolean, default=False)  # in full
    amount_refunded_cents: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")
    expires_at: Mapped[datetime] = mapped_column(When)
    created_at: Mapped[datetime] = mapped_column(When, server_default=func.now())


class SandboxRefund(Base):
    """A refund the sandbox took, by the id its idempotency key gives (asked again, the same refund)."""

    __tablename__ = "sandbox_refunds"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    payment_intent: Mapped[str] = mapped_column(String(64))
    amount_cents: Mapped[int] = mapped_column(BigInteger)
    created_at: Mapped[datetime] = mapped_column(When, server_default=func.now())


class SandboxWebhook(Base):
    """An event the sandbox still has to deliver (it retries like Stripe until the endpoint says 2xx)."""

    __tablename__ = "sandbox_webhooks"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    payload: Mapped[str] = mapped_column(Text)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    delivered_at: Mapped[datetime | None] = mapped_column(When)
    next_attempt_at: Mapped[datetime] = mapped_column(When, server_default=func.now())
