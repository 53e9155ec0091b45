"""Stripe's webhook signature scheme: header `t=<unix time>,v1=<hex HMAC-SHA256(secret, "<t>.<payload>")>`."""

import hashlib
import hmac
import time


def stripe_signature(payload: str, secret: str, timestamp: int | None = None) -> str:
    t = int(time.time()) if timestamp is None else timestamp
    mac = hmac.new(secret.encode(), f"{t}.{payload}".encode(), hashlib.sha256).hexdigest()
    return f"t={t},v1={mac}"


def signed_at(header: str) -> int:
    """The unix time in a signature header that passed verification (so it has a `t=`)."""
    return int(next(part[2:] for part in header.split(",") if part.startswith("t=")))
