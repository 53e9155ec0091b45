"""Marketplace's tables (its own database): slots and bids, and the read models fed by other services' events."""

import uuid
from datetime import datetime
from decimal import Decimal

from pinbid_kit.tables import KitTables
from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Computed,
    DateTime,
    ForeignKey,
    Identity,
    Index,
    Integer,
    LargeBinary,
    Numeric,
    SmallInteger,
    String,
    Table,
    Text,
    func,
    text,
)
from sqlalchemy.dialects.postgresql import ARRAY, JSONB, UUID
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(KitTables, DeclarativeBase, revocations=True):
    """Marketplace's tables, the kit's outbox, inbox, mail queue and token revocations among them."""


token_revocations = Base.metadata.tables["token_revocations"]
Money = Numeric(12, 2)
LIVE_SQL = "status IN ('ACTIVE', 'OUTBID')"
OPEN_SQL = "status = 'ACTIVE'"


class User(Base):
    """Read model of identity's users: names for cards, bidder lists and notices."""

    __tablename__ = "users"

    id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True), primary_key=True)
    name: Mapped[str] = mapped_column(String(100))
    email: Mapped[str] = mapped_column(String(254))
    role: Mapped[str] = mapped_column(String(20))
    business_name: Mapped[str | None] = mapped_column(String(120))
    instagram_handle: Mapped[str | None] = mapped_column(String(30))
    # from identity's suspensions (identity.user.suspended / restored): a suspended brand is offered no second chance
    suspended_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class CreatorProfile(Base):
    """Read model of social's connected accounts."""

    __tablename__ = "creator_profiles"

    user_id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True), primary_key=True)
    instagram_id: Mapped[str] = mapped_column(String(64))
    username: Mapped[str] = mapped_column(String(30))
    followers: Mapped[int] = mapped_column(BigInteger, default=0)
    avg_views: Mapped[int] = mapped_column(BigInteger, default=0)
    avg_engagement: Mapped[Decimal] = mapped_column(Numeric(6, 2), default=Decimal(0))
    verified: Mapped[bool] = mapped_column(Boolean, default=False)
    connected: Mapped[bool] = mapped_column(Boolean, default=True)


class Post(Base):
    """Read model of social's synced posts: a slot is created from one of its creator's posts."""

    __tablename__ = "posts"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)  # the Instagram media id
    user_id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True), index=True)
    media_type: Mapped[str] = mapped_column(String(20))
    media_url: Mapped[str] = mapped_column(Text)
    permalink: Mapped[str] = mapped_column(Text)
    caption: Mapped[str] = mapped_column(Text, default="")
    views: Mapped[int] = mapped_column(BigInteger, default=0)
    like_count: Mapped[int] = mapped_column(BigInteger, default=0)
    comments_count: Mapped[int] = mapped_column(BigInteger, default=0)
    posted_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


WITHOUT_MEANING_SQL = "status = 'ACTIVE' AND (meaning IS NULL OR word_meaning IS NULL OR sentence_meaning IS NULL)"


