"""Connecting an Instagram account (OAuth with a signed, single-use state), keeping the creator's
media and profile statistics fresh, refreshing long-lived tokens, and disconnecting."""

import asyncio
import logging
import re
import secrets
import uuid
from collections.abc import Awaitable
from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import Decimal
from typing import TypeVar
from urllib.parse import urlencode

from pinbid_kit import outbox
from pinbid_kit.clock import Clock
from pinbid_kit.db import Database
from pinbid_kit.errors import BadGateway, InstagramUnauthorized
from pinbid_kit.events import EventData
from pinbid_kit.secrets import SecretBox
from sqlalchemy import delete, select, text
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.ext.asyncio import AsyncSession

from . import SERVICE, events_out
from .adapters import Providers
from .domain.oauth_state import OAuthState, StateRejected, read_state, sign_state
from .domain.stats import PostFigures, ProfileStats, profile_stats
from .models import Connection, OAuthNonce, PinSession, Post, User
from .ports import Grant, Media, Profile, ProviderError, ProviderRejected
from .settings import SocialSettings

log = logging.getLogger("pinbid.social.connections")
T = TypeVar("T")

ERROR_TEXT = {
    "access_denied": "You did not allow Pinbid to access your Instagram account.",
    "invalid_state": "The connection link is not valid. Please start again.",
    "expired_state": "The connection link has expired. Please start again.",
    "used_state": "This connection link was already used. Please start again.",
    "state_mismatch": "The connection was started in another browser. Please start again here.",
    "missing_code": "Instagram did not send an authorization code. Please start again.",
    "invalid_code": "Instagram did not accept the authorization code. Please start again.",
    "account_in_use": "This Instagram account is already connected to another Pinbid user.",
    "provider_unavailable": "Instagram could not be reached. Please try again in a moment.",
}


@dataclass(frozen=True)
class ConnectStart:
    url: str
    nonce: str  # also set as a cookie: the callback must come back to the browser that started


@dataclass(frozen=True)
class Connected:
    """A completed connection: the Instagram account and the id of this connection of it (new every time)."""

    instagram_id: str
    connection_id: uuid.UUID


