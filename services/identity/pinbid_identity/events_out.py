"""The integration events identity announces, built from its rows and recorded in the session's transaction."""

from pinbid_kit import outbox
from pinbid_kit.events.identity import NotificationCreated, SessionsRevoked, UserRegistered, UserUpdated
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
