"""Social's tables (its own database). Tables prefixed `sandbox_` belong to the sandbox Instagram."""

import uuid
from datetime import datetime
from decimal import Decimal

from pinbid_kit.tables import KitTables
from sqlalchemy import BigInteger, Boolean, DateTime, Index, Integer, Numeric, String, Text, func, text
from sqlalchemy.dialects.postgresql import UUID
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(KitTables, DeclarativeBase, revocations=True):
    """Social's tables, the kit's outbox, inbox, mail queue and token revocations among them."""


token_revocations = Base.metadata.tables["token_revocations"]

Stamp = DateTime(timezone=True)


class User(Base):
    """Read model of identity's users: names, roles and business names (a new comment names the brand)."""

    __tablename__ = "users"

    user_id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True), primary_key=True)
    email: Mapped[str] = mapped_column(String(254), index=True)
    name: Mapped[str] = mapped_column(String(100))
    role: Mapped[str] = mapped_column(String(20))
    business_name: Mapped[str | None] = mapped_column(String(120))
    instagram_handle: Mapped[str | None] = mapped_column(String(30))
    last_event_at: Mapped[datetime] = mapped_column(Stamp)


class Slot(Base):
    """Read model of marketplace's slots: `pinSlots` on posts, and the post of a pinSlotId."""

    __tablename__ = "slots"
    __table_args__ = (Index("slots_by_post", "post_id"),)

    slot_id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True), primary_key=True)
    creator_id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True), index=True)
    post_id: Mapped[str] = mapped_column(String(64))
    title: Mapped[str | None] = mapped_column(String(200))
    category: Mapped[str | None] = mapped_column(String(40))
    status: Mapped[str] = mapped_column(String(20))
    min_bid_cents: Mapped[int | None] = mapped_column(BigInteger)
    current_bid_cents: Mapped[int | None] = mapped_column(BigInteger)
    bid_count: Mapped[int] = mapped_column(Integer, default=0)
    # the brands still in the running, as marketplace announces it (None until its first SlotUpdated carrying it)
    bidder_count: Mapped[int | None] = mapped_column(Integer)
    auction_end: Mapped[datetime] = mapped_column(Stamp)
    duration_days: Mapped[int | None] = mapped_column(Integer)
    currency: Mapped[str] = mapped_column(String(3), default="USD")
    last_event_at: Mapped[datetime] = mapped_column(Stamp)


class Connection(Base):
    """A user's connected Instagram account. The token is sealed (encrypted) and never leaves."""

    __tablename__ = "connections"
    __table_args__ = (Index("connections_account", "provider", "instagram_id", unique=True),)

    user_id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True), primary_key=True)
    provider: Mapped[str] = mapped_column(String(20))
    instagram_id: Mapped[str] = mapped_column(String(64))
    username: Mapped[str] = mapped_column(String(64))
    account_type: Mapped[str] = mapped_column(String(30))
    access_token: Mapped[str] = mapped_column(Text)  # sealed
    token_expires_at: Mapped[datetime] = mapped_column(Stamp)
    followers: Mapped[int] = mapped_column(Integer, default=0)
    avg_views: Mapped[int] = mapped_column(Integer, default=0)
    avg_engagement: Mapped[Decimal] = mapped_column(Numeric(6, 2), default=Decimal("0.00"))
    verified: Mapped[bool] = mapped_column(Boolean, default=False)
    connected_at: Mapped[datetime] = mapped_column(Stamp, server_default=func.now())
    last_synced_at: Mapped[datetime | None] = mapped_column(Stamp)
    refresh_failures: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    # SESSION: Pinbid pins through the instagrapi login; MANUAL: the creator pins in the app, Pinbid checks
    pin_method: Mapped[str] = mapped_column(String(10), default="SESSION", server_default="SESSION")
    # new on every completed (re)connection: what the sandbox's owner cookie is bound to (domain/sandbox_owner.py)
    connection_id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True), default=uuid.uuid4,
                                                     server_default=text("gen_random_uuid()"))


class OAuthNonce(Base):
    """Nonces of OAuth states that were used: a state works once."""

    __tablename__ = "oauth_nonces"

    nonce: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True))
    expires_at: Mapped[datetime] = mapped_column(Stamp)
    used_at: Mapped[datetime] = mapped_column(Stamp, server_default=func.now())


