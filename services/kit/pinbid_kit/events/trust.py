"""Payload shapes several services share for trust and safety: an operator's action (each producing service
announces its own, identity keeps them in the append-only audit log) and an account signal (something a user
holds or uses, hashed, from which marketplace finds a creator's associated accounts), with the one hashing of a
signal's value that every producer uses (docs/decisions/trust.md, "Signals that can cross the roles"); and an
operator's decision on a disputed placement (social decides it, payments moves its money, marketplace and identity
tell the people), its values said here once."""

import hashlib
import unicodedata
import uuid
from collections.abc import Iterable
from datetime import datetime
from typing import Final, Literal, Self, get_args

from .catalog import EventData

# An operator's decision on a dispute: the placement continues (releases resume), or it ends with the brand refunded
# the share not yet released (REFUND_UNEARNED) or everything, what was released recovered from the creator
# (REFUND_ALL).
RefundOutcome = Literal["REFUND_UNEARNED", "REFUND_ALL"]
DisputeOutcome = Literal["CONTINUE", RefundOutcome]
CONTINUE: Final = "CONTINUE"
REFUND_UNEARNED: Final = "REFUND_UNEARNED"
REFUND_ALL: Final = "REFUND_ALL"
DISPUTE_OUTCOMES: tuple[str, ...] = get_args(DisputeOutcome)


def ends_placement(outcome: str) -> bool:
    """A refund ends the placement; CONTINUE does not."""
    return outcome != CONTINUE


class OperatorAction(EventData):
    """One operator action, for the audit log: who did what to which object, when and why."""

    action_id: uuid.UUID
    operator_id: uuid.UUID
    action: str  # e.g. dispute.decide, payment.refund, user.suspend, user.restore
    object_type: str  # e.g. dispute, payment, user
    object_id: str
    reason: str
    acted_at: datetime


SignalKind = Literal["INSTAGRAM_ACCOUNT", "EMAIL", "PAYOUT_ACCOUNT", "CARD", "NAME", "DEVICE", "ADDRESS"]
# Hard signals bar bids on the creator's slots (and withdraw the live ones once known): something one person
# holds that both a creator and a brand can be seen holding. An Instagram account (social: any signed-in user may
# connect one); a mailbox (identity: the account's email; payments: a creator's PayPal payout address, a brand's
# billing email at checkout).
HARD_SIGNALS: frozenset[str] = frozenset({"INSTAGRAM_ACCOUNT", "EMAIL"})
# Held by one person but seen in one role only (a payout account: creators; a card: brands, who alone check out):
# they tie two creator accounts or two brand accounts, never a brand to a creator, so they bar nothing.
SAME_ROLE_SIGNALS: frozenset[str] = frozenset({"PAYOUT_ACCOUNT", "CARD"})
# Soft signals raise a flag, never a refusal: a person's name (a creator's bank account holder, a brand's
# cardholder), the device and the network address a user signs in from (identity).
SOFT_SIGNALS: frozenset[str] = frozenset({"NAME", "DEVICE", "ADDRESS"})
# the mailboxes whose local part ignores dots (they deliver j.ane@ and jane@ to one inbox), and their one domain
_DOTLESS_MAILBOXES = {"gmail.com": "gmail.com", "googlemail.com": "gmail.com"}


def normalized_email(raw: str) -> str | None:
    """One mailbox, one spelling: case folded, a `+tag` dropped, dots dropped where the provider ignores them
    (Gmail). None for what is not an address (no signal rather than a false match)."""
    address = unicodedata.normalize("NFKC", raw).strip().casefold()
    local, at, domain = address.rpartition("@")
    if not at or not local or "." not in domain or any(ch.isspace() for ch in address):
        return None
    local = local.split("+", 1)[0]
    if domain in _DOTLESS_MAILBOXES:
        local, domain = local.replace(".", ""), _DOTLESS_MAILBOXES[domain]
    return f"{local}@{domain}" if local else None


def normalized_name(raw: str) -> str | None:
    """A person's name as a set of words: accents and case dropped, punctuation a separator, the words sorted (so
    "SMITH, JANE" on a card is "Jane Smith" on a bank account), initials left out. None below two words: a single
    word ties too many people to mean anything."""
    letters = "".join(ch for ch in unicodedata.normalize("NFKD", raw) if not unicodedata.combining(ch))
    words = "".join(ch if ch.isalpha() else " " for ch in letters.casefold()).split()
    words = sorted(w for w in words if len(w) > 1)
    return " ".join(words) if len(words) >= 2 else None


_NORMALIZED = {"EMAIL": normalized_email, "NAME": normalized_name}


def signal_hash(kind: str, value: str) -> str | None:
    """The `valueHash` of a signal: SHA-256 hex of `<kind>:<value>`, the value normalised first for the kinds people
    type (EMAIL, NAME). None when the value is no signal (an empty or unusable one): announce nothing."""
    normalize = _NORMALIZED.get(kind)
    value = normalize(value) if normalize is not None else value.strip()
    if not value:
        return None
    return hashlib.sha256(f"{kind}:{value}".encode()).hexdigest()


class AccountSignal(EventData):
    """A user was seen holding or using something: `valueHash` is `signal_hash(kind, value)` (the Instagram
    account id, a normalised email, the payout account id, the card fingerprint, a normalised name, a device id, a
    network address), so two users with the same value have the same hash and the value itself never leaves its
    service."""

    user_id: uuid.UUID
    kind: SignalKind
    value_hash: str
    observed_at: datetime

    @classmethod
    def observed(cls, user_id: uuid.UUID, values: Iterable[tuple[str, str]], at: datetime) -> list[Self]:
        """One event per (kind, raw value) `user_id` was seen with, the value hashed here (`signal_hash`); a value
        that is no signal (an empty or unusable one) is left out. The one way every producer announces signals."""
        return [cls(user_id=user_id, kind=kind, value_hash=value_hash, observed_at=at)
                for kind, value in values if (value_hash := signal_hash(kind, value)) is not None]
