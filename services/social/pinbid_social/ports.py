"""The ports to Instagram. The sandbox and the real adapters implement the same two protocols:
`InstagramApi` (the official API with Instagram Login) and `Pinning` (instagrapi sessions)."""

from dataclasses import dataclass
from datetime import datetime
from typing import Protocol


class ProviderError(Exception):
    """The provider failed or did not answer in time. `detail` is safe to show to a person."""

    def __init__(self, detail: str):
        super().__init__(detail)
        self.detail = detail


class ProviderRejected(ProviderError):
    """The provider refused the request (an unknown or used code, a revoked token, a missing object)."""

    def __init__(self, detail: str, *, status: int = 400, missing: bool = False):
        super().__init__(detail)
        self.status = status
        self.missing = missing  # the object asked for does not exist (any more)


class SessionExpired(ProviderError):
    """The pinning session is no longer valid: the creator must log in again."""


class LoginProblem(Exception):
    """The pinning login needs something from the person. `kind`: bad_password, two_factor_required,
    bad_verification_code, challenge_required, unknown_user, rate_limited."""

    def __init__(self, kind: str, detail: str):
        super().__init__(detail)
        self.kind = kind
        self.detail = detail


@dataclass(frozen=True)
class Grant:
    access_token: str
    expires_at: datetime
    instagram_user_id: str


@dataclass(frozen=True)
class Profile:
    id: str
    username: str
    account_type: str
    followers: int


@dataclass(frozen=True)
class Media:
    id: str
    media_type: str
    media_url: str
    permalink: str
    caption: str
    views: int
    like_count: int
    comments_count: int
    posted_at: datetime | None


@dataclass(frozen=True)
class MediaRef:
    id: str
    permalink: str


@dataclass(frozen=True)
class Comment:
    id: str
    text: str
    username: str
    like_count: int = 0
    replies: int = 0
    hidden: bool = False


@dataclass(frozen=True)
class CommentFigures:
    exists: bool
    likes: int = 0
    replies: int = 0
    hidden: bool = False  # hidden by the account (the Graph API's `hidden`): on the post, seen by nobody else


class InstagramApi(Protocol):
    def authorize_url(self, *, state: str, redirect_uri: str, login_hint: str | None) -> str: ...

    async def exchange_code(self, code: str, redirect_uri: str) -> Grant:
        """The code for a long-lived token."""

    async def refresh(self, access_token: str) -> Grant: ...

    async def profile(self, access_token: str) -> Profile: ...

    async def recent_media(self, access_token: str, limit: int) -> list[Media]: ...

    async def comments(self, access_token: str, media_id: str) -> list[Comment]: ...

    async def post_comment(self, access_token: str, media_id: str, text: str) -> str:
        """Posts on the token owner's own media; returns the new comment's id."""

    async def comment_figures(self, access_token: str, comment_id: str) -> CommentFigures: ...


class Pinning(Protocol):
    async def login(self, username: str, password: str, verification_code: str | None) -> str:
        """A session (serialized settings) to keep encrypted; the password is not kept anywhere."""

    # The official API's media id and the private API's media pk differ: adapters that need the pk
    # derive it from the permalink.
    async def pin(self, session: str, media: MediaRef, comment_id: str) -> None: ...

    async def unpin(self, session: str, media: MediaRef, comment_id: str) -> None: ...

    async def pinned_comment_ids(self, session: str, media: MediaRef) -> set[str]: ...


class LinkReputation(Protocol):
    """Whether a web address is known to be unsafe (malware, phishing, unwanted software)."""

    async def threat(self, url: str, host: str) -> str | None:
        """The kind of threat the address is known for, or None. Raises ProviderError when it cannot tell now."""
        ...