class Post(Base):
    """The creator's recent media as last read from the provider."""

    __tablename__ = "posts"
    __table_args__ = (Index("posts_by_user", "user_id", "position"),)

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True))
    position: Mapped[int] = mapped_column(Integer)
    media_type: Mapped[str] = mapped_column(String(30))
    media_url: Mapped[str] = mapped_column(Text)
    permalink: Mapped[str] = mapped_column(Text)
    caption: Mapped[str] = mapped_column(Text, default="")
    views: Mapped[int] = mapped_column(BigInteger, default=0)
    like_count: Mapped[int] = mapped_column(BigInteger, default=0)
    comments_count: Mapped[int] = mapped_column(BigInteger, default=0)
    posted_at: Mapped[datetime | None] = mapped_column(Stamp)
    synced_at: Mapped[datetime] = mapped_column(Stamp, server_default=func.now())


class PinSession(Base):
    """The creator's instagrapi session settings, sealed. The password is never stored."""

    __tablename__ = "pin_sessions"

    user_id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True), primary_key=True)
    username: Mapped[str] = mapped_column(String(64))
    session: Mapped[str] = mapped_column(Text)  # sealed
    created_at: Mapped[datetime] = mapped_column(Stamp, server_default=func.now())


class BidComment(Base):
    """The latest comment chosen for a bid (from bid.awarded or bid.comment_changed, newest wins), and the latest
    text the creator approved for it (bid.comment_approved, newest wins): what is posted or pinned, exactly.
    Marketplace withdraws an approval when the brand changes the comment, so the creator approves the new one
    before it can be pinned."""

    __tablename__ = "bid_comments"

    bid_id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True), primary_key=True)
    comment_id: Mapped[str | None] = mapped_column(String(64))
    comment_text: Mapped[str | None] = mapped_column(Text)
    changed_at: Mapped[datetime | None] = mapped_column(Stamp)  # None until the choice itself arrives
    approved_comment_id: Mapped[str | None] = mapped_column(String(64))
    approved_text: Mapped[str | None] = mapped_column(Text)
    approved_at: Mapped[datetime | None] = mapped_column(Stamp)


class Placement(Base):
    """A won bid's comment on the creator's post, from approval to completion."""

    __tablename__ = "placements"
    __table_args__ = (
        Index("placements_due", "next_sync_at", postgresql_where="status = 'PINNED'"),
        Index("placements_by_creator", "creator_id"),
    )

    bid_id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True), primary_key=True)
    slot_id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True))
    creator_id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True))
    buyer_id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True))
    buyer_name: Mapped[str | None] = mapped_column(String(100))
    business_name: Mapped[str | None] = mapped_column(String(120))
    post_id: Mapped[str | None] = mapped_column(String(64))
    duration_days: Mapped[int | None] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(20))
    pin_claimed_at: Mapped[datetime | None] = mapped_column(Stamp)
    posted_comment_id: Mapped[str | None] = mapped_column(String(64))  # a new text we already posted
    posted_text: Mapped[str | None] = mapped_column(Text)
    pinned_comment_id: Mapped[str | None] = mapped_column(String(64))
    pinned_text: Mapped[str | None] = mapped_column(Text)
    pinned_at: Mapped[datetime | None] = mapped_column(Stamp)
    ends_at: Mapped[datetime | None] = mapped_column(Stamp)
    likes: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    replies: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    next_sync_at: Mapped[datetime | None] = mapped_column(Stamp)
    last_synced_at: Mapped[datetime | None] = mapped_column(Stamp)
    unpinned_at: Mapped[datetime | None] = mapped_column(Stamp)
    completed_at: Mapped[datetime | None] = mapped_column(Stamp)
    misses: Mapped[int] = mapped_column(Integer, default=0, server_default="0")  # bad readings in a row
    days_kept: Mapped[int] = mapped_column(Integer, default=0, server_default="0")  # PlacementKept sent up to here
    unpin_reason: Mapped[str | None] = mapped_column(String(20))  # UNPINNED, HIDDEN or DELETED
    clicks: Mapped[int] = mapped_column(Integer, default=0, server_default="0")  # as last announced
    created_at: Mapped[datetime] = mapped_column(Stamp, server_default=func.now())
    price_cents: Mapped[int | None] = mapped_column(BigInteger)  # the final price, as awarded
    pin_method: Mapped[str | None] = mapped_column(String(10))  # SESSION or MANUAL, fixed when paid
    # the brand's acceptance (MANUAL path): NOT_NEEDED, AWAITING (until accept_by) or ACCEPTED (BRAND or SILENCE)
    acceptance: Mapped[str] = mapped_column(String(12), default="NOT_NEEDED", server_default="NOT_NEEDED")
    accept_by: Mapped[datetime | None] = mapped_column(Stamp)
    accepted_at: Mapped[datetime | None] = mapped_column(Stamp)
    accepted_by: Mapped[str | None] = mapped_column(String(10))
    # the random fresh-screenshot request (MANUAL path): due at recheck_at, answered by recheck_answer_by
    recheck_at: Mapped[datetime | None] = mapped_column(Stamp)
    recheck_requested_at: Mapped[datetime | None] = mapped_column(Stamp)
    recheck_answer_by: Mapped[datetime | None] = mapped_column(Stamp)
    recheck_answered_at: Mapped[datetime | None] = mapped_column(Stamp)
    recheck_missed_at: Mapped[datetime | None] = mapped_column(Stamp)
    # ended early on a refund; on the SESSION path Pinbid still has to unpin while unpin_pending
    ended_at: Mapped[datetime | None] = mapped_column(Stamp)
    end_reason: Mapped[str | None] = mapped_column(String(200))
    unpin_pending: Mapped[bool] = mapped_column(Boolean, default=False, server_default="false")


