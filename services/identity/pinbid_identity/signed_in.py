"""The signed-in user's row, for the use cases that change it: refused when the session's token is older than the
account's last sign-out everywhere (a password change, a second factor turned on or off, a suspension)."""

from pinbid_kit.errors import Forbidden
from pinbid_kit.tokens import Principal
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from .models import User

SIGNED_OUT = "Your session has expired. Please sign in again."


async def signed_in_user(session: AsyncSession, principal: Principal, *, lock: bool = False) -> User:
    """`lock`: the row is held for the transaction (changes to the account queue on it)."""
    query = select(User).where(User.id == principal.user_id)
    user = await session.scalar(query.with_for_update() if lock else query)
    if user is None or principal.token_version < user.token_version:
        raise Forbidden(SIGNED_OUT, code="invalid_token")
    return user
