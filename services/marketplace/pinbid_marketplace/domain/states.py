"""The life of a bid (ARCHITECTURE.md section 6) as an explicit state machine."""

from enum import StrEnum

from .errors import StateConflict


class BidStatus(StrEnum):
    ACTIVE = "ACTIVE"
    OUTBID = "OUTBID"
    CANCELLED = "CANCELLED"
    EXPIRED = "EXPIRED"
    PENDING_INFLUENCER_APPROVAL = "PENDING_INFLUENCER_APPROVAL"
    APPROVED = "APPROVED"
    REJECTED = "REJECTED"
    AWAITING_PAYMENT = "AWAITING_PAYMENT"
    WON = "WON"
    PINNED = "PINNED"
    # a runner-up offered the slot after the winner fell through (second chance): the brand accepts or declines
    OFFERED = "OFFERED"


class SlotStatus(StrEnum):
    ACTIVE = "ACTIVE"
    CLOSED = "CLOSED"


S = BidStatus
LIVE = frozenset({S.ACTIVE, S.OUTBID})

TRANSITIONS: dict[BidStatus, frozenset[BidStatus]] = {
    # ACTIVE <-> OUTBID as the lead changes; a closing auction makes the leader the winner, the rest EXPIRED.
    S.ACTIVE: frozenset({S.ACTIVE, S.OUTBID, S.CANCELLED, S.EXPIRED, S.PENDING_INFLUENCER_APPROVAL}),
    S.OUTBID: frozenset({S.ACTIVE, S.OUTBID, S.CANCELLED, S.EXPIRED, S.PENDING_INFLUENCER_APPROVAL}),
    S.PENDING_INFLUENCER_APPROVAL: frozenset({S.APPROVED, S.REJECTED}),
    # WON straight from APPROVED: payments' "completed" may overtake its own "requested" on the bus.
    S.APPROVED: frozenset({S.AWAITING_PAYMENT, S.WON, S.EXPIRED}),
    S.AWAITING_PAYMENT: frozenset({S.WON, S.EXPIRED}),
    S.WON: frozenset({S.PINNED}),
    # only a campaign's bid that its campaign released when outbid is ever offered (domain/second_chance.py)
    S.CANCELLED: frozenset({S.OFFERED}),
    # a bid that lost at the close may be offered the slot once its winner fell through (domain/second_chance.py);
    # accepted, it is the slot's winner, approved; declined or lapsed, it is expired (and never offered twice)
    S.EXPIRED: frozenset({S.OFFERED}),
    S.OFFERED: frozenset({S.APPROVED, S.EXPIRED}),
    S.REJECTED: frozenset(),
    S.PINNED: frozenset(),
}

_READABLE = {
    S.ACTIVE: "active", S.OUTBID: "outbid", S.CANCELLED: "cancelled", S.EXPIRED: "expired",
    S.PENDING_INFLUENCER_APPROVAL: "waiting for the creator's approval", S.APPROVED: "approved",
    S.REJECTED: "rejected", S.AWAITING_PAYMENT: "waiting for payment", S.WON: "won and paid", S.PINNED: "pinned",
    S.OFFERED: "offered the slot",
}


def can_move(current: BidStatus, target: BidStatus) -> bool:
    return target in TRANSITIONS[current]


def check_move(current: BidStatus, target: BidStatus) -> None:
    if not can_move(current, target):
        raise StateConflict(f"This bid is {_READABLE[current]}, so it cannot be {_READABLE[target]} now.",
                            code="bid_state")
