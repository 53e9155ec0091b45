"""The sandbox Instagram's "signed in to the app" for a post's owner: a cookie naming the sandbox account, its
expiry and an HMAC-SHA256 over both. Social issues it only to the browser that completed the connection of that
account to Pinbid (the OAuth callback, whose state is bound to the Pinbid user), so the sandbox post page acts only
for the post's owner, as the Instagram app does, and not for whoever knows the sandbox's shared password."""

import base64
import hashlib
import hmac

COOKIE = "pinbid_sandbox_owner"
TTL_SECONDS = 30 * 24 * 3600


def _mac(key: bytes, payload: str) -> str:
    digest = hmac.new(key, b"sandbox-owner|" + payload.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def sign_owner(key: bytes, account_id: str, *, now: int) -> str:
    payload = f"{account_id}.{now + TTL_SECONDS}"
    return f"{payload}.{_mac(key, payload)}"


def read_owner(key: bytes, value: str | None, *, now: int) -> str | None:
    """The sandbox account the cookie signs in, or None (absent, forged, malformed or expired)."""
    parts = (value or "").split(".")
    if len(parts) != 3 or not parts[0]:
        return None
    account_id, expires, mac = parts
    if not hmac.compare_digest(_mac(key, f"{account_id}.{expires}"), mac):
        return None
    if not expires.isdigit() or now >= int(expires):
        return None
    return account_id
