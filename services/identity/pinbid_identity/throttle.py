"""Failed-login counters in identity's database (the rules are in domain/throttle.py)."""

from dataclasses import dataclass
from datetime import UTC, datetime

from pinbid_kit.db import Database
from pinbid_kit.errors import TooManyRequests
from sqlalchemy import delete, or_
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.ext.asyncio import AsyncSession

from .domain.throttle import Limit, LoginPolicy, email_key, login_limits, pair_key, pair_prefix
from .models import LoginThrottle

TOO_MANY = "Too many login attempts. Please wait a few minutes and try again."


@dataclass(frozen=True)
class Attempt:
    email: str
    client: str
    limits: list[Limit]
    windows: dict[str, datetime]


class FailedLogins:
    def __init__(self, db: Database, policy: LoginPolicy):
        self.db = db
        self.policy = policy

    async def begin(self, email: str, client: str) -> Attempt:
        """Count the attempt as a failure before the password is checked, so that concurrent guesses see
        each other; an attempt beyond a limit is refused with 429 and not counted."""
        now = datetime.now(UTC)
        limits = login_limits(self.policy, email, client)
        attempt = Attempt(email, client, limits, {limit.key: limit.window_start(now) for limit in limits})
        async with self.db.transaction() as session:
            counts = await _add(session, attempt, 1)
        exceeded = [limit for limit in limits if counts[limit.key] > limit.allowed]
        if exceeded:
            await self._uncount(attempt)
            raise TooManyRequests(TOO_MANY, retry_after=max(limit.seconds_left(now) for limit in exceeded))
        return attempt

    async def succeeded(self, attempt: Attempt) -> None:
        """A successful login counts toward nothing, and the owner's own earlier typos from this
        client are forgotten. (Other counters stay: logging in to one's own account must not wipe
        the failures a client made against others.)"""
        async with self.db.transaction() as session:
            await _add(session, attempt, -1)
            await session.execute(delete(LoginThrottle).where(
                LoginThrottle.key == pair_key(attempt.email, attempt.client)))

    async def withdraw(self, attempt: Attempt) -> None:
        """The attempt counts for nothing (an operator's right password sent before its second factor)."""
        await self._uncount(attempt)

    async def _uncount(self, attempt: Attempt) -> None:
        async with self.db.transaction() as session:
            await _add(session, attempt, -1)


async def forget_email(session: AsyncSession, email: str) -> None:
    """After a password reset the owner starts afresh: no counter of this email holds them back."""
    await session.execute(delete(LoginThrottle).where(or_(
        LoginThrottle.key == email_key(email), LoginThrottle.key.startswith(pair_prefix(email), autoescape=True))))


async def _add(session: AsyncSession, attempt: Attempt, delta: int) -> dict[str, int]:
    """One statement for all counters of an attempt, in key order, so concurrent attempts lock rows
    in the same order and never deadlock."""
    statement = insert(LoginThrottle).values([
        {"key": limit.key, "window_start": attempt.windows[limit.key], "count": delta} for limit in attempt.limits])
    statement = statement.on_conflict_do_update(
        index_elements=["key", "window_start"], set_={"count": LoginThrottle.count + statement.excluded.count},
    ).returning(LoginThrottle.key, LoginThrottle.count)
    return dict((await session.execute(statement)).tuples().all())