class Slot(Base):
    """A pin slot. The creator's and post's display fields are copied in (and kept fresh by the event
    handlers) so the marketplace listing filters and sorts on one table with plain indexes."""

    __tablename__ = "slots"
    __table_args__ = (
        Index("slots_open_newest", text("created_at DESC"), "id", postgresql_where=text(OPEN_SQL)),
        Index("slots_open_popular", text("bid_count DESC"), "id", postgresql_where=text(OPEN_SQL)),
        # the filter columns ride along (INCLUDE) so a filtered listing's exact total is an index-only count
        Index("slots_open_price", "price", "id", postgresql_where=text(OPEN_SQL),
              postgresql_include=["auction_end", "category", "avg_views", "verified"]),
        Index("slots_open_ending", "auction_end", "id", postgresql_where=text(OPEN_SQL),
              postgresql_include=["category", "price", "avg_views", "verified"]),
        Index("slots_open_views", text("avg_views DESC"), "id", postgresql_where=text(OPEN_SQL),
              postgresql_include=["auction_end", "category", "price", "verified"]),
        Index("slots_open_category_price", "category", "price", "id", postgresql_where=text(OPEN_SQL),
              postgresql_include=["auction_end", "avg_views", "verified"]),
        Index("slots_open_search", "search", postgresql_using="gin", postgresql_ops={"search": "gin_trgm_ops"},
              postgresql_where=text(OPEN_SQL)),
        Index("slots_one_open_per_post", "post_id", unique=True, postgresql_where=text(OPEN_SQL)),
        Index("slots_creator", "creator_id", "status"),
        # how each process's search index hears of changed slots, a page at a time in this order (meaning.py)
        Index("slots_updated", "updated_at", "id"),
        # the open slots whose vectors the search index's job has still to make (meaning.py), found without a scan
        Index("slots_without_meaning", "id", postgresql_where=text(WITHOUT_MEANING_SQL)),
        Index("slots_open_reliable", text("creator_kept_pct DESC NULLS LAST"), text("creator_placements DESC"), "id",
              postgresql_where=text(OPEN_SQL), postgresql_include=["auction_end", "category", "price", "avg_views",
                                                                   "verified"]),
    )

    id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True), primary_key=True, default=uuid.uuid4)
    creator_id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True))
    post_id: Mapped[str] = mapped_column(String(64))
    title: Mapped[str] = mapped_column(String(200))
    description: Mapped[str] = mapped_column(Text, default="")
    category: Mapped[str] = mapped_column(String(20))
    min_bid: Mapped[Decimal] = mapped_column(Money)
    buy_now_price: Mapped[Decimal | None] = mapped_column(Money)
    current_bid: Mapped[Decimal | None] = mapped_column(Money)
    price: Mapped[Decimal] = mapped_column(Money, Computed("COALESCE(current_bid, min_bid)", persisted=True))
    auction_end: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    duration_days: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(20), default="ACTIVE")
    outcome: Mapped[str | None] = mapped_column(String(10))
    winning_bid_id: Mapped[uuid.UUID | None] = mapped_column(UUID(as_uuid=True))
    bid_count: Mapped[int] = mapped_column(Integer, default=0)  # accepted bid actions: the slot's bid order
    # brands in the running (a live bid each; at the close, the bids that stood): what screens show as bids and
    # bidders (domain/auction.py)
    bidder_count: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    # bumped by a trigger on every update of the row (migration 0008): the guard of an unlocked bid write
    version: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")
    closed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    creator_name: Mapped[str] = mapped_column(String(100), default="")
    creator_handle: Mapped[str | None] = mapped_column(String(30))
    followers: Mapped[int] = mapped_column(BigInteger, default=0)
    avg_views: Mapped[int] = mapped_column(BigInteger, default=0)
    avg_engagement: Mapped[Decimal] = mapped_column(Numeric(6, 2), default=Decimal(0))
    # the creator's reliability record as of their last finished placement (reliability.py)
    creator_placements: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    creator_kept_pct: Mapped[int | None] = mapped_column(SmallInteger)
    creator_response_minutes: Mapped[int | None] = mapped_column(Integer)
    verified: Mapped[bool] = mapped_column(Boolean, default=False)
    media_type: Mapped[str] = mapped_column(String(20), default="IMAGE")
    media_url: Mapped[str] = mapped_column(Text, default="")
    permalink: Mapped[str] = mapped_column(Text, default="")
    search: Mapped[str] = mapped_column(
        Text, Computed("lower(title || ' ' || description || ' ' || creator_name)", persisted=True))
    is_demo: Mapped[bool] = mapped_column(Boolean, default=False)
    # what the slot means to the AI search box (meaning.py): NULL until made, and again when its post's caption changes
    meaning: Mapped[bytes | None] = mapped_column(LargeBinary)
    # the same on all the word model's dimensions (256 float16): what the nearest are ranked on, read only for them
    word_meaning: Mapped[bytes | None] = mapped_column(LargeBinary)
    # the same from the sentence model (meaning.py), 384 float16: NULL until the index's job makes it
    sentence_meaning: Mapped[bytes | None] = mapped_column(LargeBinary)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now(),
                                                 onupdate=func.now())