class Evidence(Base):
    """A screenshot a creator uploaded for a placement (re-encoded, metadata stripped), kept in the object store
    under a random key."""

    __tablename__ = "evidence"
    __table_args__ = (Index("evidence_by_bid", "bid_id", "uploaded_at"),)

    id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True), primary_key=True)
    bid_id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True))
    kind: Mapped[str] = mapped_column(String(10))  # PIN, RECHECK or ANSWER
    object_key: Mapped[str] = mapped_column(String(200))
    content_type: Mapped[str] = mapped_column(String(40))
    size: Mapped[int] = mapped_column(Integer)
    width: Mapped[int] = mapped_column(Integer)
    height: Mapped[int] = mapped_column(Integer)
    uploaded_by: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True))
    uploaded_at: Mapped[datetime] = mapped_column(Stamp)


class Dispute(Base):
    """A report on a placement (by the brand, or by Pinbid when a fresh screenshot was not sent in time), the
    creator's answer, and the operator's decision. At most one open dispute per placement."""

    __tablename__ = "disputes"
    __table_args__ = (
        Index("disputes_one_open", "bid_id", unique=True, postgresql_where="status = 'OPEN'"),
        Index("disputes_by_status", "status", "reported_at"),
    )

    id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True), primary_key=True)
    bid_id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True))
    status: Mapped[str] = mapped_column(String(10))  # OPEN or DECIDED
    reason: Mapped[str] = mapped_column(Text)
    reporter: Mapped[str] = mapped_column(String(10))  # BRAND or SYSTEM
    reported_at: Mapped[datetime] = mapped_column(Stamp)
    answer_by: Mapped[datetime] = mapped_column(Stamp)
    answered_at: Mapped[datetime | None] = mapped_column(Stamp)
    creator_note: Mapped[str | None] = mapped_column(Text)
    outcome: Mapped[str | None] = mapped_column(String(20))  # CONTINUE, REFUND_UNEARNED or REFUND_ALL
    decision_reason: Mapped[str | None] = mapped_column(Text)
    decided_by: Mapped[uuid.UUID | None] = mapped_column(UUID(as_uuid=True))
    decided_at: Mapped[datetime | None] = mapped_column(Stamp)


class DisputeStep(Base):
    """A dispute's history, one row per step (reported, answered, decided), never changed."""

    __tablename__ = "dispute_history"
    __table_args__ = (Index("dispute_history_by_dispute", "dispute_id", "at"),)

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=True)
    dispute_id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True))
    at: Mapped[datetime] = mapped_column(Stamp)
    what: Mapped[str] = mapped_column(Text)
    by: Mapped[str] = mapped_column(String(60))  # BRAND, CREATOR, SYSTEM or OPERATOR <id>


# --- the sandbox Instagram's own state --------------------------------------------------------------

