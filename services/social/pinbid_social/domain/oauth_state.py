"""The OAuth `state`: user id + expiry + nonce, signed with HMAC-SHA256. It expires, and the service
records each nonce when it is used, so a state works once."""

import base64
import hashlib
import hmac
import uuid
from dataclasses import dataclass


class StateRejected(Exception):
    """Why a state cannot be accepted: `reason` is a short machine word for the redirect's ?error=."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class OAuthState:
    user_id: uuid.UUID
    expires_at: int  # unix seconds
    nonce: str


def _mac(key: bytes, payload: str) -> str:
    digest = hmac.new(key, payload.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def sign_state(key: bytes, state: OAuthState) -> str:
    payload = f"{state.user_id.hex}.{state.expires_at}.{state.nonce}"
    return f"{payload}.{_mac(key, payload)}"


def read_state(key: bytes, value: str, *, now: int) -> OAuthState:
    """The state's content if it is ours and unexpired; raises StateRejected otherwise."""
    parts = (value or "").split(".")
    if len(parts) != 4:
        raise StateRejected("invalid_state")
    user_hex, expires, nonce, mac = parts
    if not hmac.compare_digest(_mac(key, f"{user_hex}.{expires}.{nonce}"), mac):
        raise StateRejected("invalid_state")
    try:
        state = OAuthState(uuid.UUID(hex=user_hex), int(expires), nonce)
    except ValueError:
        raise StateRejected("invalid_state") from None
    if now >= state.expires_at:
        raise StateRejected("expired_state")
    return state
