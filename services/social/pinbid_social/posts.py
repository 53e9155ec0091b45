"""The creator's posts with their pin slots: from the read model, synced with the provider when stale."""

import logging
import uuid
from dataclasses import dataclass
from datetime import timedelta

from pinbid_kit.clock import Clock
from pinbid_kit.db import Database
from pinbid_kit.errors import BadGateway, InstagramUnauthorized
from sqlalchemy import select

from .connections import Connections, connection_of
from .models import Post, Slot

log = logging.getLogger("pinbid.social.posts")


@dataclass(frozen=True)
class PostView:
    post: Post
    slots: list[Slot]


class Posts:
    def __init__(self, db: Database, connections: Connections, *, stale_after: timedelta, clock: Clock):
        self.db = db
        self.connections = connections
        self.stale_after = stale_after
        self.clock = clock

    async def of(self, user_id: uuid.UUID, *, refresh: bool = False) -> list[PostView]:
        async with self.db.transaction() as session:
            connection = await connection_of(session, user_id)
        if connection is None:
            raise InstagramUnauthorized("Connect your Instagram account to see your posts.",
                                        code="instagram_not_connected")
        synced = connection.last_synced_at
        if refresh or synced is None or self.clock() - synced >= self.stale_after:
            try:
                await self.connections.sync(user_id)
            except BadGateway as failed:
                if synced is None:
                    raise
                log.warning("serving cached posts of %s: %s", user_id, failed.detail)
        return await self.cached(user_id)

    async def cached(self, user_id: uuid.UUID) -> list[PostView]:
        async with self.db.transaction() as session:
            posts = (await session.scalars(select(Post).where(Post.user_id == user_id).order_by(Post.position))).all()
            slots = (await session.scalars(select(Slot).where(
                Slot.creator_id == user_id, Slot.post_id.in_([p.id for p in posts]))
                .order_by(Slot.auction_end.desc()))).all()
        by_post: dict[str, list[Slot]] = {}
        for slot in slots:
            by_post.setdefault(slot.post_id, []).append(slot)
        return [PostView(post=p, slots=by_post.get(p.id, [])) for p in posts]
