"""Payload shapes several services share for trust and safety: an operator's action (each producing service
announces its own, identity keeps them in the append-only audit log) and an account signal (something a user
holds or uses, hashed, from which marketplace finds a creator's associated accounts)."""

import uuid
from datetime import datetime
from typing import Literal

from .catalog import EventData


class OperatorAction(EventData):
    """One operator action, for the audit log: who did what to which object, when and why."""

    action_id: uuid.UUID
    operator_id: uuid.UUID
    action: str  # e.g. dispute.decide, payment.refund, user.suspend, user.restore
    object_type: str  # e.g. dispute, payment, user
    object_id: str
    reason: str
    acted_at: datetime


SignalKind = Literal["INSTAGRAM_ACCOUNT", "PAYOUT_ACCOUNT", "CARD", "DEVICE", "ADDRESS"]
# Hard signals (something only one person holds) bar bids on the creator's slots; soft ones raise a flag.
HARD_SIGNALS: frozenset[str] = frozenset({"INSTAGRAM_ACCOUNT", "PAYOUT_ACCOUNT", "CARD"})


class AccountSignal(EventData):
    """A user was seen holding or using something: `valueHash` is the SHA-256 hex of `<kind>:<value>` (the
    Instagram account id, the payout account id, the card fingerprint, a device id, a network address), so
    two users with the same value have the same hash and the value itself never leaves its service."""

    user_id: uuid.UUID
    kind: SignalKind
    value_hash: str
    observed_at: datetime
