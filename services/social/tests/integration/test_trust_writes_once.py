"""Each trust use case writes the events it causes once: one outbox insert (and one NOTIFY) for the operator's
decision that ends a placement (DisputeDecided, the operator's action and PlacementEnded together), and one for a
run of the job that opens several disputes for missed fresh screenshots."""

import pytest
from pinbid_kit.events.social import PlacementDisputed
from pinbid_testing import counting_statements

from .test_trust import Trusted


@pytest.fixture
async def t(world) -> Trusted:
    return Trusted(world)


def writes(statements: list[str]) -> tuple[int, int]:
    return (sum(s.startswith("INSERT INTO outbox") for s in statements),
            sum(s.strip().upper().startswith("NOTIFY") for s in statements))


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
    assert writes(counted.statements) == (1, 1)
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
    assert writes(counted.statements) == (1, 1)
    disputed = await t.social.events(PlacementDisputed.event_type)
    assert sorted(d["bidId"] for d in disputed) == sorted(str(b) for b in bids)
    assert {d["reporter"] for d in disputed} == {"SYSTEM"}
