"""Newsletter rules: which addresses we accept, and the two kinds of link a subscriber receives.

A confirmation link carries a random token that is stored only as its digest and expires. An
unsubscribe link must work in every mail ever sent, so it is derived (an HMAC of the subscriber's
id), not stored: any later mail can carry it without keeping a usable secret in the database."""

import hashlib
import hmac
import secrets
import uuid

from email_validator import EmailNotValidError, validate_email

MAX_EMAIL = 254


class BadEmail(ValueError):
    pass


def normalize_email(raw: str) -> str:
    candidate = raw.strip().lower()
    if not candidate or len(candidate) > MAX_EMAIL:
        raise BadEmail("Enter a valid email address.")
    try:
        return validate_email(candidate, check_deliverability=False).normalized.lower()
    except EmailNotValidError:
        raise BadEmail("Enter a valid email address.") from None


def new_token() -> str:
    return secrets.token_urlsafe(32)


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def unsubscribe_token(key: bytes, subscriber_id: uuid.UUID) -> str:
    return f"{subscriber_id.hex}.{_signature(key, subscriber_id)}"


def read_unsubscribe_token(key: bytes, token: str) -> uuid.UUID | None:
    """The subscriber an unsubscribe token was made for, or None when it is not one of ours."""
    raw_id, _, signature = token.partition(".")
    try:
        subscriber_id = uuid.UUID(hex=raw_id) if len(raw_id) == 32 else None
    except ValueError:
        return None
    if subscriber_id is None or not hmac.compare_digest(signature, _signature(key, subscriber_id)):
        return None
    return subscriber_id


def _signature(key: bytes, subscriber_id: uuid.UUID) -> str:
    return hmac.new(key, b"unsubscribe:" + subscriber_id.bytes, hashlib.sha256).hexdigest()[:40]
