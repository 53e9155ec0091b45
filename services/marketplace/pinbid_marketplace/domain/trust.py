"""Associated accounts: what bars a bid (a hard signal the bidder shares with the slot's creator), whose bids a
newly known tie withdraws, and what only raises a flag for an operator (soft signals and bid patterns), with its
reasons and a score. Pure: the caller reads the figures, this decides. Which signal is hard and what each can and
cannot catch: docs/decisions/trust.md ("Signals that can cross the roles")."""

import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal

from pinbid_kit.events.trust import HARD_SIGNALS

# what each hard signal means, for the refusal's message
HELD = {"INSTAGRAM_ACCOUNT": "same Instagram account", "EMAIL": "same email address"}
SOFT_WEIGHTS = {"DEVICE": 40, "ADDRESS": 20, "NAME": 20}
SOFT_REASONS = {"DEVICE": "signed in from a device the creator also uses",
                "ADDRESS": "signed in from a network address the creator also uses",
                "NAME": "pays or is paid under the creator's name (cardholder or bank account holder)"}
MOSTLY_ONE_CREATOR = 20
RAISES_NEVER_WINS = 20
JUST_UNDER_LEADER = 30
FLAG_AT = 30  # a flag is raised from this score: one device, or one "just under" auction, is enough
# a bidder who raised until its maximum was within this share of the winner's: it probed for the winner's maximum
JUST_UNDER_SHARE = Decimal("0.02")
MOSTLY_SHARE = Decimal("0.8")
MOSTLY_MIN_SLOTS = 3
RAISES_MIN = 3


def refusal(shared_kind: str | None) -> str | None:
    """The 403's message when the bidder shares a hard signal with the creator, else None."""
    if shared_kind is None or shared_kind not in HARD_SIGNALS:
        return None
    return (f"This account is tied to the creator of this slot ({HELD[shared_kind]}), so it cannot bid on their "
            "slots.")


def tied_bidders(creator_id: uuid.UUID, holder_id: uuid.UUID, others: Iterable[uuid.UUID]) -> frozenset[uuid.UUID]:
    """A hard signal was just recorded for `holder_id`, and `others` hold the same one: the bidders whose live bids
    on `creator_id`'s open slots must go. On the holder's own slots, every other holder; on another's slots, the
    holder itself when that creator is one of the others; nobody else (a tie binds the two accounts it joins)."""
    others = frozenset(others) - {holder_id}
    if creator_id == holder_id:
        return others
    return frozenset({holder_id}) if creator_id in others else frozenset()


@dataclass(frozen=True)
class BidderFigures:
    """One bidder against one creator, as of a closing auction of that creator."""

    shared_soft: frozenset[str] = frozenset()  # soft signal kinds the bidder shares with the creator
    slots_bid: int = 0  # distinct slots the bidder ever bid on
    slots_bid_on_creator: int = 0  # of those, the creator's
    wins_on_creator: int = 0  # the creator's auctions the bidder won
    raises_on_creator: int = 0  # times the bidder raised its own bid on the creator's slots
    lost_ceiling: Decimal | None = None  # the bidder's last maximum on the closing slot, when it lost
    raises_on_slot: int = 0  # times it raised its bid on the closing slot: probing, not one honest maximum
    winner_ceiling: Decimal | None = None  # the winner's maximum on the closing slot


@dataclass(frozen=True)
class Assessment:
    score: int
    reasons: tuple[str, ...]

    @property
    def flagged(self) -> bool:
        return self.score >= FLAG_AT


def assess(f: BidderFigures) -> Assessment:
    """Soft signals and bid patterns, each with its weight; the score is their sum, at most 100."""
    score, reasons = 0, []
    for kind in sorted(f.shared_soft):
        if kind in SOFT_WEIGHTS:
            score += SOFT_WEIGHTS[kind]
            reasons.append(SOFT_REASONS[kind])
    if (f.slots_bid_on_creator >= MOSTLY_MIN_SLOTS and f.slots_bid
            and Decimal(f.slots_bid_on_creator) / f.slots_bid >= MOSTLY_SHARE):
        score += MOSTLY_ONE_CREATOR
        reasons.append(f"bids mostly on this creator ({f.slots_bid_on_creator} of {f.slots_bid} auctions)")
    if f.raises_on_creator >= RAISES_MIN and f.wins_on_creator == 0:
        score += RAISES_NEVER_WINS
        reasons.append(f"raised its bids {f.raises_on_creator} times on this creator's auctions and never won")
    if (f.raises_on_slot >= 1 and f.lost_ceiling is not None and f.winner_ceiling is not None
            and f.winner_ceiling > 0
            and f.lost_ceiling <= f.winner_ceiling
            and (f.winner_ceiling - f.lost_ceiling) / f.winner_ceiling <= JUST_UNDER_SHARE):
        score += JUST_UNDER_LEADER
        reasons.append(f"stopped at {f.lost_ceiling}, just under the winner's maximum of {f.winner_ceiling}")
    return Assessment(score=min(score, 100), reasons=tuple(reasons))
