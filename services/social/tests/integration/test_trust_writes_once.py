"""Each trust use case writes the events it causes once: one outbox insert (and one NOTIFY) for the operator's
decision that ends a placement (DisputeDecided, the operator's action and PlacementEnded together), one for a
run of the job that opens several disputes for missed fresh screenshots, one for the pin the creator confirms,
and one for a full refund's end of a placement (a handler's events, written by the inbox when it returns; nothing
when it is redelivered)."""

import uuid

import pytest
from pinbid_kit.events.payments import PaymentRefunded
from pinbid_kit.events.social import CommentPinned, PlacementDisputed, PlacementEnded
from pinbid_testing import counting_statements

from .test_trust import Trusted, shot


@pytest.fixture
async def t(world) -> Trusted:
    return Trusted(world)


async def outbox_types(t: Trusted) -> list[str]:
    return [row[0] for row in await t.social.sql("SELECT type FROM outbox ORDER BY seq")]


async def test_a_decision_that_ends_the_placement_writes_its_three_events_once(t):
    bid = await t.pinned(duration=7)
    t.social.clock.advance(hours=5)
    dispute_id = (await t.report(bid)).json()["dispute"]["id"]
    assert (await t.answer(bid, note="Still pinned")).status_code == 200
    before = len(await outbox_types(t))
    with counting_statements(t.social.service.db) as counted:
        decided = await t.decide(dispute_id, "REFUND_ALL")
    assert decided.status_code == 200, decided.text
    assert counted.outbox_writes() == (1, 1)
    assert (await outbox_types(t))[before:] == ["social.dispute.decided.v1", "social.operator.acted.v1",
                                                "social.placement.ended.v1"]


async def test_a_run_that_opens_two_disputes_for_missed_rechecks_writes_once(t):
    bids = [await t.pinned(duration=7), await t.pinned(duration=7)]
    for bid in bids:
        assert (await t.accept(bid)).status_code == 200
    due = max(row[0] for row in await t.social.sql("SELECT recheck_at FROM placements"))
    t.social.clock.now = max(t.social.clock.now, due)
    assert (await t.job())["rechecks"] == 2
    t.social.clock.advance(hours=24, minutes=1)
    with counting_statements(t.social.service.db) as counted:
        assert (await t.job())["missed"] == 2
    assert counted.outbox_writes() == (1, 1)
    disputed = await t.social.events(PlacementDisputed.event_type)
    assert sorted(d["bidId"] for d in disputed) == sorted(str(b) for b in bids)
    assert {d["reporter"] for d in disputed} == {"SYSTEM"}


async def test_the_pin_the_creator_confirms_with_a_screenshot_writes_once(t):
    bid = await t.manual_bid()
    with counting_statements(t.social.service.db) as counted:
        confirmed = await t.confirm(bid, shot())
    assert confirmed.status_code == 200, confirmed.text
    assert counted.outbox_writes() == (1, 1)
    [pinned] = await t.social.events(CommentPinned.event_type)
    assert (pinned["bidId"], pinned["awaitsAcceptance"]) == (str(bid), True)


async def test_a_full_refund_ends_the_placement_with_one_write_and_its_redelivery_with_none(t):
    bid = await t.pinned()
    assert (await t.report(bid)).status_code == 200
    refund = PaymentRefunded(payment_id=uuid.uuid4(), bid_id=bid, buyer_id=t.world.buyer, creator_id=t.world.creator,
                             amount_cents=4000, reason="operator_refund")
    with counting_statements(t.social.service.db) as delivered:
        await t.social.deliver(refund)
    with counting_statements(t.social.service.db) as redelivered:
        await t.social.deliver(refund)
    assert (delivered.outbox_writes(), redelivered.outbox_writes()) == ((1, 1), (0, 0))
    assert [e["bidId"] for e in await t.social.events(PlacementEnded.event_type)] == [str(bid)]
