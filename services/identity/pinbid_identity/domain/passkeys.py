"""Passkeys' rules, without I/O: which relying party we are, and what a person may name a passkey."""

from dataclasses import dataclass
from urllib.parse import urlsplit

CHALLENGE_SECONDS = 300
MAX_PASSKEYS = 10
TRANSPORTS = ("ble", "cable", "hybrid", "internal", "nfc", "usb")  # py_webauthn's AuthenticatorTransport


@dataclass(frozen=True)
class RelyingParty:
    """The WebAuthn relying party: its ID is the public URL's host (a browser accepts `localhost` but never an IP
    address), and the one origin allowed is the public URL's."""

    id: str
    origin: str
    name: str = "Pinbid"


def relying_party(public_url: str) -> RelyingParty:
    parts = urlsplit(public_url)
    return RelyingParty(id=(parts.hostname or "localhost"), origin=f"{parts.scheme}://{parts.netloc}")


def kept_transports(reported: list[str] | None) -> str | None:
    """The transports a browser reported, those WebAuthn knows only, for the hints of later ceremonies."""
    known = [t for t in (reported or []) if t in TRANSPORTS]
    return ",".join(dict.fromkeys(known)) or None


def counter_went_back(stored: int, reported: int) -> bool:
    """An authenticator that counts (either count above 0) must report more than last time; one that does not count
    reports 0 each time (many synced passkeys do). Anything else may be a copied key."""
    return (stored > 0 or reported > 0) and reported <= stored