@dataclass(eq=False)
class Connections:
    db: Database
    providers: Providers
    box: SecretBox
    state_key: bytes
    settings: SocialSettings
    clock: Clock

    @property
    def public_url(self) -> str:
        return self.settings.public_url.rstrip("/")

    # --- OAuth ------------------------------------------------------------------------------
    async def start(self, user_id: uuid.UUID) -> ConnectStart:
        async with self.db.transaction() as session:
            user = await session.get(User, user_id)
        hint = _handle_hint(user) if user else None
        nonce = secrets.token_urlsafe(18)
        expires = int(self.clock().timestamp()) + self.settings.state_ttl_seconds
        state = sign_state(self.state_key, OAuthState(user_id, expires, nonce))
        url = self.providers.api.authorize_url(state=state, redirect_uri=self.providers.redirect_uri,
                                               login_hint=hint)
        return ConnectStart(url=url, nonce=nonce)

    async def _back(self, user_id: uuid.UUID | None, error: str | None = None) -> str:
        """Back to the page the person connects from: the marketplace for a brand, the post manager
        for a creator (and when the state did not even say who it was)."""
        page = "post-manager"
        if user_id is not None:
            async with self.db.transaction() as session:
                user = await session.get(User, user_id)
            if user is not None and user.role == "BUYER":
                page = "marketplace"
        query = {"error": error} if error else {"connected": "1"}
        return f"{self.public_url}/{page}?{urlencode(query)}"

    async def complete(self, *, code: str | None, state: str | None, error: str | None,
                       browser_nonce: str | None) -> str:
        """Handles the provider's redirect; returns where the browser goes next. Nothing is stored
        unless every step succeeded."""
        return (await self.complete_connection(code=code, state=state, error=error, browser_nonce=browser_nonce))[0]

    async def complete_connection(self, *, code: str | None, state: str | None, error: str | None,
                                  browser_nonce: str | None) -> tuple[str, Connected | None]:
        """`complete`, with the connection made (None when nothing was)."""
        accepted: OAuthState | None = None
        try:
            accepted = read_state(self.state_key, state or "", now=int(self.clock().timestamp()))
            if not browser_nonce or not secrets.compare_digest(browser_nonce, accepted.nonce):
                raise StateRejected("state_mismatch")
            await self._burn(accepted)
            if error:
                raise StateRejected("access_denied")
            if not code:
                raise StateRejected("missing_code")
            grant, profile, media = await self._fetch(code)
            connection_id = await self._store(accepted.user_id, grant, profile, media)
        except StateRejected as rejected:
            log.info("instagram connection refused: %s", rejected.reason)
            return await self._back(accepted.user_id if accepted else None, rejected.reason), None
        return await self._back(accepted.user_id), Connected(profile.id, connection_id)

    async def _burn(self, state: OAuthState) -> None:
        async with self.db.transaction() as session:
            used = await session.execute(insert(OAuthNonce).values(
                nonce=state.nonce, user_id=state.user_id,
                expires_at=datetime.fromtimestamp(state.expires_at, self.clock().tzinfo),
            ).on_conflict_do_nothing().returning(OAuthNonce.nonce))
            if used.first() is None:
                raise StateRejected("used_state")

    async def _fetch(self, code: str) -> tuple[Grant, Profile, list[Media]]:
        api = self.providers.api
        try:
            grant = await api.exchange_code(code, self.providers.redirect_uri)
            profile, media = await asyncio.gather(api.profile(grant.access_token),
                                                  api.recent_media(grant.access_token, self.settings.recent_posts))
        except ProviderRejected:
            raise StateRejected("invalid_code") from None
        except ProviderError as failed:
            log.warning("instagram connection failed: %s", failed.detail)
            raise StateRejected("provider_unavailable") from None
        return grant, profile, media

    def stats(self, profile: Profile, media: list[Media]) -> ProfileStats:
        return profile_stats(profile.followers, [PostFigures(m.views, m.like_count, m.comments_count) for m in media],
                             account_type=profile.account_type, min_followers=self.settings.verified_min_followers,
                             min_engagement=Decimal(self.settings.verified_min_engagement_percent))

    async def _store(self, user_id: uuid.UUID, grant: Grant, profile: Profile, media: list[Media]) -> uuid.UUID:
        """Stores the connection under a new connection id (a reconnection too), which it returns."""
        stats = self.stats(profile, media)
        connection_id = uuid.uuid4()
        async with self.db.transaction() as session:
            # one connect at a time per user; the unique index keeps one Pinbid user per Instagram account
            await session.execute(text("SELECT pg_advisory_xact_lock(hashtext(:k))"), {"k": f"connect:{user_id}"})
            owner = await session.scalar(select(Connection.user_id).where(
                Connection.provider == self.providers.name, Connection.instagram_id == profile.id))
            if owner is not None and owner != user_id:
                raise StateRejected("account_in_use")
            previous = await connection_of(session, user_id, lock=True)
            if previous is not None and previous.instagram_id != profile.id:
                await session.execute(delete(Post).where(Post.user_id == user_id))
                await session.execute(delete(PinSession).where(PinSession.user_id == user_id))
            values = dict(provider=self.providers.name, instagram_id=profile.id, username=profile.username,
                          account_type=profile.account_type, access_token=self.box.seal(grant.access_token),
                          token_expires_at=grant.expires_at, followers=stats.followers, avg_views=stats.avg_views,
                          avg_engagement=stats.avg_engagement, verified=stats.verified,
                          last_synced_at=self.clock(), refresh_failures=0, connection_id=connection_id)
            await session.execute(insert(Connection).values(user_id=user_id, connected_at=self.clock(), **values)
                                  .on_conflict_do_update(index_elements=[Connection.user_id], set_=values))
            await self._replace_posts(session, user_id, media)
            await outbox.publish_all(session, [
                events_out.account_connected(user_id, profile, stats),
                events_out.media_synced(user_id, profile.id, media),
                events_out.instagram_account_signal(user_id, profile.id, self.clock())], source=SERVICE)
        return connection_id

    async def _replace_posts(self, session: AsyncSession, user_id: uuid.UUID, media: list[Media]) -> None:
        now = self.clock()
        await session.execute(delete(Post).where(Post.user_id == user_id, Post.id.not_in([m.id for m in media])))
        for position, m in enumerate(media):
            values = dict(user_id=user_id, position=position, media_type=m.media_type, media_url=m.media_url,
                          permalink=m.permalink, caption=m.caption, views=m.views, like_count=m.like_count,
                          comments_count=m.comments_count, posted_at=m.posted_at, synced_at=now)
            await session.execute(insert(Post).values(id=m.id, **values)
                                  .on_conflict_do_update(index_elements=[Post.id], set_=values))

    # --- keeping media and statistics fresh -------------------------------------------------
    async def sync(self, user_id: uuid.UUID) -> None:
        """Reads profile and recent media from the provider and publishes what changed."""
        started = self.clock()
        async with self.db.transaction() as session:
            connection = await connection_of(session, user_id)
        if connection is None:
            raise InstagramUnauthorized("Connect your Instagram account first.", code="instagram_not_connected")
        token = self.box.open(connection.access_token)
        api = self.providers.api
        profile, media = await provider_call(asyncio.gather(
            api.profile(token), api.recent_media(token, self.settings.recent_posts)), what="read your Instagram posts")
        stats = self.stats(profile, media)
        async with self.db.transaction() as session:
            current = await connection_of(session, user_id, lock=True)
            if current is None or current.instagram_id != profile.id:
                return  # disconnected or reconnected to another account meanwhile
            if current.last_synced_at is not None and current.last_synced_at > started:
                return  # a concurrent sync already stored newer figures
            changed = (current.username, current.followers, current.avg_views, current.avg_engagement,
                       current.verified) != (profile.username, stats.followers, stats.avg_views,
                                             stats.avg_engagement, stats.verified)
            current.username, current.account_type = profile.username, profile.account_type
            current.followers, current.avg_views = stats.followers, stats.avg_views
            current.avg_engagement, current.verified = stats.avg_engagement, stats.verified
            current.last_synced_at = self.clock()
            await self._replace_posts(session, user_id, media)
            events: list[EventData] = [events_out.media_synced(user_id, profile.id, media)]
            if changed:
                events.append(events_out.account_updated(user_id, profile, stats))
            await outbox.publish_all(session, events, source=SERVICE)

    async def disconnect(self, user_id: uuid.UUID) -> bool:
        async with self.db.transaction() as session:
            removed = await session.execute(delete(Connection).where(Connection.user_id == user_id)
                                            .returning(Connection.user_id))
            if removed.first() is None:
                return False
            await session.execute(delete(Post).where(Post.user_id == user_id))
            await session.execute(delete(PinSession).where(PinSession.user_id == user_id))
            await outbox.publish_all(session, [events_out.account_disconnected(user_id)], source=SERVICE)
            return True

    async def refresh_tokens(self, *, limit: int = 50) -> int:
        """The refresh job: long-lived tokens close to expiry get a new lease. Rows are claimed with
        SKIP LOCKED, so replicas never refresh the same token twice."""
        refreshed = 0
        now = self.clock()
        disconnected: list[EventData] = []
        async with self.db.transaction() as session:
            due = (await session.scalars(
                select(Connection).where(Connection.token_expires_at
                                         < now + timedelta(days=self.settings.token_refresh_days_before))
                .order_by(Connection.token_expires_at).limit(limit).with_for_update(skip_locked=True))).all()
            for connection in due:
                try:
                    grant = await asyncio.wait_for(
                        self.providers.api.refresh(self.box.open(connection.access_token)),
                        timeout=self.settings.provider_timeout_seconds)
                except (ProviderError, TimeoutError) as failed:
                    connection.refresh_failures += 1
                    if connection.token_expires_at <= now:
                        log.warning("instagram token of %s expired and could not be refreshed", connection.user_id)
                        await session.delete(connection)
                        await session.execute(delete(Post).where(Post.user_id == connection.user_id))
                        disconnected.append(events_out.account_disconnected(connection.user_id))
                    else:
                        log.info("instagram token refresh failed for %s: %s", connection.user_id,
                                 getattr(failed, "detail", "timeout"))
                    continue
                connection.access_token = self.box.seal(grant.access_token)
                connection.token_expires_at = grant.expires_at
                connection.refresh_failures = 0
                refreshed += 1
            await outbox.publish_all(session, disconnected, source=SERVICE)
        return refreshed


def _handle_hint(user: User) -> str:
    """A likely Instagram handle: the one given at signup, else one made from the business or person name."""
    if user.instagram_handle:
        return user.instagram_handle
    return re.sub(r"[^a-z0-9]+", ".", (user.business_name or user.name).casefold()).strip(".")[:30]


async def connection_of(session: AsyncSession, user_id: uuid.UUID, *, lock: bool = False) -> Connection | None:
    query = select(Connection).where(Connection.user_id == user_id)
    return await session.scalar(query.with_for_update() if lock else query)


async def provider_call(call: Awaitable[T], *, what: str) -> T:
    """A provider call whose failure is a 502 with a detail a person can read (a rejected token is a 401:
    the Instagram side needs a new connection)."""
    try:
        return await call
    except ProviderRejected as rejected:
        if rejected.status == 401:
            raise InstagramUnauthorized("Instagram no longer accepts this connection. Please connect your "
                                        "Instagram account again.", code="instagram_reconnect") from None
        raise BadGateway(f"Could not {what}: {rejected.detail}", code="instagram_error") from None
    except ProviderError as failed:
        raise BadGateway(f"Could not {what}: {failed.detail}", code="instagram_error") from None
