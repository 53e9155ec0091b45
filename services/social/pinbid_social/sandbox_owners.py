"""The sandbox Instagram's owner cookie: the browser that connected a sandbox account is its owner on the sandbox's
post page (it may pin, hide and delete comments there, as the account's owner does in the Instagram app), only
while that connection lasts. Only with the sandbox provider."""

import uuid

from pinbid_kit.clock import Clock
from pinbid_kit.db import Database
from sqlalchemy import select

from .connections import Connected
from .domain.sandbox_owner import read_owner, sign_owner
from .models import Connection


class SandboxOwners:
    def __init__(self, db: Database, provider_name: str, key: bytes, clock: Clock):
        self.db = db
        self.provider_name = provider_name
        self.key = key
        self.clock = clock

    def cookie(self, connected: Connected) -> str:
        """The cookie that signs the connecting browser in as the sandbox account's owner, for this connection."""
        return sign_owner(self.key, connected.instagram_id, connected.connection_id.hex,
                          now=int(self.clock().timestamp()))

    async def owner(self, cookie: str | None) -> str | None:
        """The sandbox account a browser's owner cookie signs in: only while that account's current connection to
        Pinbid is the one the cookie came from (not after a disconnect, nor after any reconnection)."""
        signed = read_owner(self.key, cookie, now=int(self.clock().timestamp()))
        if signed is None:
            return None
        try:
            connection_id = uuid.UUID(hex=signed.connection_id)
        except ValueError:
            return None
        async with self.db.transaction() as session:
            current = await session.scalar(select(Connection.user_id).where(
                Connection.provider == self.provider_name, Connection.instagram_id == signed.account_id,
                Connection.connection_id == connection_id))
        return signed.account_id if current is not None else None
