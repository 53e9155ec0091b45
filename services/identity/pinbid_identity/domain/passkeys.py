"""Passkeys' rules, without I/O: which relying party we are, the sign counter, and refusals in words."""

from dataclasses import dataclass
from urllib.parse import urlsplit

CHALLENGE_SECONDS = 300
MAX_PASSKEYS = 10
INVALID = "This passkey answer is not valid."
STALE = "This passkey request has expired or was already used. Try again."
NOT_FOR_US = "This passkey answer was made for another site or address, not this Pinbid."
BAD_SIGNATURE = "This passkey's signature does not match. Try again, or sign in another way."
UNKNOWN = "This passkey is not registered with Pinbid (it may have been removed). Sign in another way."
WENT_BACK = ("This passkey's signature counter went backwards, which happens when a key has been copied. Sign in "
             "another way, and remove the passkey in Settings.")
NOT_VERIFIED = "Your device did not verify you (PIN, fingerprint or face). Try again."
_ELSEWHERE = ("origin", "RP ID", "rp_id", "type")  # py_webauthn's words for "made for someone else"

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


def refusal(library_message: str) -> str:
    """py_webauthn's reason for refusing an answer, in words a person can act on."""
    if any(word in library_message for word in _ELSEWHERE):
        return NOT_FOR_US
    lowered = library_message.lower()
    if "user" in lowered and "verif" in lowered:
        return NOT_VERIFIED
    if "signature" in lowered:
        return BAD_SIGNATURE
    return INVALID
