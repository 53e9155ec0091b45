"""The creator's pinning login (the Instagram session Pinbid pins with, kept sealed) and how the creator pins:
Pinbid with that login (SESSION) or the creator in the Instagram app (MANUAL, Settings -> Instagram Integration)."""

import uuid

from pinbid_kit.clock import Clock
from pinbid_kit.db import Database
from pinbid_kit.errors import BadGateway, Conflict, Invalid, TooManyRequests
from pinbid_kit.secrets import SecretBox
from sqlalchemy.dialects.postgresql import insert

from .adapters import Providers
from .connections import connection_of
from .models import PinSession
from .pins import handle
from .ports import LoginProblem, ProviderError


class PinLogin:
    def __init__(self, db: Database, providers: Providers, box: SecretBox, *, clock: Clock):
        self.db = db
        self.providers = providers
        self.box = box
        self.clock = clock

    async def login(self, user_id: uuid.UUID, username: str, password: str, code: str | None) -> str:
        async with self.db.transaction() as session:
            connection = await connection_of(session, user_id)
        if connection is None:
            raise Conflict("Connect your Instagram account first, then log in to pin comments.",
                           code="instagram_not_connected")
        if handle(username) != handle(connection.username):
            raise Invalid(f"Log in with the connected Instagram account @{connection.username}.", field="username")
        try:
            session_blob = await self.providers.pinning.login(connection.username, password, code)
        except LoginProblem as problem:
            if problem.kind == "rate_limited":
                raise TooManyRequests(problem.detail, retry_after=300) from None
            if problem.kind == "challenge_required":
                raise Conflict(problem.detail, code=problem.kind) from None
            field = {"two_factor_required": "verificationCode", "bad_verification_code": "verificationCode",
                     "unknown_user": "username"}.get(problem.kind, "password")
            raise Invalid(problem.detail, field=field, code=problem.kind) from None
        except ProviderError as failed:
            raise BadGateway(f"Could not log in to Instagram: {failed.detail}", code="instagram_error") from None
        sealed = self.box.seal(session_blob)
        async with self.db.transaction() as session:
            values = {"username": connection.username, "session": sealed, "created_at": self.clock()}
            await session.execute(insert(PinSession).values(user_id=user_id, **values)
                                  .on_conflict_do_update(index_elements=[PinSession.user_id], set_=values))
        return connection.username

    async def set_method(self, creator_id: uuid.UUID, method: str) -> str:
        async with self.db.transaction() as session:
            connection = await connection_of(session, creator_id)
            if connection is None:
                raise Conflict("Connect your Instagram account first.", code="instagram_not_connected")
            connection.pin_method = method
        return method
