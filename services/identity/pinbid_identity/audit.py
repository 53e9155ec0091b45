"""The audit log: every operator action of every service, appended from their `*.operator.acted.v1` events."""

from pinbid_kit.envelope import Envelope
from pinbid_kit.events.trust import OperatorAction
from sqlalchemy import select
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.ext.asyncio import AsyncSession

from .models import AuditEntry, User


async def record(session: AsyncSession, action: OperatorAction, envelope: Envelope) -> None:
    """One row per action: the inbox skips a redelivered event, and the action's id as the key keeps a replayed
    outbox row (a new event id) from adding a second one."""
    email = await session.scalar(select(User.email).where(User.id == action.operator_id))
    await session.execute(insert(AuditEntry).values(
        id=action.action_id, source=envelope.source, operator_id=action.operator_id, operator_email=email,
        action=action.action, object_type=action.object_type, object_id=action.object_id, reason=action.reason,
        acted_at=action.acted_at).on_conflict_do_nothing(index_elements=[AuditEntry.id]))