# Appended to by a trigger on `slots` (+1 when a slot opens, -1 when it closes) and folded by a job: the listing's
# total without a filter but the category (migration 0007).
open_slot_counts = Table(
    "open_slot_counts", Base.metadata,
    Column("category", String(20), nullable=False),
    Column("open", Integer, nullable=False),
    Index("open_slot_counts_category", "category", postgresql_include=["open"]),
)


class SlotPrice(Base):
    """The slot's public price each time it moved, at the time it moved (the slot's own clock, `updated_at`).
    Written by the database (trigger `slot_prices_record`, migration 0011) whenever a slot is created or its
    current bid changes, whatever path changes it; read for the price chart. Never a hidden maximum."""

    __tablename__ = "slot_prices"

    seq: Mapped[int] = mapped_column(BigInteger, Identity(always=True), primary_key=True)
    slot_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("slots.id", ondelete="CASCADE"), index=True)
    price: Mapped[Decimal] = mapped_column(Money)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class Bid(Base):
    """A buyer's bid on a slot. A buyer has at most one live (ACTIVE or OUTBID) bid per slot."""

    __tablename__ = "bids"
    __table_args__ = (
        Index("bids_live_rank", "slot_id", text("ceiling DESC"), "seq", postgresql_where=text(LIVE_SQL)),
        Index("bids_one_live_per_buyer", "slot_id", "buyer_id", unique=True, postgresql_where=text(LIVE_SQL)),
        Index("bids_buyer_recent", "buyer_id", text("created_at DESC")),
        Index("bids_slot_status", "slot_id", "status"),
        Index("bids_campaign", "campaign_id", "status", postgresql_where=text("campaign_id IS NOT NULL")),
    )

    id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True), primary_key=True, default=uuid.uuid4)
    slot_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("slots.id"))
    buyer_id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True))
    amount: Mapped[Decimal] = mapped_column(Money)
    ceiling: Mapped[Decimal] = mapped_column(Money)
    auto_bid_enabled: Mapped[bool] = mapped_column(Boolean, default=False)
    max_auto_bid: Mapped[Decimal | None] = mapped_column(Money)
    seq: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(40))
    final_price: Mapped[Decimal | None] = mapped_column(Money)
    comment_id: Mapped[str | None] = mapped_column(String(64))
    comment_username: Mapped[str | None] = mapped_column(String(30))
    comment_text: Mapped[str | None] = mapped_column(Text)
    # when social read the comment `comment_id` names on the post: its text and author are social's from then on
    comment_read_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # the exact text the creator approved (disclosure included): what social posts or pins, and when
    approved_text: Mapped[str | None] = mapped_column(Text)
    approved_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    decided_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))  # the creator's approve or reject
    pin_deadline_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))  # from the payment
    payment_id: Mapped[uuid.UUID | None] = mapped_column(UUID(as_uuid=True))
    payment_status: Mapped[str | None] = mapped_column(String(20))
    payment_expires_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    paid_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))  # the date of the creator's transaction
    pinned_comment_id: Mapped[str | None] = mapped_column(String(64))
    pinned_text: Mapped[str | None] = mapped_column(Text)
    pinned_status: Mapped[str | None] = mapped_column(String(20))
    pinned_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    likes: Mapped[int] = mapped_column(Integer, default=0)
    replies: Mapped[int] = mapped_column(Integer, default=0)
    clicks: Mapped[int] = mapped_column(Integer, default=0)
    is_demo: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now(),
                                                 onupdate=func.now())
    # times the buyer raised this bid itself (a new amount on its live bid): a bid pattern for flags (trust.py)
    raises: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    # an operator's REFUND_* decision on the placement's dispute: it counts in the creator's record
    dispute_outcome: Mapped[str | None] = mapped_column(String(20))
    # what the brand got back of its payment, from payments' refund events: the unearned share of an early end,
    # everything it paid once refunded in full
    refunded: Mapped[Decimal] = mapped_column(Money, default=Decimal(0), server_default="0")
    # the campaign this bid was placed for (a brand's own bid either way)
    campaign_id: Mapped[uuid.UUID | None] = mapped_column(UUID(as_uuid=True))
    # a runner-up offered the slot after the winner fell through (second chance): the offer lapses then
    offer_expires_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # when its campaign cancelled it for being outbid, to free its ceiling (not the brand): it stays a runner-up
    released_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class Campaign(Base):
    """A brand's campaign: Pinbid bids for it on every open slot that fits its filters, within its budget."""

    __tablename__ = "campaigns"
    __table_args__ = (
        Index("campaigns_buyer_recent", "buyer_id", text("created_at DESC")),
        Index("campaigns_bidding", "ends_at", postgresql_where=text("status = 'ACTIVE'")),
    )

    id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True), primary_key=True, default=uuid.uuid4)
    buyer_id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True))
    name: Mapped[str] = mapped_column(String(80))
    status: Mapped[str] = mapped_column(String(20))  # DRAFT, ACTIVE, PAUSED, OUT_OF_BUDGET, ENDED
    reason: Mapped[str | None] = mapped_column(String(30))  # why it stopped bidding
    filters: Mapped[dict] = mapped_column(JSONB)  # the listing's own parameters
    ask: Mapped[str | None] = mapped_column(Text)  # a question for the AI search box, when it was saved from one
    budget: Mapped[Decimal] = mapped_column(Money)
    max_per_slot: Mapped[Decimal] = mapped_column(Money)
    funded: Mapped[Decimal] = mapped_column(Money, default=Decimal(0), server_default="0")  # from payments
    comment_text: Mapped[str] = mapped_column(Text)
    starts_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    ends_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    version: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")
    settled_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())


