"""Small helpers the use-case modules share."""

import logging
import uuid
from collections.abc import Awaitable
from decimal import Decimal
from typing import TypeVar

from pinbid_kit import outbox
from pinbid_kit.envelope import Envelope
from pinbid_kit.errors import BadGateway, InstagramUnauthorized
from pinbid_kit.events import EventData
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from .models import Connection
from .ports import ProviderError, ProviderRejected

log = logging.getLogger("pinbid.social")
SOURCE = "social"
T = TypeVar("T")




async def publish_all(session: AsyncSession, events: list[EventData]) -> list[Envelope]:
    return await outbox.publish_all(session, events, source=SOURCE)



def handle(username: str) -> str:
    return username.strip().lstrip("@").casefold()


def engagement(value: Decimal) -> Decimal:
    return Decimal(value).quantize(Decimal("0.01"))


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
