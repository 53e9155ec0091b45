import uuid
from datetime import datetime
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


@event("identity.notification.created.v1")
class NotificationCreated(EventData):
    """A user got a new in-app notice. `kind` names what happened (e.g. `bid.outbid`, `payment.reminder`);
    `link` is the web screen the notice points to (e.g. `/app/buyer/bids`); `unreadCount` is the user's unread
    notices including this one."""

    notification_id: uuid.UUID
    user_id: uuid.UUID
    kind: str
    title: str
    message: str
    link: str | None = None
    created_at: datetime
    unread_count: int
