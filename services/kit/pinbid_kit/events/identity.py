import uuid
from datetime import datetime
from typing import Literal

from .catalog import EventData, event
from .trust import AccountSignal, OperatorAction


@event("identity.user.registered.v1")
class UserRegistered(EventData):
    """A person signed up."""

    user_id: uuid.UUID
    email: str
    name: str
    role: Literal["INFLUENCER", "BUYER", "OPERATOR"]
    instagram_handle: str | None = None
    business_name: str | None = None


@event("identity.user.updated.v1")
class UserUpdated(EventData):
    """A user's name or email changed."""

    user_id: uuid.UUID
    email: str
    name: str
    role: Literal["INFLUENCER", "BUYER", "OPERATOR"]


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


@event("identity.user.suspended.v1")
class UserSuspended(EventData):
    """An operator suspended a user: its tokens are revoked (a SessionsRevoked goes with it), marketplace withdraws
    its open bids and closes its open slots without sale, and it is told why."""

    user_id: uuid.UUID
    reason: str
    operator_id: uuid.UUID
    suspended_at: datetime


@event("identity.user.restored.v1")
class UserRestored(EventData):
    """An operator lifted a user's suspension; the user can sign in again."""

    user_id: uuid.UUID
    reason: str
    operator_id: uuid.UUID
    restored_at: datetime


@event("identity.operator.acted.v1")
class IdentityOperatorAction(OperatorAction):
    """An operator acted in identity (suspended or restored a user, ...): for the audit log."""


@event("identity.account.signal_observed.v1")
class IdentityAccountSignal(AccountSignal):
    """A user signed up or in with an email (EMAIL), from a device (DEVICE) or a network address (ADDRESS), or
    changed its email (EMAIL), for finding associated accounts."""
