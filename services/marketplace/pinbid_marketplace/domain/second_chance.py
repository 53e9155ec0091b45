"""The second-chance offer (eBay's Second Chance Offer): when a slot's winner falls through (the creator rejected it,
or its pay window ran out unpaid), the creator may offer the slot to the runner-up, the best other bid that stood at
the close (a campaign's bid its campaign released when outbid included), at that bid's own last amount (its
ceiling). One offer open per slot at a time, each runner-up offered at most once, a window to answer; accepted, the
bid is the slot's winner, approved at that price. Pure: the caller reads the rows and the facts about each bidder
(suspended, tied to the creator), these rules decide."""

import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import Decimal

from .campaigns import limit
from .errors import StateConflict
from .states import BidStatus

# how the offer ended, when it did not end accepted (marketplace.bid.offer_declined.v1's `reason`)
DECLINED = "DECLINED"  # the brand said no
LAPSED = "LAPSED"  # the window ran out
WITHDRAWN = "WITHDRAWN"  # the brand or the creator was suspended, or a tie between them became known
OVER_BUDGET = "OVER_BUDGET"  # a campaign's bid: its budget (or its state) could not take the price
# the campaign states in which it may take an offer
TAKING = frozenset({"ACTIVE", "OUT_OF_BUDGET"})


@dataclass(frozen=True)
class Standing:
    """A bid of the slot as the offer's rules see it."""

    id: uuid.UUID
    buyer_id: uuid.UUID
    status: BidStatus
    ceiling: Decimal
    seq: int
    final_price: Decimal | None = None  # set once the bid won the close (or accepted an offer)
    payment_status: str | None = None
    offered_before: bool = False  # `offer_expires_at` set: it was offered once already
    suspended: bool = False  # its brand is suspended
    tied: bool = False  # its brand shares a hard signal with the slot's creator
    released: bool = False  # a campaign's bid its campaign cancelled when outbid (`released_at`), not the brand


def stood(bid: Standing) -> bool:
    """A bid that was still on offer at the close: it lost (EXPIRED without a price or a payment of its own), or it
    is a campaign's bid its campaign released when outbid. The campaign cancels only to free the ceiling for its
    other bids; its offer to pay stands, within its budget when asked (docs/decisions/campaigns.md). A bid the brand
    cancelled itself, by hand, did not stand."""
    if bid.final_price is not None or bid.payment_status is not None:
        return False
    return bid.status is BidStatus.EXPIRED or (bid.status is BidStatus.CANCELLED and bid.released)


def fell_through(fallen: Standing) -> bool:
    """A winner that will not be paid: rejected by the creator, or approved and left unpaid (EXPIRED with its
    payment expired; a bid EXPIRED at the close has no payment)."""
    if fallen.status is BidStatus.REJECTED:
        return True
    return fallen.status is BidStatus.EXPIRED and fallen.payment_status == "EXPIRED"


def check_can_offer(fallen: Standing, winning_bid_id: uuid.UUID | None, bids: list[Standing]) -> Standing:
    """Whether the creator may offer the slot again, given `fallen` (the bid the creator names) and every bid of the
    slot; returns the runner-up to offer it to. Raises StateConflict (409) otherwise."""
    if winning_bid_id != fallen.id:
        raise StateConflict("Only the slot's winning bid can be passed on to the runner-up.", code="not_the_winner")
    if not fell_through(fallen):
        raise StateConflict("A second chance is only for a winner the creator rejected or that did not pay in time.",
                            code="winner_not_fallen")
    if any(b.status is BidStatus.OFFERED for b in bids):
        raise StateConflict("This slot is already offered to a runner-up: wait for their answer.",
                            code="offer_open")
    found = runner_up(fallen, bids)
    if found is None:
        raise StateConflict("There is no runner-up left to offer this slot to.", code="no_runner_up")
    return found


def runner_up(fallen: Standing, bids: list[Standing]) -> Standing | None:
    """The best other bid that stood at the close (`stood`), never offered before, whose brand is neither suspended
    nor tied to the creator, nor the fallen winner's: highest ceiling, then whoever reached it first (the auction's
    own ranking)."""
    eligible = [b for b in bids
                if b.id != fallen.id and b.buyer_id != fallen.buyer_id and stood(b) and not b.offered_before
                and not b.suspended and not b.tied]
    return min(eligible, key=lambda b: (-b.ceiling, b.seq), default=None)


def offer_price(bid: Standing) -> Decimal:
    """The runner-up's own last amount: the most it said it would pay (its ceiling)."""
    return bid.ceiling


def offer_deadline(now: datetime, window: timedelta) -> datetime:
    return now + window


def check_can_answer(status: BidStatus, expires_at: datetime | None, now: datetime, *, suspended: bool = False,
                     tied: bool = False) -> None:
    """Whether the brand may still accept (or decline) the offer on its bid."""
    if status is not BidStatus.OFFERED:
        raise StateConflict("This bid has no open offer.", code="no_offer")
    if expires_at is None or now >= expires_at:
        raise StateConflict("This offer has lapsed.", code="offer_lapsed")
    if suspended:
        raise StateConflict("This account is suspended, so it cannot accept offers.", code="account_suspended")
    if tied:
        raise StateConflict("This account is tied to the creator of this slot, so it cannot take it.",
                            code="associated_account")


def campaign_can_take(price: Decimal, *, committed: Decimal, budget: Decimal, funded: Decimal, status: str,
                      ends_at: datetime, now: datetime) -> bool:
    """Whether a campaign accepts an offer at `price` (docs/decisions/campaigns.md): while it runs (ACTIVE, or
    OUT_OF_BUDGET: too little left for a new bid may still cover this price; never paused, ended or unfunded) within
    its dates, and only if what it has committed plus the price stays within the smaller of its budget and what has
    been funded. The caller holds the campaign's row lock."""
    if status not in TAKING or now >= ends_at:
        return False
    return committed + price <= limit(budget, funded)

