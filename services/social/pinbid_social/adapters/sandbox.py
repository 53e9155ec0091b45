"""The sandbox Instagram: a deterministic simulator with its own state (tables `sandbox_*`), reached
through the same ports as the real adapters. It serves its own authorize page (see sandbox_api.py),
generated images, comments by other sandbox users, pin state, and metrics that grow with time."""

import hashlib
import json
import secrets
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from urllib.parse import urlencode

from pinbid_kit.clock import utcnow
from pinbid_kit.db import Database
from sqlalchemy import func, select, update
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.ext.asyncio import AsyncSession

from ..domain import sandbox_world as world
from ..models import (
    SandboxAccount,
    SandboxCode,
    SandboxComment,
    SandboxMedia,
    SandboxSession,
    SandboxToken,
)
from ..ports import (
    Comment,
    CommentFigures,
    Grant,
    LoginProblem,
    Media,
    MediaRef,
    Profile,
    ProviderError,
    ProviderRejected,
    SessionExpired,
)

CLIENT_ID = "pinbid-sandbox"
PASSWORD = "sandbox"


class NotOwner(ProviderRejected):
    """A sandbox post page action by someone other than the post's signed-in owner."""
TOKEN_DAYS = 60
MAX_PINNED = 3  # Instagram allows up to three pinned comments per post


def _hash(value: str) -> str:
    return hashlib.sha256(value.encode()).hexdigest()


def numeric_id(*parts: object) -> str:
    """A 17-digit id shaped like Instagram's, derived from `parts`."""
    digest = int.from_bytes(hashlib.sha256("|".join(map(str, parts)).encode()).digest()[:8], "big")
    return "178" + str(digest % 10**14).zfill(14)


