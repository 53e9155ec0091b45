"""The sandbox Instagram's "signed in to the app" for a post's owner: a cookie naming the sandbox account, the
connection it came from, its expiry and an HMAC-SHA256 over the three. Social issues it only to the browser that
completed the connection of that account to Pinbid (the OAuth callback, whose state is bound to the Pinbid user),
so the sandbox post page acts only for the post's owner, as the Instagram app does, and not for whoever knows the
sandbox's shared password. It ends with that connection: each completed (re)connection has a new id, and the
cookie counts only while the account's current connection is the one it names (checked on each use, by
`Connections.sandbox_owner`), so a browser that once connected the account cannot act for it after a disconnect or
a reconnection."""

import base64
import hashlib
import hmac
from dataclasses import dataclass

COOKIE = "pinbid_sandbox_owner"
TTL_SECONDS = 30 * 24 * 3600


@dataclass(frozen=True)
class SignedOwner:
    account_id: str  # the sandbox Instagram account
    connection_id: str  # the connection it was connected by (hex), to be compared with the account's current one


def _mac(key: bytes, payload: str) -> str:
    digest = hmac.new(key, b"sandbox-owner|" + payload.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def sign_owner(key: bytes, account_id: str, connection_id: str, *, now: int) -> str:
    if "." in account_id or "." in connection_id or not account_id or not connection_id:
        raise ValueError("account and connection ids are non-empty and free of dots")
    payload = f"{account_id}.{connection_id}.{now + TTL_SECONDS}"
    return f"{payload}.{_mac(key, payload)}"


def read_owner(key: bytes, value: str | None, *, now: int) -> SignedOwner | None:
    """What the cookie signs in (still to be matched with the account's current connection), or None (absent,
    forged, malformed, expired, or of the earlier form without a connection)."""
    parts = (value or "").split(".")
    if len(parts) != 4 or not parts[0] or not parts[1]:
        return None
    account_id, connection_id, expires, mac = parts
    if not hmac.compare_digest(_mac(key, f"{account_id}.{connection_id}.{expires}"), mac):
        return None
    if not expires.isdigit() or now >= int(expires):
        return None
    return SignedOwner(account_id, connection_id)
