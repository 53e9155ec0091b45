"""Identity's tables (its own database)."""

import uuid
from datetime import datetime
from decimal import Decimal

from pinbid_kit.tables import KitTables
from sqlalchemy import (
    BigInteger,
    Boolean,
    DateTime,
    ForeignKey,
    Identity,
    Index,
    Integer,
    LargeBinary,
    Numeric,
    String,
    Text,
    UniqueConstraint,
    func,
    text,
)
from sqlalchemy.dialects.postgresql import UUID
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(KitTables, DeclarativeBase):
    """Identity's tables, the kit's outbox, inbox and mail queue among them."""


class User(Base):
    __tablename__ = "users"

    id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True), primary_key=True, default=uuid.uuid4)
    email: Mapped[str] = mapped_column(String(254), unique=True)
    name: Mapped[str] = mapped_column(String(100))
    role: Mapped[str] = mapped_column(String(20))
    password_hash: Mapped[str] = mapped_column(Text)
    business_name: Mapped[str | None] = mapped_column(String(120))
    instagram_handle: Mapped[str | None] = mapped_column(String(30))
    instagram_id: Mapped[str | None] = mapped_column(String(64))
    instagram_connected: Mapped[bool] = mapped_column(Boolean, default=False, server_default="false")
    followers: Mapped[int | None] = mapped_column(Integer)
    avg_views: Mapped[int | None] = mapped_column(Integer)
    avg_engagement: Mapped[Decimal | None] = mapped_column(Numeric(6, 2))
    verified: Mapped[bool] = mapped_column(Boolean, default=False, server_default="false")
    token_version: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    tokens_revoked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    is_demo: Mapped[bool] = mapped_column(Boolean, default=False, server_default="false")
    # ACTIVE or SUSPENDED (by an operator, with the reason the user is told)
    status: Mapped[str] = mapped_column(String(20), default="ACTIVE", server_default="ACTIVE")
    suspended_reason: Mapped[str | None] = mapped_column(Text)
    suspended_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # The TOTP secret, sealed with the encryption keys (set: two-step sign-in is on; every operator has one), and
    # the last time step whose code was accepted (a code is accepted once). `totp_pending_sealed`: a secret being
    # enrolled, until a code of it is confirmed.
    totp_secret_sealed: Mapped[str | None] = mapped_column(Text)
    totp_last_step: Mapped[int | None] = mapped_column(BigInteger)
    totp_pending_sealed: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now(),
                                                 onupdate=func.now())


class NotificationPreferences(Base):
    __tablename__ = "notification_preferences"

    user_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    new_bids: Mapped[bool] = mapped_column(Boolean, default=True)
    approvals: Mapped[bool] = mapped_column(Boolean, default=True)
    payouts: Mapped[bool] = mapped_column(Boolean, default=True)
    marketing: Mapped[bool] = mapped_column(Boolean, default=False)


class Notification(Base):
    __tablename__ = "notifications"
    __table_args__ = (Index("notifications_user_recent", "user_id", "created_at"),
                      Index("notifications_user_unread", "user_id", postgresql_where=text("read_at IS NULL")))

    id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True), primary_key=True, default=uuid.uuid4)
    user_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(String(40))
    title: Mapped[str] = mapped_column(String(200))
    message: Mapped[str] = mapped_column(Text)
    link: Mapped[str | None] = mapped_column(String(200))
    source_event_id: Mapped[uuid.UUID | None] = mapped_column(UUID(as_uuid=True))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    read_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class CampaignSeen(Base):
    """The last version of each brand's campaign identity heard of (marketplace.campaign.updated.v1): its name for
    the notices of its wins, and its status, so only a change (out of budget, ended) is told, once, whatever the
    redeliveries or their order."""

    __tablename__ = "campaigns_seen"

    campaign_id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True), primary_key=True)
    buyer_id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True))
    name: Mapped[str] = mapped_column(String(80))
    status: Mapped[str] = mapped_column(String(20))
    version: Mapped[int] = mapped_column(BigInteger)