class SandboxInstagram:
    """Implements both `InstagramApi` and `Pinning`."""

    def __init__(self, db: Database, *, public_url: str, seed: int, posts_per_account: int,
                 clock: Callable[[], datetime] = utcnow):
        self.db = db
        self.public_url = public_url.rstrip("/")
        self.seed = seed
        self.posts_per_account = posts_per_account
        self.clock = clock

    # --- the authorize page's side -------------------------------------------------------------
    @property
    def redirect_uri(self) -> str:
        return f"{self.public_url}/api/instagram/callback"

    def authorize_url(self, *, state: str, redirect_uri: str, login_hint: str | None) -> str:
        query = {"client_id": CLIENT_ID, "redirect_uri": redirect_uri, "response_type": "code",
                 "scope": "instagram_business_basic,instagram_business_manage_comments,"
                          "instagram_business_manage_insights",
                 "state": state, "force_reauth": "true"}
        if login_hint:
            query["login_hint"] = login_hint
        return f"{self.public_url}/api/instagram/sandbox/authorize?{urlencode(query)}"

    async def approve(self, username: str, redirect_uri: str) -> str:
        """The person approved on the authorize page as `username`: a fresh single-use code."""
        account = await self.ensure_account(username)
        code = secrets.token_urlsafe(24)
        async with self.db.transaction() as session:
            session.add(SandboxCode(code=code, account_id=account.id, redirect_uri=redirect_uri,
                                    expires_at=self.clock() + timedelta(minutes=10)))
        return code

    # --- accounts, posts and the crowd -------------------------------------------------------
    async def ensure_account(self, username: str, full_name: str | None = None, *,
                             figures: world.AccountSeed | None = None,
                             posts: list[world.PlannedPost] | None = None) -> SandboxAccount:
        """The account called `username`, created on first use: with `figures` and `posts` when given
        (the demo world's), else generated from the seed."""
        username = username.strip().lstrip("@").lower()[:30] or "sandbox.user"
        async with self.db.transaction() as session:
            await self._ensure_crowd(session)
            existing = await session.scalar(select(SandboxAccount).where(SandboxAccount.username == username))
            if existing:
                return existing
            seed = figures or world.account_seed(self.seed, username, full_name)
            now = self.clock()
            inserted = await session.execute(insert(SandboxAccount).values(
                id=numeric_id(self.seed, "account", username), username=username, full_name=seed.full_name,
                followers=seed.followers, account_type=seed.account_type, created_at=now,
            ).on_conflict_do_nothing().returning(SandboxAccount.id))
            if inserted.first() is None:  # a concurrent approval created it
                return await session.scalar(select(SandboxAccount).where(SandboxAccount.username == username))
            account = await session.scalar(select(SandboxAccount).where(SandboxAccount.username == username))
            await self._create_posts(session, account, now, seed.like_rate_percent, posts)
            await self._cross_comment(session, account, now)
            return account

    async def _ensure_crowd(self, session: AsyncSession) -> None:
        values = []
        for username in world.CROWD:
            seed = world.account_seed(self.seed, username, crowd=True)
            values.append({"id": numeric_id(self.seed, "account", username), "username": username,
                           "full_name": seed.full_name, "followers": seed.followers,
                           "account_type": seed.account_type, "created_at": datetime(2026, 1, 1, tzinfo=UTC)})
        await session.execute(insert(SandboxAccount).values(values).on_conflict_do_nothing())

    async def _create_posts(self, session: AsyncSession, account: SandboxAccount, now: datetime,
                            like_rate_percent: float, planned: list[world.PlannedPost] | None) -> None:
        for post in world.post_seeds(self.seed, account.username, account.followers, self.posts_per_account,
                                     like_rate_percent=like_rate_percent, planned=planned):
            media_id = numeric_id(self.seed, "media", account.username, post.index)
            posted_at = now - post.age
            session.add(SandboxMedia(id=media_id, account_id=account.id, media_type=post.media_type,
                                     caption=post.caption, base_views=post.base_views, base_likes=post.base_likes,
                                     posted_at=posted_at))
            for n, (author, text) in enumerate(world.commenters(self.seed, media_id, among=list(world.CROWD),
                                                                exclude=account.username)):
                session.add(SandboxComment(id=numeric_id(self.seed, "comment", media_id, author, n), media_id=media_id,
                                           author=author, text=text, base_likes=(n * 7) % 23, base_replies=n % 3,
                                           created_at=posted_at + timedelta(minutes=5 + 11 * n)))
        await session.flush()

    async def _cross_comment(self, session: AsyncSession, account: SandboxAccount, now: datetime) -> None:
        """Every connected (non-crowd) account comments on every other one's posts, so a buyer can
        pick one of their own comments on any creator's post. One insert for all of them."""
        others = {a.id: a for a in (await session.scalars(select(SandboxAccount).where(
            SandboxAccount.id != account.id, SandboxAccount.username.not_in(world.CROWD)))).all()}
        if not others:
            return
        media = (await session.scalars(select(SandboxMedia).where(
            SandboxMedia.account_id.in_([account.id, *others])))).all()
        rows = []
        for m in media:
            authors = list(others.values()) if m.account_id == account.id else [account]
            for author in authors:
                # written as a brand writes one it may choose for a pin: disclosure first
                rows.append(dict(id=numeric_id(self.seed, "comment", m.id, author.username, "x"), media_id=m.id,
                                 author=author.username,
                                 text=world.comment_line(self.seed, author.username, m.id, brand=True),
                                 base_likes=3, base_replies=0, created_at=max(m.posted_at, now - timedelta(hours=1))))
        await session.execute(insert(SandboxComment).values(rows).on_conflict_do_nothing())

    # --- tokens ----------------------------------------------------------------------------------
    async def _issue_token(self, session: AsyncSession, account_id: str) -> Grant:
        token = "sbx_" + secrets.token_urlsafe(32)
        expires = self.clock() + timedelta(days=TOKEN_DAYS)
        session.add(SandboxToken(token_hash=_hash(token), account_id=account_id, expires_at=expires))
        return Grant(access_token=token, expires_at=expires, instagram_user_id=account_id)

    async def _account(self, session: AsyncSession, token: str) -> SandboxAccount:
        row = await session.scalar(select(SandboxToken).where(SandboxToken.token_hash == _hash(token)))
        if row is None or row.expires_at <= self.clock():
            raise ProviderRejected("The Instagram access token is invalid or has expired.", status=401)
        return await session.get(SandboxAccount, row.account_id)

    async def exchange_code(self, code: str, redirect_uri: str) -> Grant:
        async with self.db.transaction() as session:
            account_id = await session.scalar(
                update(SandboxCode)
                .where(SandboxCode.code == code, SandboxCode.used_at.is_(None),
                       SandboxCode.expires_at > self.clock(), SandboxCode.redirect_uri == redirect_uri)
                .values(used_at=self.clock()).returning(SandboxCode.account_id))
            if account_id is None:
                raise ProviderRejected("The authorization code is invalid, expired or already used.")
            return await self._issue_token(session, account_id)

    async def refresh(self, access_token: str) -> Grant:
        async with self.db.transaction() as session:
            account = await self._account(session, access_token)
            return await self._issue_token(session, account.id)

    async def profile(self, access_token: str) -> Profile:
        async with self.db.transaction() as session:
            account = await self._account(session, access_token)
            return Profile(id=account.id, username=account.username, account_type=account.account_type,
                           followers=self._followers(account))

    def _followers(self, account: SandboxAccount) -> int:
        return world.grown(account.followers, account.created_at, self.clock(), rate_per_day_percent=1)

    # --- media and comments ------------------------------------------------------------------
    def media_url(self, media_id: str) -> str:
        return f"{self.public_url}/api/instagram/sandbox/media/{media_id}.png"

    def permalink(self, media_id: str) -> str:
        return f"{self.public_url}/api/instagram/sandbox/p/{media_id}"

    async def recent_media(self, access_token: str, limit: int) -> list[Media]:
        now = self.clock()
        async with self.db.transaction() as session:
            account = await self._account(session, access_token)
            rows = (await session.execute(
                select(SandboxMedia, func.count(SandboxComment.id))
                .outerjoin(SandboxComment, SandboxComment.media_id == SandboxMedia.id)
                .where(SandboxMedia.account_id == account.id)
                .group_by(SandboxMedia.id).order_by(SandboxMedia.posted_at.desc()).limit(limit))).all()
        return [Media(id=m.id, media_type=m.media_type, media_url=self.media_url(m.id), permalink=self.permalink(m.id),
                      caption=m.caption, views=world.grown(m.base_views, m.posted_at, now, rate_per_day_percent=8),
                      like_count=world.grown(m.base_likes, m.posted_at, now, rate_per_day_percent=6),
                      comments_count=count, posted_at=m.posted_at) for m, count in rows]

    async def media(self, media_id: str) -> tuple[SandboxMedia, SandboxAccount, list[SandboxComment]] | None:
        """For the sandbox's own post page."""
        async with self.db.transaction() as session:
            m = await session.get(SandboxMedia, media_id)
            if m is None:
                return None
            owner = await session.get(SandboxAccount, m.account_id)
            comments = (await session.scalars(select(SandboxComment).where(SandboxComment.media_id == media_id)
                                              .order_by(SandboxComment.created_at))).all()
            return m, owner, list(comments)

    def _comment(self, c: SandboxComment) -> Comment:
        now = self.clock()
        likes, replies = world.comment_activity(c.id, c.base_likes, c.base_replies, c.created_at, now)
        return Comment(id=c.id, text=c.text, username=c.author, like_count=likes, replies=replies, hidden=c.hidden)

    async def comments(self, access_token: str, media_id: str) -> list[Comment]:
        async with self.db.transaction() as session:
            account = await self._account(session, access_token)
            media = await session.get(SandboxMedia, media_id)
            if media is None or media.account_id != account.id:
                raise ProviderRejected("The media does not exist or does not belong to this account.")
            rows = (await session.scalars(select(SandboxComment).where(SandboxComment.media_id == media_id)
                                          .order_by(SandboxComment.created_at))).all()
        return [self._comment(c) for c in rows]

    async def post_comment(self, access_token: str, media_id: str, text: str) -> str:
        async with self.db.transaction() as session:
            account = await self._account(session, access_token)
            media = await session.get(SandboxMedia, media_id)
            if media is None or media.account_id != account.id:
                raise ProviderRejected("The media does not exist or does not belong to this account.")
            comment_id = numeric_id(self.seed, "posted", secrets.token_hex(8))
            session.add(SandboxComment(id=comment_id, media_id=media_id, author=account.username, text=text,
                                       base_likes=0, base_replies=0, created_at=self.clock()))
            return comment_id

    async def comment_figures(self, access_token: str, comment_id: str) -> CommentFigures:
        async with self.db.transaction() as session:
            await self._account(session, access_token)
            c = await session.get(SandboxComment, comment_id)
        if c is None:
            return CommentFigures(exists=False)
        figures = self._comment(c)
        return CommentFigures(exists=True, likes=figures.like_count, replies=figures.replies, hidden=c.hidden)

    # --- pinning (the instagrapi side) ---------------------------------------------------------
    async def login(self, username: str, password: str, verification_code: str | None) -> str:
        username = username.strip().lstrip("@").lower()
        async with self.db.transaction() as session:
            account = await session.scalar(select(SandboxAccount).where(SandboxAccount.username == username))
            if account is None:
                raise LoginProblem("unknown_user", f"No Instagram account is called @{username}.")
            if password != PASSWORD:
                raise LoginProblem("bad_password", "The Instagram password is wrong. (In the sandbox it is "
                                                   "'sandbox'.)")
            token = secrets.token_urlsafe(32)
            session.add(SandboxSession(session_hash=_hash(token), account_id=account.id))
        return json.dumps({"sandbox_session": token, "username": username})

    async def _session_account(self, session: AsyncSession, blob: str) -> SandboxAccount:
        try:
            token = json.loads(blob)["sandbox_session"]
        except (ValueError, KeyError, TypeError):
            token = ""
        row = await session.get(SandboxSession, _hash(token)) if token else None
        if row is None:
            raise SessionExpired("The Instagram login has expired. Please log in again.")
        return await session.get(SandboxAccount, row.account_id)

    async def _own_comment(self, session: AsyncSession, blob: str, media_id: str, comment_id: str) -> SandboxComment:
        account = await self._session_account(session, blob)
        media = await session.get(SandboxMedia, media_id)
        if media is None or media.account_id != account.id:
            raise ProviderError("Instagram refused: the post does not belong to the logged-in account.")
        comment = await session.get(SandboxComment, comment_id, with_for_update=True)
        if comment is None or comment.media_id != media_id:
            raise ProviderError("Instagram refused: the comment does not exist on this post.")
        return comment

    async def pin(self, session_blob: str, media: MediaRef, comment_id: str) -> None:
        media_id = media.id
        async with self.db.transaction() as session:
            await session.execute(select(SandboxMedia.id).where(SandboxMedia.id == media_id).with_for_update())
            comment = await self._own_comment(session, session_blob, media_id, comment_id)
            if comment.pinned_at is not None:
                return
            pinned = await session.scalar(select(func.count()).where(
                SandboxComment.media_id == media_id, SandboxComment.pinned_at.is_not(None)))
            if pinned >= MAX_PINNED:
                raise ProviderError("Instagram refused: a post can have at most 3 pinned comments.")
            comment.pinned_at = self.clock()

    async def unpin(self, session_blob: str, media: MediaRef, comment_id: str) -> None:
        async with self.db.transaction() as session:
            comment = await self._own_comment(session, session_blob, media.id, comment_id)
            comment.pinned_at = None

    async def act_as_owner(self, media_id: str, comment_id: str, action: str, signed_in: str | None) -> None:
        """What the post's owner does in the Instagram app: pin, unpin, hide, unhide or delete a comment. Only the
        owner's own session (`signed_in`, the sandbox account its browser is signed in as) may; anyone else is
        refused, as the app shows these actions only to the post's owner."""
        async with self.db.transaction() as session:
            media = await session.get(SandboxMedia, media_id, with_for_update=True)
            comment = await session.get(SandboxComment, comment_id, with_for_update=True)
            if media is None or comment is None or comment.media_id != media_id:
                raise ProviderRejected("The comment does not exist on this post.")
            if signed_in is None or signed_in != media.account_id:
                raise NotOwner("Only the post's owner, signed in to this sandbox Instagram, can pin, unpin, hide "
                               "or delete its comments. Connect this account to Pinbid from this browser to sign "
                               "in as its owner.")
            if action == "pin" and comment.pinned_at is None:
                pinned = await session.scalar(select(func.count()).where(
                    SandboxComment.media_id == media_id, SandboxComment.pinned_at.is_not(None)))
                if pinned >= MAX_PINNED:
                    raise ProviderRejected("A post can have at most 3 pinned comments: unpin one first.")
                comment.pinned_at = self.clock()
            elif action == "unpin":
                comment.pinned_at = None
            elif action in ("hide", "unhide"):
                comment.hidden = action == "hide"
            elif action == "delete":
                await session.delete(comment)

    async def pinned_comment_ids(self, session_blob: str, media: MediaRef) -> set[str]:
        async with self.db.transaction() as session:
            await self._session_account(session, session_blob)
            return set((await session.scalars(select(SandboxComment.id).where(
                SandboxComment.media_id == media.id, SandboxComment.pinned_at.is_not(None)))).all())
