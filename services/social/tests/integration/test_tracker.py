"""The pinned-comment worker: metrics, unpin detection, completion, and exactly-once runs."""

import asyncio
import uuid
from datetime import UTC, datetime

import pytest
from pinbid_kit.events.marketplace import BidAwarded, SlotCreated
from pinbid_kit.events.social import CommentMetricsUpdated, CommentUnpinned, PlacementCompleted, PlacementKept
from pinbid_social.ports import MediaRef, ProviderError
from pinbid_social.tracker import RunReport


@pytest.fixture
async def pinned(social):
    """A creator with `n` pinned comments (one per post), each for a 7-day placement."""
    creator = await social.user(handle="maya.makes")
    buyer = await social.user("BUYER", name="Leo", business="Northwind Coffee")
    await social.connect(creator)
    await social.http.post("/influencer/instagram-login", headers=social.auth(creator),
                           json={"username": "maya.makes", "password": "sandbox"})
    posts = (await social.http.get("/instagram/posts", headers=social.auth(creator))).json()
    bids = []
    for post in posts[:3]:
        slot_id, bid_id = uuid.uuid4(), uuid.uuid4()
        await social.deliver(SlotCreated(slot_id=slot_id, creator_id=creator, post_id=post["id"], title="t",
                                         category="food", min_bid_cents=100,
                                         auction_end=datetime.now(UTC), duration_days=7))
        await social.award(BidAwarded(bid_id=bid_id, slot_id=slot_id, creator_id=creator, buyer_id=buyer,
                                        buyer_name="Leo", post_id=post["id"], comment_text=f"Hello {post['id']}",
                                        final_price_cents=1000, duration_days=7))
        response = await social.http.put(f"/influencer/pin-comment/{bid_id}", headers=social.auth(creator))
        assert response.status_code == 200, response.text
        bids.append((bid_id, post, response.json()["commentId"]))
    return creator, bids


async def test_metrics_move_and_are_published_only_when_they_change(social, pinned):
    tracker = social.service.state["tracker"]
    assert (await tracker.run_once()).checked == 0  # not due yet
    social.clock.advance(hours=20)
    report = await tracker.run_once()
    assert report.checked == 3 and report.metrics == 3 and report.unpinned == 0
    likes = await social.sql("SELECT likes FROM placements ORDER BY bid_id")
    assert all(row[0] > 0 for row in likes)
    assert (await tracker.run_once()).checked == 0  # each comment once per interval
    social.clock.advance(seconds=901)
    await tracker.run_once()
    assert len(await social.events(CommentMetricsUpdated.event_type)) >= 3


async def unpin(social, post, comment_id) -> None:
    sandbox = social.service.state["providers"].sandbox
    session = (await social.sql("SELECT session FROM pin_sessions"))[0][0]
    await sandbox.unpin(social.service.state["pins"].box.open(session), MediaRef(post["id"], ""), comment_id)


async def unpinned_and_read_an_hour_later(social, pinned) -> tuple[uuid.UUID, str, RunReport]:
    """The first placement's comment unpinned, and the tracker's reading an hour later: (bid, comment, report)."""
    _, bids = pinned
    bid_id, post, comment_id = bids[0]
    await unpin(social, post, comment_id)
    social.clock.advance(hours=1)
    return bid_id, comment_id, await social.service.state["tracker"].run_once()


async def test_an_unpin_is_judged_on_the_second_reading_in_a_row_and_once(social, pinned):
    bid_id, _, first = await unpinned_and_read_an_hour_later(social, pinned)
    tracker = social.service.state["tracker"]
    assert (first.suspect, first.unpinned) == (1, 0)  # one bad reading judges nothing: checked again soon
    assert await social.events(CommentUnpinned.event_type) == []
    assert (await social.sql("SELECT status, misses FROM placements WHERE bid_id = :b", b=bid_id)) == [("PINNED", 1)]
    social.clock.advance(minutes=11)
    assert (await tracker.run_once()).unpinned == 1
    events = await social.events(CommentUnpinned.event_type)
    assert [(e["bidId"], e["reason"]) for e in events] == [(str(bid_id), "UNPINNED")]
    assert (await social.sql("SELECT status, unpin_reason FROM placements WHERE bid_id = :b", b=bid_id)) == [
        ("UNPINNED", "UNPINNED")]
    social.clock.advance(hours=1)
    await tracker.run_once()
    assert len(await social.events(CommentUnpinned.event_type)) == 1


