"""The integration events identity announces, built from its rows and recorded in the session's transaction."""

import uuid
from datetime import datetime

from pinbid_kit import outbox
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
from pinbid_kit.events.trust import signal_hash
from sqlalchemy.ext.asyncio import AsyncSession

from . import SERVICE
from .models import Notification, User


async def user_registered(session: AsyncSession, user: User) -> None:
    await outbox.publish(session, UserRegistered(
        user_id=user.id, email=user.email, name=user.name, role=user.role,
        instagram_handle=user.instagram_handle, business_name=user.business_name), source=SERVICE)


async def user_updated(session: AsyncSession, user: User) -> None:
    await outbox.publish(session, UserUpdated(user_id=user.id, email=user.email, name=user.name, role=user.role),
                         source=SERVICE)


async def sessions_revoked(session: AsyncSession, user: User) -> None:
    await outbox.publish(session, SessionsRevoked(user_id=user.id, token_version=user.token_version),
                         source=SERVICE)


def notification_created(note: Notification, unread_count: int) -> NotificationCreated:
    return NotificationCreated(
        notification_id=note.id, user_id=note.user_id, kind=note.kind, title=note.title, message=note.message,
        link=note.link, created_at=note.created_at, unread_count=unread_count)


async def notifications_created(session: AsyncSession, events: list[NotificationCreated]) -> None:
    """The notices of one event or job run, in one outbox write."""
    await outbox.publish_all(session, events, source=SERVICE)


async def user_suspended(session: AsyncSession, user: User, operator_id: uuid.UUID, action_id: uuid.UUID) -> None:
    """The suspension, the revocation of the user's tokens and the operator's action, in one outbox write."""
    assert user.suspended_at is not None and user.suspended_reason is not None
    await outbox.publish_all(session, [
        UserSuspended(user_id=user.id, reason=user.suspended_reason, operator_id=operator_id,
                      suspended_at=user.suspended_at),
        SessionsRevoked(user_id=user.id, token_version=user.token_version),
        operator_action(action_id, operator_id, "user.suspend", user.id, user.suspended_reason, user.suspended_at),
    ], source=SERVICE)


async def user_restored(session: AsyncSession, user: User, operator_id: uuid.UUID, action_id: uuid.UUID,
                        reason: str, restored_at: datetime) -> None:
    await outbox.publish_all(session, [
        UserRestored(user_id=user.id, reason=reason, operator_id=operator_id, restored_at=restored_at),
        operator_action(action_id, operator_id, "user.restore", user.id, reason, restored_at),
    ], source=SERVICE)


def operator_action(action_id: uuid.UUID, operator_id: uuid.UUID, action: str, user_id: uuid.UUID, reason: str,
                    acted_at: datetime) -> IdentityOperatorAction:
    return IdentityOperatorAction(action_id=action_id, operator_id=operator_id, action=action, object_type="user",
                                  object_id=str(user_id), reason=reason, acted_at=acted_at)


async def signals_observed(session: AsyncSession, user_id: uuid.UUID, observed: dict[str, str],
                           at: datetime) -> None:
    """`observed`: kind (EMAIL, DEVICE, ADDRESS) -> the raw value, hashed here (a value that is no signal is left
    out)."""
    signals = [IdentityAccountSignal(user_id=user_id, kind=kind, value_hash=value_hash, observed_at=at)
               for kind, value in observed.items() if (value_hash := signal_hash(kind, value)) is not None]
    if signals:
        await outbox.publish_all(session, signals, source=SERVICE)