class SandboxAccount(Base):
    __tablename__ = "sandbox_accounts"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    username: Mapped[str] = mapped_column(String(64), unique=True)
    full_name: Mapped[str] = mapped_column(String(100))
    followers: Mapped[int] = mapped_column(Integer)
    account_type: Mapped[str] = mapped_column(String(30))
    created_at: Mapped[datetime] = mapped_column(Stamp)


class SandboxMedia(Base):
    __tablename__ = "sandbox_media"
    __table_args__ = (Index("sandbox_media_by_account", "account_id", "posted_at"),)

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[str] = mapped_column(String(64))
    media_type: Mapped[str] = mapped_column(String(30))
    caption: Mapped[str] = mapped_column(Text)
    base_views: Mapped[int] = mapped_column(BigInteger)
    base_likes: Mapped[int] = mapped_column(BigInteger)
    posted_at: Mapped[datetime] = mapped_column(Stamp)


class SandboxComment(Base):
    __tablename__ = "sandbox_comments"
    __table_args__ = (Index("sandbox_comments_by_media", "media_id"),)

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    media_id: Mapped[str] = mapped_column(String(64))
    author: Mapped[str] = mapped_column(String(64))
    text: Mapped[str] = mapped_column(Text)
    base_likes: Mapped[int] = mapped_column(Integer, default=0)
    base_replies: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(Stamp)
    pinned_at: Mapped[datetime | None] = mapped_column(Stamp)
    hidden: Mapped[bool] = mapped_column(Boolean, default=False, server_default="false")


class SandboxCode(Base):
    __tablename__ = "sandbox_codes"

    code: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[str] = mapped_column(String(64))
    redirect_uri: Mapped[str] = mapped_column(Text)
    expires_at: Mapped[datetime] = mapped_column(Stamp)
    used_at: Mapped[datetime | None] = mapped_column(Stamp)


class SandboxToken(Base):
    __tablename__ = "sandbox_tokens"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[str] = mapped_column(String(64))
    expires_at: Mapped[datetime] = mapped_column(Stamp)


class SandboxSession(Base):
    __tablename__ = "sandbox_sessions"

    session_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(Stamp, server_default=func.now())


class VanityLink(Base):
    """A placement's short link, `/go/<code>`: redirects to the brand's page with UTM parameters."""

    __tablename__ = "vanity_links"

    code: Mapped[str] = mapped_column(String(16), primary_key=True)
    bid_id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True), unique=True)
    buyer_id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True))
    destination: Mapped[str] = mapped_column(Text)
    promo_code: Mapped[str | None] = mapped_column(String(32))
    created_at: Mapped[datetime] = mapped_column(Stamp)
    updated_at: Mapped[datetime] = mapped_column(Stamp)


class LinkTargetChange(Base):
    """A short link's target changed after its comment was pinned: what people reach through a pinned comment
    is no longer what the creator saw, so operators see it (GET /ops/links/changes)."""

    __tablename__ = "link_target_changes"
    __table_args__ = (Index("link_target_changes_recent", text("changed_at DESC")),)

    id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True), primary_key=True)
    bid_id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True), index=True)
    code: Mapped[str] = mapped_column(String(16))
    buyer_id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True))
    creator_id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True))
    from_url: Mapped[str] = mapped_column(Text)
    to_url: Mapped[str] = mapped_column(Text)
    pinned_at: Mapped[datetime] = mapped_column(Stamp)
    changed_at: Mapped[datetime] = mapped_column(Stamp)


class LinkVisitor(Base):
    """When a visitor (a hash of address and browser, never the address) was last counted on a link."""

    __tablename__ = "link_visitors"

    code: Mapped[str] = mapped_column(String(16), primary_key=True)
    visitor: Mapped[str] = mapped_column(String(64), primary_key=True)
    counted_at: Mapped[datetime] = mapped_column(Stamp)


class LinkClicks(Base):
    __tablename__ = "link_clicks"

    code: Mapped[str] = mapped_column(String(16), primary_key=True)
    hour: Mapped[datetime] = mapped_column(Stamp, primary_key=True)
    clicks: Mapped[int] = mapped_column(Integer)


class PlacementFigures(Base):
    """A pinned comment's likes and replies as the tracker saw them, each time they changed."""

    __tablename__ = "placement_figures"

    bid_id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True), primary_key=True)
    at: Mapped[datetime] = mapped_column(Stamp, primary_key=True)
    likes: Mapped[int] = mapped_column(Integer)
    replies: Mapped[int] = mapped_column(Integer)
