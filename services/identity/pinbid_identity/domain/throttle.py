"""Login throttling that a stranger cannot turn against an account's owner.

Failed logins are counted per (email, client address) and per client address, so a stranger who
guesses at someone's password throttles only themselves: the owner, from their own address, still
logs in. A much higher count per email alone remains as the last resort against guessing from many
addresses. Successful logins never count."""

import hashlib
from dataclasses import dataclass
from datetime import UTC, datetime


@dataclass(frozen=True)
class Limit:
    key: str
    allowed: int  # failures allowed in one window; the next attempt is refused
    window_seconds: int

    def window_start(self, now: datetime) -> datetime:
        """Fixed windows aligned on the epoch, so every replica counts in the same row."""
        stamp = now.timestamp()
        return datetime.fromtimestamp(stamp - stamp % self.window_seconds, UTC)

    def seconds_left(self, now: datetime) -> int:
        stamp = now.timestamp()
        return max(1, int(self.window_seconds - stamp % self.window_seconds))


@dataclass(frozen=True)
class LoginPolicy:
    per_email_and_client: int
    per_client: int
    window_seconds: int
    per_email: int
    email_window_seconds: int


def email_key(email: str) -> str:
    """Counters name an email by its digest: the throttle table holds no addresses."""
    return "email:" + hashlib.sha256(email.encode()).hexdigest()


def pair_key(email: str, client: str) -> str:
    return f"pair:{email_key(email).removeprefix('email:')}:{client}"


def pair_prefix(email: str) -> str:
    """Every (email, client) counter of one email starts with this."""
    return pair_key(email, "")


def login_limits(policy: LoginPolicy, email: str, client: str) -> list[Limit]:
    """The limits one login attempt counts against, in key order (the order rows are locked in)."""
    limits = [
        Limit(pair_key(email, client), policy.per_email_and_client, policy.window_seconds),
        Limit(f"client:{client}", policy.per_client, policy.window_seconds),
        Limit(email_key(email), policy.per_email, policy.email_window_seconds),
    ]
    return sorted(limits, key=lambda limit: limit.key)
