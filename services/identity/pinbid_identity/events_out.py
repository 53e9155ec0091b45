"""The integration events identity announces, built from its rows. Each function only builds: the use case that
causes them collects its events and writes them once, in its own transaction (`outbox.publish_all`)."""

import uuid
from datetime import datetime

from pinbid_kit.events.identity import (
    IdentityAccountSignal,
    IdentityOperatorAction,
    NotificationCreated,
    SessionsRevoked,
    UserRegistered,
    UserRestored,
    UserSuspended,
    UserUpdated,
)

from .models import Notification, User


def user_registered(user: User) -> UserRegistered:
    return UserRegistered(user_id=user.id, email=user.email, name=user.name, role=user.role,
                          instagram_handle=user.instagram_handle, business_name=user.business_name)


def user_updated(user: User) -> UserUpdated:
    return UserUpdated(user_id=user.id, email=user.email, name=user.name, role=user.role)


def sessions_revoked(user: User) -> SessionsRevoked:
    return SessionsRevoked(user_id=user.id, token_version=user.token_version)


def notification_created(note: Notification, unread_count: int) -> NotificationCreated:
    return NotificationCreated(
        notification_id=note.id, user_id=note.user_id, kind=note.kind, title=note.title, message=note.message,
        link=note.link, created_at=note.created_at, unread_count=unread_count)


def user_suspended(user: User, operator_id: uuid.UUID,
                   action_id: uuid.UUID) -> list[UserSuspended | SessionsRevoked | IdentityOperatorAction]:
    """The suspension, the revocation of the user's tokens and the operator's action."""
    assert user.suspended_at is not None and user.suspended_reason is not None
    return [
        UserSuspended(user_id=user.id, reason=user.suspended_reason, operator_id=operator_id,
                      suspended_at=user.suspended_at),
        sessions_revoked(user),
        operator_action(action_id, operator_id, "user.suspend", user.id, user.suspended_reason, user.suspended_at),
    ]


def user_restored(user: User, operator_id: uuid.UUID, action_id: uuid.UUID, reason: str,
                  restored_at: datetime) -> list[UserRestored | IdentityOperatorAction]:
    return [
        UserRestored(user_id=user.id, reason=reason, operator_id=operator_id, restored_at=restored_at),
        operator_action(action_id, operator_id, "user.restore", user.id, reason, restored_at),
    ]


def operator_action(action_id: uuid.UUID, operator_id: uuid.UUID, action: str, user_id: uuid.UUID, reason: str,
                    acted_at: datetime) -> IdentityOperatorAction:
    return IdentityOperatorAction(action_id=action_id, operator_id=operator_id, action=action, object_type="user",
                                  object_id=str(user_id), reason=reason, acted_at=acted_at)


def signals_observed(user_id: uuid.UUID, observed: dict[str, str], at: datetime) -> list[IdentityAccountSignal]:
    """`observed`: kind (EMAIL, DEVICE, ADDRESS) -> the raw value, hashed here (a value that is no signal is left
    out)."""
    return IdentityAccountSignal.observed(user_id, observed.items(), at)
