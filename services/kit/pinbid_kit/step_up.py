"""Step-up: a sensitive change (the payout account, the email, the password, a way to sign in) needs a second
factor proved in the last few minutes when the account has one on.

Identity signs the proof into the session token (`sf`, epoch seconds, and `mf`, "a factor is on"), so any service
checks it from the token alone, with no call to identity (docs/decisions/identity-and-sessions.md)."""

import time
from typing import Annotated

from fastapi import Depends, Request

from .auth import influencer, signed_in
from .errors import ApiError
from .tokens import Principal

STEP_UP_SECONDS = 300
STEP_UP_NEEDED = "Confirm it's you: enter a code from your authenticator app, or use a passkey."


class StepUpRequired(ApiError):
    """401, never 403 (which would sign the web out): the web asks for a code or a passkey, gets a fresh token from
    `POST /auth/step-up` and sends the call again."""

    status = 401
    code = "step_up_required"

    def __init__(self) -> None:
        super().__init__(STEP_UP_NEEDED)


def fresh_until(principal: Principal) -> int | None:
    """Until when (epoch seconds) the session counts as freshly confirmed; None when it never proved a factor."""
    if principal.second_factor_at is None:
        return None
    return principal.second_factor_at + STEP_UP_SECONDS


def require_fresh_second_factor(principal: Principal, now: float | None = None) -> Principal:
    """Passes when the account has no second factor on, or the session proved one within STEP_UP_SECONDS."""
    if not principal.second_factor_on:
        return principal
    until = fresh_until(principal)
    if until is None or (now if now is not None else time.time()) > until:
        raise StepUpRequired()
    return principal


async def _fresh(request: Request) -> Principal:
    return require_fresh_second_factor(await signed_in(request))


async def _fresh_influencer(request: Request) -> Principal:
    return require_fresh_second_factor(await influencer(request))


FreshlyConfirmed = Annotated[Principal, Depends(_fresh)]
FreshInfluencer = Annotated[Principal, Depends(_fresh_influencer)]
