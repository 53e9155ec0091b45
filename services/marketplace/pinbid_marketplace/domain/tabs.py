"""Where a bid stands for the brand who placed it: the four tabs of My Bids (active, won, live, past), whether it won
its auction, and whether its placement ran to the end. One definition, read by the bid list (each bid's `tab` and
`wonAuction`), by the buyer's dashboard figures and by the creator's completed jobs, so every screen counts the same
bids."""

from enum import StrEnum

from .states import BidStatus as S


class Tab(StrEnum):
    ACTIVE = "active"  # the auction runs (leading or outbid), or a second-chance offer waits for the brand
    WON = "won"  # won, not yet pinned: the creator's decision, the payment, the pin
    LIVE = "live"  # the comment is pinned and the placement runs
    PAST = "past"  # nothing more will happen: cancelled, expired, rejected, or a placement that ended


TAB_OF_STATUS: dict[S, Tab] = {
    S.ACTIVE: Tab.ACTIVE, S.OUTBID: Tab.ACTIVE,
    S.OFFERED: Tab.ACTIVE,  # a second-chance offer waits for the brand's answer, as a running auction does
    S.PENDING_INFLUENCER_APPROVAL: Tab.WON, S.APPROVED: Tab.WON, S.AWAITING_PAYMENT: Tab.WON, S.WON: Tab.WON,
    S.CANCELLED: Tab.PAST, S.EXPIRED: Tab.PAST, S.REJECTED: Tab.PAST,
}
# A pinned bid keeps its status for good; its placement says whether it still runs.
RUNNING_PLACEMENT = "ACTIVE"
COMPLETED_PLACEMENT = "COMPLETED"


REFUNDED_PAYMENT = "REFUNDED"


def tab_of(status: str, placement: str | None, payment: str | None = None) -> Tab:
    """`placement`: the pinned comment's status (ACTIVE, COMPLETED, UNPINNED, ENDED on a refund), None before the
    pin; `payment`: the payment's status (a payment refunded in full ends the bid, pinned or not)."""
    if payment == REFUNDED_PAYMENT:
        return Tab.PAST
    if status == S.PINNED:
        return Tab.LIVE if placement in (None, RUNNING_PLACEMENT) else Tab.PAST
    return TAB_OF_STATUS[S(status)]


# The auctions a brand won: its bid won the close (or Buy Now) and nothing undid the win since (the creator did not
# reject it, the pay window did not lapse). A won auction stays won once paid, pinned, completed or refunded: the
# "won" tab is where a bid waits between the win and the pin, "Won Auctions" counts every win.
WON_AUCTION: frozenset[S] = frozenset({S.PENDING_INFLUENCER_APPROVAL, S.APPROVED, S.AWAITING_PAYMENT, S.WON,
                                       S.PINNED})


def won_auction(status: str, payment: str | None = None) -> bool:
    """The bid won its auction and the win stands: not rejected, not left unpaid, not refunded in full."""
    return S(status) in WON_AUCTION and payment != REFUNDED_PAYMENT


def completed(placement: str | None) -> bool:
    """A placement that ran its whole duration (a completed job, for the creator)."""
    return placement == COMPLETED_PLACEMENT
