"""FastAPI dependencies that turn the Bearer token into a Principal, per the status contract:
a missing, invalid, expired or revoked token, or the wrong role, is a 403.

The routes take `SignedIn`, `Influencer`, `Buyer` or `Operator`; the token verifier is the app's `state.verifier`
(see `create_app(state=...)`), so a test can replace any of the three with `app.dependency_overrides`."""

from typing import Annotated

from fastapi import Depends, Request

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


def _of_role(principal: Principal, role: str) -> Principal:
    if principal.role != role:
        raise Forbidden("This page is not available for your account type.", code="wrong_role")
    return principal


# async: no thread hop per request
async def signed_in(request: Request) -> Principal:
    return principal_from(request, request.app.state.verifier)


async def influencer(request: Request) -> Principal:
    return _of_role(principal_from(request, request.app.state.verifier), "INFLUENCER")


async def buyer(request: Request) -> Principal:
    return _of_role(principal_from(request, request.app.state.verifier), "BUYER")


async def operator(request: Request) -> Principal:
    return _of_role(principal_from(request, request.app.state.verifier), "OPERATOR")


SignedIn = Annotated[Principal, Depends(signed_in)]
Influencer = Annotated[Principal, Depends(influencer)]
Buyer = Annotated[Principal, Depends(buyer)]
Operator = Annotated[Principal, Depends(operator)]
