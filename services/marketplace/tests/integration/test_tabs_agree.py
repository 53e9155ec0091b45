"""A bid's tab has one definition (`domain.tabs`): the database's figures count exactly what the bid list shows, so the
buyer's dashboard and My Bids agree (Won Auctions: every win that stands, paid and pinned ones too), and a creator's
completed jobs are placements that ran their course."""

import itertools

from pinbid_marketplace.domain.states import BidStatus
from pinbid_marketplace.domain.tabs import tab_of
from pinbid_marketplace.queries import tab_sql
from sqlalchemy import String, literal, select, text

PLACEMENTS = (None, "ACTIVE", "COMPLETED", "UNPINNED", "ENDED")
PAYMENTS = (None, "REQUESTED", "COMPLETED", "EXPIRED", "REFUNDED")


async def test_the_databases_tab_is_the_domains_for_every_status_placement_and_payment(world):
    async with world.service.db.autocommit() as conn:
        for status, placement, payment in itertools.product(BidStatus, PLACEMENTS, PAYMENTS):
            in_sql = await conn.scalar(select(tab_sql(literal(status.value), literal(placement, String),
                                                      literal(payment, String))))
            assert in_sql == tab_of(status, placement, payment).value, (status, placement, payment)


async def test_the_buyers_figures_count_the_tabs_of_the_bid_list(world):
    buyer = await world.buyer()
    creator, posts = await world.creator(posts=len(BidStatus) + 2)
    shapes = [(status, None) for status in BidStatus] + [("PINNED", "COMPLETED"), ("PINNED", "UNPINNED")]
    for post, (status, placement) in zip(posts, shapes, strict=True):
        slot = await world.slot(creator, post)
        bid = (await world.bid(buyer, slot["id"], 50)).json()
        async with world.service.db.transaction() as session:  # each bid moved to the stage it stands for
            await session.execute(text("UPDATE bids SET status = :s, pinned_status = :p WHERE id = :id"),
                                  {"s": status, "p": placement if status != "PINNED" or placement else "ACTIVE",
                                   "id": bid["id"]})

    bids = (await world.http.get("/buyer/bids", headers=buyer)).json()
    figures = (await world.http.get("/buyer/dashboard-figures", headers=buyer)).json()
    tabs = [b["tab"] for b in bids]
    assert figures == {"activeBids": tabs.count("active"), "wonAuctions": sum(b["wonAuction"] for b in bids)}
    assert (tabs.count("active"), tabs.count("won"), tabs.count("live"), tabs.count("past")) == (3, 4, 1, 5)
    # (OFFERED, a second-chance offer waiting for the brand, is on the active tab)
    # won, then paid and pinned (live), then completed or ended (past): still a won auction on the dashboard
    assert figures["wonAuctions"] == 4 + 1 + 2
    assert {b["status"] for b in bids if b["wonAuction"]} == {"PENDING_INFLUENCER_APPROVAL", "APPROVED",
                                                             "AWAITING_PAYMENT", "WON", "PINNED"}

    creator_figures = (await world.http.get("/influencer/dashboard-figures", headers=creator)).json()
    completed = [b for b in bids if (b.get("pinnedComment") or {}).get("status") == "COMPLETED"]
    assert creator_figures["completedJobs"] == len(completed) == 1
