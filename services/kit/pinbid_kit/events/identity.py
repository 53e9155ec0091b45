import uuid
from typing import Literal

from .catalog import EventData, event


@event("identity.user.registered.v1")
class UserRegistered(EventData):
    """A person signed up."""

    user_id: uuid.UUID
    email: str
    name: str
    role: Literal["INFLUENCER", "BUYER"]
    instagram_handle: str | None = None
    business_name: str | None = None


@event("identity.user.updated.v1")
class UserUpdated(EventData):
    """A user's name or email changed."""

    user_id: uuid.UUID
    email: str
    name: str
    role: Literal["INFLUENCER", "BUYER"]


@event("identity.user.sessions_revoked.v1")
class SessionsRevoked(EventData):
    """Every token of the user with a version below `tokenVersion` is no longer valid (password change or reset)."""

    user_id: uuid.UUID
    token_version: int
