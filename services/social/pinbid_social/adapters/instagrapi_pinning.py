"""Pinning through instagrapi (Instagram's private API): the official API cannot pin a comment.

The login uses the password once; only `client.get_settings()` (the session) is returned, for the
caller to keep encrypted. instagrapi is synchronous: every call runs in a thread under a timeout,
so a provider that hangs never hangs a request."""

import asyncio
import json
import logging
from collections.abc import Callable
from typing import Any

from instagrapi import exceptions as ig

from ..ports import LoginProblem, MediaRef, ProviderError, SessionExpired

log = logging.getLogger("pinbid.social.instagrapi")

TWO_FACTOR = ("Instagram asks for a two-factor code. Enter the code from your authenticator app or the SMS "
              "Instagram sent you, then log in again.")
CHALLENGE = ("Instagram wants to confirm it is you. Open the Instagram app, approve the login (\"This was me\"), "
             "then log in here again.")
BAD_PASSWORD = "The Instagram password is wrong. Please check it and try again."
RATE_LIMITED = "Instagram asks to wait a few minutes before the next login attempt."


BAD_CODE = "Instagram did not accept the two-factor code. Enter the current code and try again."
# what Instagram answers to a wrong code on `accounts/two_factor_login/` (instagrapi raises UnknownError)
_BAD_CODE_TYPES = {"sms_code_validation_code_invalid", "invalid_verification_code", "invalid_nonce"}


def login_problem(exc: Exception) -> LoginProblem | ProviderError:
    """instagrapi's exceptions in words a creator can act on."""
    if isinstance(exc, ig.ClientError) and getattr(exc, "error_type", "") in _BAD_CODE_TYPES:
        return LoginProblem("bad_verification_code", BAD_CODE)
    if isinstance(exc, ig.TwoFactorRequired):
        return LoginProblem("two_factor_required", TWO_FACTOR)
    if isinstance(exc, ig.ChallengeError | ig.ChallengeRequired | ig.SelectContactPointRecoveryForm |
                  ig.RecaptchaChallengeForm | ig.SubmitPhoneNumberForm):
        return LoginProblem("challenge_required", CHALLENGE)
    if isinstance(exc, ig.BadPassword):
        return LoginProblem("bad_password", BAD_PASSWORD)
    if isinstance(exc, ig.BadCredentials | ig.UserNotFound):
        return LoginProblem("unknown_user", "Instagram does not know this username. Please check it.")
    if isinstance(exc, ig.PleaseWaitFewMinutes | ig.RateLimitError | ig.ClientThrottledError):
        return LoginProblem("rate_limited", RATE_LIMITED)
    if isinstance(exc, ig.AccountSuspended):
        return LoginProblem("challenge_required", "Instagram has suspended this account; resolve it in the app.")
    return ProviderError("Instagram refused the login for a reason it did not explain. Please try again later.")


def action_problem(exc: Exception) -> ProviderError:
    if isinstance(exc, ig.LoginRequired | ig.ClientLoginRequired | ig.ReloginAttemptExceeded | ig.ChallengeError):
        return SessionExpired("The Instagram login has expired. Please log in again.")
    if isinstance(exc, ig.MediaNotFound | ig.NotFoundError | ig.ClientNotFoundError | ig.MediaUnavailable):
        return ProviderError("Instagram says the post or the comment no longer exists.")
    if isinstance(exc, ig.PleaseWaitFewMinutes | ig.RateLimitError | ig.ClientThrottledError):
        return ProviderError("Instagram is limiting requests right now. Please try again in a few minutes.")
    return ProviderError(f"Instagram refused the request ({type(exc).__name__}).")


def default_client(delay: float) -> Any:
    """instagrapi's `request_timeout` is its pause before every private call after the login.

    instagrapi answers a challenge by default by trying to resolve it and asking for the code with
    `input()`: in a server that blocks a worker thread (or fails on a closed stdin). The challenge is
    raised instead, and the creator approves the login in the Instagram app."""
    from instagrapi import Client

    client = Client(request_timeout=delay)
    client.delay_range = [0, 0]
    client.with_challenge_flow = False
    client.challenge_code_handler = lambda username, choice: ""  # no code here: raise ChallengeRequired
    return client


class InstagrapiPinning:
    """Implements `Pinning`. `client_factory` makes an instagrapi `Client` (tests inject their own)."""

    def __init__(self, *, timeout: float, delay: float = 0.0, client_factory: Callable[[], Any] | None = None):
        self.timeout = timeout
        self.client_factory = client_factory or (lambda: default_client(delay))

    async def _run(self, fn: Callable[[], Any]) -> Any:
        try:
            return await asyncio.wait_for(asyncio.to_thread(fn), timeout=self.timeout)
        except TimeoutError:
            raise ProviderError("Instagram did not answer in time. Please try again.") from None

    async def login(self, username: str, password: str, verification_code: str | None) -> str:
        def work() -> str:
            client = self.client_factory()
            client.login(username, password, verification_code=verification_code or "")
            return json.dumps(client.get_settings())

        try:
            return await self._run(work)
        except (LoginProblem, ProviderError):
            raise
        except Exception as exc:
            log.info("instagram login failed: %s", type(exc).__name__)  # never the password or the session
            raise login_problem(exc) from None

    def _client(self, session: str) -> Any:
        client = self.client_factory()
        client.set_settings(json.loads(session))
        return client

    async def _act(self, session: str, fn: Callable[[Any], Any]) -> Any:
        def work() -> Any:
            return fn(self._client(session))

        try:
            return await self._run(work)
        except ProviderError:
            raise
        except Exception as exc:
            log.info("instagram action failed: %s", type(exc).__name__)
            raise action_problem(exc) from None

    async def pin(self, session: str, media: MediaRef, comment_id: str) -> None:
        def pin(client: Any) -> bool:
            return client.comment_pin(client.media_pk_from_url(media.permalink), int(comment_id))

        if not await self._act(session, pin):
            raise ProviderError("Instagram did not confirm the pin.")

    async def unpin(self, session: str, media: MediaRef, comment_id: str) -> None:
        def unpin(client: Any) -> bool:
            return client.comment_unpin(client.media_pk_from_url(media.permalink), int(comment_id))

        if not await self._act(session, unpin):
            raise ProviderError("Instagram did not confirm the unpin.")

    async def pinned_comment_ids(self, session: str, media: MediaRef) -> set[str]:
        """Reads the post's comments from the private API; pinned ones carry `is_pinned` (an
        assumption about the private response shape, see DECISIONS.md)."""

        def read(client: Any) -> set[str]:
            pk = client.media_pk_from_url(media.permalink)
            body = client.private_request(f"media/{pk}/comments/", params={"can_support_threading": "true"})
            return {str(c.get("pk")) for c in body.get("comments", []) if c.get("is_pinned")}

        return await self._act(session, read)