async def test_a_comment_back_in_place_at_the_second_reading_is_not_judged(social, pinned):
    bid_id, comment_id, first = await unpinned_and_read_an_hour_later(social, pinned)
    assert first.suspect == 1
    tracker = social.service.state["tracker"]
    await social.sql("UPDATE sandbox_comments SET pinned_at = now() WHERE id = :c RETURNING 1", c=comment_id)
    social.clock.advance(minutes=11)
    assert (await tracker.run_once()).unpinned == 0
    assert (await social.sql("SELECT status, misses FROM placements WHERE bid_id = :b", b=bid_id)) == [("PINNED", 0)]


async def test_a_deleted_or_hidden_comment_is_judged_with_its_reason(social, pinned):
    _, bids = pinned
    await social.sql("DELETE FROM sandbox_comments WHERE id = :c RETURNING 1", c=bids[1][2])
    await social.sql("UPDATE sandbox_comments SET hidden = true WHERE id = :c RETURNING 1", c=bids[2][2])
    tracker = social.service.state["tracker"]
    social.clock.advance(hours=1)
    assert (await tracker.run_once()).suspect == 2
    social.clock.advance(minutes=11)
    assert (await tracker.run_once()).unpinned == 2
    reasons = {e["bidId"]: e["reason"] for e in await social.events(CommentUnpinned.event_type)}
    assert reasons == {str(bids[1][0]): "DELETED", str(bids[2][0]): "HIDDEN"}


async def test_a_provider_that_cannot_be_reached_judges_nothing(social, pinned):
    tracker = social.service.state["tracker"]
    sandbox = social.service.state["providers"].sandbox

    async def unreachable(*args, **kwargs):
        raise ProviderError("Instagram is down")

    original = sandbox.comment_figures
    sandbox.comment_figures = unreachable
    try:
        for _ in range(3):
            social.clock.advance(hours=1)
            report = await tracker.run_once()
            assert (report.failed, report.suspect, report.unpinned) == (3, 0, 0)
    finally:
        sandbox.comment_figures = original
    assert await social.sql("SELECT DISTINCT status, misses FROM placements") == [("PINNED", 0)]


async def test_each_whole_day_kept_is_announced_once_in_order(social, pinned):
    tracker = social.service.state["tracker"]
    social.clock.advance(hours=30)
    assert (await tracker.run_once()).kept_days == 3  # day 1 of each of the three placements
    social.clock.advance(days=2)
    assert (await tracker.run_once()).kept_days == 6  # days 2 and 3, once each
    social.clock.advance(hours=1)
    assert (await tracker.run_once()).kept_days == 0
    kept = [(e["bidId"], e["daysKept"]) for e in await social.events(PlacementKept.event_type)]
    for bid_id, _, _ in pinned[1]:
        assert [d for b, d in kept if b == str(bid_id)] == [1, 2, 3]


async def test_the_placement_completes_after_its_duration(social, pinned):
    social.clock.advance(days=7, seconds=1)
    report = await social.service.state["tracker"].run_once()
    assert report.completed == 3 and report.unpinned == 0
    assert len(await social.events(PlacementCompleted.event_type)) == 3
    social.clock.advance(days=1)
    assert (await social.service.state["tracker"].run_once()).checked == 0


async def test_concurrent_runs_check_each_comment_once(social, pinned):
    social.clock.advance(hours=5)
    tracker = social.service.state["tracker"]
    reports = await asyncio.gather(*(tracker.run_once() for _ in range(4)))
    assert sum(r.checked for r in reports) == 3
    assert len(await social.events(CommentMetricsUpdated.event_type)) == 3


async def test_a_result_for_a_row_that_moved_on_meanwhile_is_not_applied(social, pinned):
    """The batched apply keeps the per-row condition: a placement that left PINNED between the claim
    and the apply (another run, or a person) gets neither an update nor an event."""
    _, bids = pinned
    social.clock.advance(hours=1)
    tracker = social.service.state["tracker"]
    due = await tracker._claim()
    assert len(due) == 3
    await social.sql("UPDATE placements SET status = 'COMPLETED' WHERE bid_id = :b RETURNING 1", b=bids[0][0])
    report = RunReport()
    await tracker._check(due, report)
    assert report.checked == 3 and report.metrics == 2
    published = {e["bidId"] for e in await social.events(CommentMetricsUpdated.event_type)}
    assert published == {str(bids[1][0]), str(bids[2][0])}
    assert (await social.sql("SELECT status, likes FROM placements WHERE bid_id = :b", b=bids[0][0])) == [
        ("COMPLETED", 0)]