class CampaignSlot(Base):
    """A slot a campaign has considered: it bids at most once on a slot, and remembers it after the bid ends."""

    __tablename__ = "campaign_slots"

    campaign_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("campaigns.id"), primary_key=True)
    slot_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("slots.id"), primary_key=True)
    bid_id: Mapped[uuid.UUID | None] = mapped_column(UUID(as_uuid=True))
    outcome: Mapped[str] = mapped_column(String(20))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())


class AccountSignal(Base):
    """Something a user holds or uses, hashed (pinbid_kit.events.trust.AccountSignal), from social, payments and
    identity: two users with the same hash are associated."""

    __tablename__ = "account_signals"
    __table_args__ = (Index("account_signals_by_value", "kind", "value_hash", "user_id"),)

    user_id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True), primary_key=True)
    kind: Mapped[str] = mapped_column(String(20), primary_key=True)
    value_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    first_seen_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    last_seen_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class Flag(Base):
    """A bidder that may be tied to a creator (soft signals, bid patterns), for an operator to look at. At most one
    OPEN flag per bidder and creator; a later finding updates it."""

    __tablename__ = "flags"
    __table_args__ = (
        Index("flags_one_open", "user_id", "creator_id", unique=True, postgresql_where=text("status = 'OPEN'")),
        Index("flags_by_status", "status", text("created_at DESC")),
    )

    id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True), primary_key=True, default=uuid.uuid4)
    user_id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True))
    creator_id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True))
    score: Mapped[int] = mapped_column(Integer)
    reasons: Mapped[list[str]] = mapped_column(ARRAY(Text))
    status: Mapped[str] = mapped_column(String(10), default="OPEN")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    cleared_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    cleared_by: Mapped[uuid.UUID | None] = mapped_column(UUID(as_uuid=True))
    clear_reason: Mapped[str | None] = mapped_column(Text)
