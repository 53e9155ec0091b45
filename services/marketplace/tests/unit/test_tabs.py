import pytest
from pinbid_marketplace.domain.states import BidStatus
from pinbid_marketplace.domain.tabs import TAB_OF_STATUS, Tab, completed, tab_of


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
