"""Disclosure first: a brand's own comment must open with a clear ad disclosure (422 `disclosure_missing`
otherwise), a new text is posted with the disclosure in front, and the exact text the creator approves is kept with
the bid and announced (CommentApproved), again whenever a changed comment is approved anew."""

from pinbid_kit.events import marketplace as m
from pinbid_testing import outbox_events


async def test_an_existing_comment_without_a_disclosure_at_its_start_is_refused_with_how_to_fix_it(world):
    creator, posts = await world.creator()
    slot = await world.slot(creator, posts[0], minBid=10)
    brand = await world.buyer("Nova")
    for words in ("Our summer drop is here #ad", "Summer drop, ad inside", "@nova summer drop"):
        refused = await world.bid(brand, slot["id"], 20, commentId="c-1", commentText=words)
        assert refused.status_code == 422, words
        body = refused.json()
        assert body["code"] == "disclosure_missing" and body["errors"][0]["field"] == "commentId"
        assert "must begin with a clear ad disclosure" in body["detail"] and "write a new comment" in body["detail"]
    for n, words in enumerate(("#ad Our summer drop", "Ad · @nova: drop", "Sponsored: drop",
                               "Paid partnership with @nova")):
        assert (await world.bid(brand, slot["id"], 20 + 10 * n, commentId="c-1",
                                commentText=words)).status_code == 201, words


async def test_instagram_limits_are_checked_before_the_bid_is_taken(world):
    creator, posts = await world.creator()
    slot = await world.slot(creator, posts[0], minBid=10)
    brand = await world.buyer("Nova")
    tags = await world.bid(brand, slot["id"], 20, newCommentText=" ".join(f"#tag{n}" for n in range(31)))
    assert tags.status_code == 422 and tags.json()["code"] == "instagram_limit"
    assert "at most 30 hashtags" in tags.json()["detail"]
    mentions = await world.bid(brand, slot["id"], 20, newCommentText="@a @b @c @d @e hello")
    assert mentions.status_code == 422 and "mention at most 5" in mentions.json()["detail"]  # 5 + the brand's own
    long = await world.bid(brand, slot["id"], 20, newCommentText="x" * 2180)
    assert long.status_code == 422 and long.json()["errors"][0]["field"] == "newCommentText"


async def test_approving_the_bid_approves_its_comment_with_the_disclosure_first(world):
    creator, posts = await world.creator()
    slot = await world.slot(creator, posts[0], minBid=10)
    brand = await world.buyer("Nova")
    bid = (await world.bid(brand, slot["id"], 20, newCommentText="Love this   reel")).json()
    assert bid["approvedComment"] is None
    await world.http.post(f"/influencer/pin-slots/{slot['id']}/end-auction", headers=creator)
    decided = await world.http.post(f"/influencer/approvals/{bid['id']}", json={"status": "APPROVED"},
                                    headers=creator)
    assert decided.status_code == 200, decided.text
    body = decided.json()
    assert body["approvedComment"] == "Ad · Nova Inc: Love this reel" and body["commentApprovedAt"]
    [event] = await outbox_events(world.service.db, m.CommentApproved.event_type)
    assert (event["bidId"], event["text"], event["commentId"]) == (bid["id"], "Ad · Nova Inc: Love this reel", None)


async def test_a_comment_changed_after_approval_waits_for_its_own_approval(world):
    creator, posts = await world.creator()
    slot = await world.slot(creator, posts[0], minBid=10)
    brand = await world.buyer("Nova")
    bid = (await world.bid(brand, slot["id"], 20, newCommentText="First words")).json()
    await world.http.post(f"/influencer/pin-slots/{slot['id']}/end-auction", headers=creator)
    await world.http.post(f"/influencer/approvals/{bid['id']}", json={"status": "APPROVED"}, headers=creator)
    changed = await world.http.post("/buyer/comment-submission", json={"bidId": bid["id"],
                                                                       "commentText": "Second words"}, headers=brand)
    assert changed.status_code == 200 and changed.json()["approvedComment"] is None
    approved = await world.http.post(f"/influencer/approvals/{bid['id']}/comment", headers=creator)
    assert approved.status_code == 200 and approved.json()["approvedComment"] == "Ad · Nova Inc: Second words"
    again = await world.http.post(f"/influencer/approvals/{bid['id']}/comment", headers=creator)
    assert again.status_code == 200
    approvals = await outbox_events(world.service.db, m.CommentApproved.event_type)
    assert [e["text"] for e in approvals] == ["Ad · Nova Inc: First words", "Ad · Nova Inc: Second words"]
    other = await world.creator(name="Other")
    assert (await world.http.post(f"/influencer/approvals/{bid['id']}/comment",
                                  headers=other[0])).status_code == 404


async def test_a_bid_still_live_has_no_comment_to_approve(world):
    creator, posts = await world.creator()
    slot = await world.slot(creator, posts[0], minBid=10)
    bid = (await world.bid(await world.buyer(), slot["id"], 20, newCommentText="Words")).json()
    refused = await world.http.post(f"/influencer/approvals/{bid['id']}/comment", headers=creator)
    assert refused.status_code == 409 and refused.json()["code"] == "bid_state"
