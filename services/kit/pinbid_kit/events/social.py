import uuid
from decimal import Decimal

from .catalog import EventData, event


class CreatorProfile(EventData):
    followers: int
    avg_views: int
    avg_engagement: Decimal
    verified: bool


@event("social.account.connected.v1")
class AccountConnected(EventData):
    """A user connected an Instagram account."""

    user_id: uuid.UUID
    instagram_id: str
    username: str
    profile: CreatorProfile


@event("social.account.updated.v1")
class AccountUpdated(EventData):
    """The statistics or name of a connected Instagram account changed."""

    user_id: uuid.UUID
    instagram_id: str
    username: str
    profile: CreatorProfile


@event("social.account.disconnected.v1")
class AccountDisconnected(EventData):
    """A user disconnected their Instagram account (or its token could no longer be refreshed)."""

    user_id: uuid.UUID
