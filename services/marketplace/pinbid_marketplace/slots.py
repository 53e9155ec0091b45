"""The creator's side: list a post as a pin slot."""

import uuid

from pinbid_kit import outbox
from pinbid_kit.clock import Clock
from pinbid_kit.db import Database
from pinbid_kit.errors import Conflict, Invalid, NotYet
from sqlalchemy import and_, func, or_, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from . import SERVICE, events_out, reliability
from .domain.listing import NewSlot, check_new_slot, check_room_on_post
from .domain.states import BidStatus
from .meaning import meaning_of
from .meaning_index import MeaningIndex
from .models import Bid, CreatorProfile, Post, Slot, User
from .rules import as_api_errors, listing_limits
from .settings import MarketplaceSettings

POST_ALREADY_LISTED = "This post already has an active pin slot."


# bids that hold one of a post's pins: pinned now, or won and on their way to being pinned
HOLDING_A_PIN = or_(and_(Bid.status == BidStatus.PINNED.value, Bid.pinned_status == "ACTIVE"),
                    Bid.status.in_([BidStatus.PENDING_INFLUENCER_APPROVAL.value, BidStatus.APPROVED.value,
                                    BidStatus.AWAITING_PAYMENT.value, BidStatus.WON.value]))


async def placements_on_post(session: AsyncSession, post_id: str) -> int:
    return await session.scalar(select(func.count()).select_from(Bid).join(Slot, Slot.id == Bid.slot_id)
                                .where(Slot.post_id == post_id, HOLDING_A_PIN))


class PostNotSynced(NotYet):
    """A post the marketplace has not heard of yet: right after connecting Instagram, social's PostsSynced can
    take a moment to arrive (longer while the broker is away). The creator's own post is worth asking again."""

    def __init__(self) -> None:
        super().__init__("This post is still arriving from Instagram. Please try again in a moment.",
                         code="post_not_synced", retry_after=1)


class Slots:
    def __init__(self, db: Database, settings: MarketplaceSettings, clock: Clock, index: MeaningIndex | None = None):
        self.db, self.settings, self.clock = db, settings, clock
        self.index = index  # this process's search index, told of its own slots at once

    async def create(self, creator_id: uuid.UUID, new: NewSlot, *, demo: bool = False) -> uuid.UUID:
        """`demo` marks a slot of the demo world (the only ones the demo's background bidders touch)."""
        with as_api_errors():
            new = check_new_slot(new, now=self.clock(), limits=listing_limits(self.settings))
        async with self.db.transaction() as session:
            post = await session.get(Post, new.post_id)
            if post is None:
                raise PostNotSynced()
            if post.user_id != creator_id:
                raise Invalid("Choose one of your own Instagram posts.", field="postId", code="unknown_post")
            with as_api_errors():
                check_room_on_post(await placements_on_post(session, post.id))
            user = await session.get(User, creator_id)
            profile = await session.get(CreatorProfile, creator_id)
            row = Slot(id=uuid.uuid4(), creator_id=creator_id, post_id=post.id, title=new.title,
                       description=new.description, category=new.category, min_bid=new.min_bid,
                       buy_now_price=new.buy_now_price, auction_end=new.auction_end, duration_days=new.duration_days,
                       status="ACTIVE", bid_count=0, bidder_count=0, media_type=post.media_type,
                       media_url=post.media_url,
                       permalink=post.permalink, creator_name=user.name if user else "", is_demo=demo,
                       created_at=self.clock(), **meaning_of(new.title, new.description, post.caption, new.category),
                       creator_handle=(profile.username if profile else None) or (user.instagram_handle if user
                                                                                  else None))
            if profile is not None:
                row.followers, row.avg_views = profile.followers, profile.avg_views
                row.avg_engagement, row.verified = profile.avg_engagement, profile.verified
            record = await reliability.record_of(session, creator_id)
            row.creator_placements, row.creator_kept_pct = record.finished, record.kept_percent
            row.creator_response_minutes = record.response_minutes
            session.add(row)
            try:
                await session.flush()
            except IntegrityError:
                raise Conflict(POST_ALREADY_LISTED, code="post_listed") from None
            await outbox.publish(session, events_out.slot_created(row, self.settings.currency), source=SERVICE)
        if self.index is not None:
            self.index.put(row.id, row.category, row.meaning)
        return row.id