class NoticeMail(Base):
    """A notice going by mail. One unsent row per (user, kind, topic): a notice arriving while it waits
    replaces its content, so a burst of outbids becomes one mail (domain.notices.mail_send_after)."""

    __tablename__ = "notice_mails"
    __table_args__ = (
        Index("notice_mails_pending", "user_id", "kind", "topic", unique=True,
              postgresql_where=text("sent_at IS NULL")),
        Index("notice_mails_due", "next_attempt_at", postgresql_where=text("sent_at IS NULL")),
        Index("notice_mails_history", "user_id", "kind", "topic", "send_after"),
    )

    id: Mapped[int] = mapped_column(BigInteger, Identity(), primary_key=True)
    user_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(String(40))
    topic: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True))
    to_address: Mapped[str] = mapped_column(String(320))
    subject: Mapped[str] = mapped_column(String(300))
    text_body: Mapped[str] = mapped_column(Text)
    html_body: Mapped[str] = mapped_column(Text)
    notices: Mapped[int] = mapped_column(Integer, default=1, server_default="1")  # how many it stands for
    send_after: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    sent_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    attempts: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    next_attempt_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))  # send_after, then retries
    last_error: Mapped[str | None] = mapped_column(Text)


class Reminder(Base):
    """A notice due before a window closes (pay window, pin deadline). Stored when the window opens, fired
    once by the reminders job, cancelled when the window closes first. A row may be cancelled before it is
    scheduled (events out of order): then it has no user and never fires."""

    __tablename__ = "reminders"
    __table_args__ = (UniqueConstraint("kind", "subject_id", name="reminders_kind_subject"),
                      Index("reminders_due", "due_at", postgresql_where=text("fired_at IS NULL AND "
                                                                             "cancelled_at IS NULL")))

    id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True), primary_key=True, default=uuid.uuid4)
    kind: Mapped[str] = mapped_column(String(40))
    subject_id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True))  # the payment or bid
    user_id: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    due_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    closes_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    amount_cents: Mapped[int | None] = mapped_column(BigInteger)
    currency: Mapped[str | None] = mapped_column(String(3))
    fired_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    cancelled_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class PasswordReset(Base):
    __tablename__ = "password_resets"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    used_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())


class LoginThrottle(Base):
    """Fixed-window counters of failed logins, per (email digest, client address), per client address and
    per email digest (see domain/throttle.py)."""

    __tablename__ = "login_throttle"

    key: Mapped[str] = mapped_column(String(300), primary_key=True)
    window_start: Mapped[datetime] = mapped_column(DateTime(timezone=True), primary_key=True)
    count: Mapped[int] = mapped_column(Integer, default=0)


class AuditEntry(Base):
    """One operator action (from any service's `*.operator.acted.v1`). Append-only: a trigger refuses UPDATE and
    DELETE (migration 0003). `id` is the action's id, so a redelivered action is one row."""

    __tablename__ = "audit_entries"
    __table_args__ = (Index("audit_entries_recent", "acted_at"),
                      Index("audit_entries_object", "object_type", "object_id", "acted_at"))

    id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True), primary_key=True)
    source: Mapped[str] = mapped_column(String(40))  # the service that acted
    operator_id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True))
    operator_email: Mapped[str | None] = mapped_column(String(254))  # as it was when the action was recorded
    action: Mapped[str] = mapped_column(String(60))
    object_type: Mapped[str] = mapped_column(String(40))
    object_id: Mapped[str] = mapped_column(String(100))
    reason: Mapped[str] = mapped_column(Text)
    acted_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    recorded_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())


class RecoveryCode(Base):
    """A single-use code that stands in for a TOTP code (a lost phone). Only its SHA-256 is kept: the codes are
    random (50 bits), so a plain digest is enough and lets one indexed lookup find it."""

    __tablename__ = "recovery_codes"

    user_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    code_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    used_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class Passkey(Base):
    """A WebAuthn credential (a passkey) of a user: its public key (COSE) and the authenticator's sign counter."""

    __tablename__ = "passkeys"
    __table_args__ = (Index("passkeys_user", "user_id", "created_at"),)

    id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True), primary_key=True, default=uuid.uuid4)
    user_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    credential_id: Mapped[bytes] = mapped_column(LargeBinary, unique=True)
    public_key: Mapped[bytes] = mapped_column(LargeBinary)
    sign_count: Mapped[int] = mapped_column(BigInteger, default=0)
    name: Mapped[str] = mapped_column(String(60))
    transports: Mapped[str | None] = mapped_column(String(200))  # comma-separated, as the browser reported them
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    last_used_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class WebAuthnChallenge(Base):
    """A challenge handed to a browser for one ceremony: single use (deleted when answered), short-lived, and kept
    in the database so any replica can check the answer. `user_id`: whose ceremony it is (none for a sign-in
    without an email)."""

    __tablename__ = "webauthn_challenges"
    __table_args__ = (Index("webauthn_challenges_expiry", "expires_at"),)

    challenge: Mapped[bytes] = mapped_column(LargeBinary, primary_key=True)
    purpose: Mapped[str] = mapped_column(String(20))  # REGISTER, LOGIN or STEP_UP
    user_id: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
