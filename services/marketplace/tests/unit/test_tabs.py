import pytest
from pinbid_marketplace.domain.states import BidStatus
from pinbid_marketplace.domain.tabs import TAB_OF_STATUS, Tab, completed, tab_of, won_auction


@pytest.mark.parametrize(("status", "placement", "tab"), [
    ("ACTIVE", None, Tab.ACTIVE), ("OUTBID", None, Tab.ACTIVE),
    ("PENDING_INFLUENCER_APPROVAL", None, Tab.WON), ("APPROVED", None, Tab.WON),
    ("AWAITING_PAYMENT", None, Tab.WON), ("WON", None, Tab.WON),
    ("PINNED", "ACTIVE", Tab.LIVE), ("PINNED", None, Tab.LIVE),
    ("PINNED", "COMPLETED", Tab.PAST), ("PINNED", "UNPINNED", Tab.PAST),
    ("CANCELLED", None, Tab.PAST), ("EXPIRED", None, Tab.PAST), ("REJECTED", None, Tab.PAST),
])
def test_each_bid_has_one_tab(status, placement, tab):
    assert tab_of(status, placement) is tab


def test_every_status_has_a_tab():
    assert set(TAB_OF_STATUS) | {BidStatus.PINNED} == set(BidStatus)


def test_a_finished_placement_is_past_and_completed_only_when_it_ran_its_course():
    assert completed("COMPLETED") and not completed("UNPINNED") and not completed("ACTIVE") and not completed(None)
    assert tab_of("PINNED", "COMPLETED") is not Tab.LIVE


def test_a_won_auction_stays_won_once_paid_pinned_or_completed():
    """Issue 31: "Won Auctions" dropped to 0 once the won slot was paid and pinned (it counted the won tab)."""
    won = {s for s in BidStatus if won_auction(s)}
    assert won == {BidStatus.PENDING_INFLUENCER_APPROVAL, BidStatus.APPROVED, BidStatus.AWAITING_PAYMENT,
                   BidStatus.WON, BidStatus.PINNED}
    # lost, withdrawn, or a win undone (rejected by the creator, the pay window lapsed)
    assert not any(won_auction(s) for s in ("ACTIVE", "OUTBID", "CANCELLED", "EXPIRED", "REJECTED"))
    # every bid on the won tab is a won auction; a pinned one (live or past) still is
    assert all(won_auction(s) for s, tab in TAB_OF_STATUS.items() if tab is Tab.WON)


def test_a_win_refunded_in_full_does_not_stand():
    assert won_auction("PINNED", "COMPLETED") and won_auction("WON", None)
    assert not won_auction("PINNED", "REFUNDED") and not won_auction("WON", "REFUNDED")
