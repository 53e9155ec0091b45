"""The creator's side: list a post as a pin slot."""

import uuid

from pinbid_kit.db import Database
from pinbid_kit.errors import Conflict, Invalid
from sqlalchemy.exc import IntegrityError

from . import announcements
from .domain.listing import NewSlot, check_new_slot
from .models import CreatorProfile, Post, Slot, User
from .rules import Clock, as_api_errors, listing_limits
from .settings import MarketplaceSettings

POST_ALREADY_LISTED = "This post already has an active pin slot."


class Slots:
    def __init__(self, db: Database, settings: MarketplaceSettings, clock: Clock):
        self.db, self.settings, self.clock = db, settings, clock

    async def create(self, creator_id: uuid.UUID, new: NewSlot) -> uuid.UUID:
        with as_api_errors():
            new = check_new_slot(new, now=self.clock(), limits=listing_limits(self.settings))
        async with self.db.transaction() as session:
            post = await session.get(Post, new.post_id)
            if post is None or post.user_id != creator_id:
                raise Invalid("Choose one of your own Instagram posts.", field="postId", code="unknown_post")
            user = await session.get(User, creator_id)
            profile = await session.get(CreatorProfile, creator_id)
            row = Slot(id=uuid.uuid4(), creator_id=creator_id, post_id=post.id, title=new.title,
                       description=new.description, category=new.category, min_bid=new.min_bid,
                       buy_now_price=new.buy_now_price, auction_end=new.auction_end, duration_days=new.duration_days,
                       status="ACTIVE", bid_count=0, media_type=post.media_type, media_url=post.media_url,
                       permalink=post.permalink, creator_name=user.name if user else "",
                       creator_handle=(profile.username if profile else None) or (user.instagram_handle if user
                                                                                  else None))
            if profile is not None:
                row.followers, row.avg_views = profile.followers, profile.avg_views
                row.avg_engagement, row.verified = profile.avg_engagement, profile.verified
            session.add(row)
            try:
                await session.flush()
            except IntegrityError:
                raise Conflict(POST_ALREADY_LISTED, code="post_listed") from None
            await announcements.slot_created(session, row, self.settings.currency)
            return row.id
