"""Keys for what social keeps secret: the sealed tokens and sessions, and the OAuth state's HMAC key."""

import hashlib

from pinbid_kit.paths import var_dir
from pinbid_kit.secrets import load_or_create_key

from .settings import SocialSettings


def _material(settings: SocialSettings) -> str:
    return settings.encryption_keys.split(",")[0].strip() if settings.encryption_keys else \
        load_or_create_key(var_dir() / "keys" / "data.key")


def visitor_key(settings: SocialSettings) -> bytes:
    """The key of the vanity links' visitor hashes (the same on every replica, so a repeat is one visitor)."""
    return hashlib.sha256(b"pinbid-social-link-visitors|" + _material(settings).encode()).digest()


def state_key(settings: SocialSettings) -> bytes:
    """Derived from the data encryption key(s), which every replica shares, so any replica can check
    a state another one signed."""
    return hashlib.sha256(b"pinbid-social-oauth-state|" + _material(settings).encode()).digest()


def sandbox_owner_key(settings: SocialSettings) -> bytes:
    """Signs the sandbox post page's owner cookie (domain/sandbox_owner.py)."""
    return hashlib.sha256(b"pinbid-social-sandbox-owner|" + _material(settings).encode()).digest()
