"""FastAPI dependencies that turn the Bearer token into a Principal, per the status contract:
a missing, invalid, expired or revoked token, or the wrong role, is a 403."""

from collections.abc import Callable

from fastapi import Request

from .errors import Forbidden
from .tokens import InvalidToken, Principal, RevokedToken, TokenVerifier

SIGN_IN_AGAIN = "Your session has expired. Please sign in again."


def bearer_token(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


def principal_from(request: Request, verifier: TokenVerifier) -> Principal:
    token = bearer_token(request)
    if token is None:
        raise Forbidden("Please sign in to continue.", code="not_signed_in")
    try:
        return verifier.verify(token)
    except RevokedToken:
        raise Forbidden(SIGN_IN_AGAIN, code="token_revoked") from None
    except InvalidToken:
        raise Forbidden(SIGN_IN_AGAIN, code="invalid_token") from None


def require(verifier: TokenVerifier, role: str | None = None) -> Callable[[Request], Principal]:
    """A dependency: the signed-in principal, optionally of one role."""

    async def dependency(request: Request) -> Principal:  # async: no thread hop per request
        principal = principal_from(request, verifier)
        if role is not None and principal.role != role:
            raise Forbidden("This page is not available for your account type.", code="wrong_role")
        return principal

    return dependency
