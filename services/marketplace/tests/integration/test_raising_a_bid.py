"""Raising a bid keeps what the buyer chose: the comment it names (or had) and the maximum they entered."""

from pinbid_kit.events import marketplace as m
from pinbid_testing import outbox_events


async def test_a_raise_that_names_a_previous_comment_keeps_it_to_the_approvals_card(world):
    creator, posts = await world.creator()
    slot = await world.slot(creator, posts[0], minBid=10)
    brand = await world.buyer("Nova")
    first = await world.bid(brand, slot["id"], 12, newCommentText="Love this reel #ad")
    assert first.status_code == 201 and first.json()["comment"] == "Love this reel #ad"

    raised = await world.bid(brand, slot["id"], 30, commentId="c-17", commentUsername="@nova.brand",
                             commentText="  #ad Our summer drop is here  ")
    assert raised.status_code == 201, raised.text
    body = raised.json()
    assert body["id"] == first.json()["id"]
    assert (body["comment"], body["commentId"], body["commentUsername"]) == (
        "#ad Our summer drop is here", "c-17", "nova.brand")

    mine = (await world.http.get("/buyer/bids", headers=brand)).json()
    assert [(b["comment"], b["commentId"]) for b in mine] == [("#ad Our summer drop is here", "c-17")]
    await world.http.post(f"/influencer/pin-slots/{slot['id']}/end-auction", headers=creator)
    card = (await world.http.get("/influencer/approvals", headers=creator)).json()[0]
    # the creator sees the named comment once social read it on the post, never the client's claim
    assert (card["comment"], card["commentId"], card["commentUsername"]) == (None, "c-17", None)
    changes = await outbox_events(world.service.db, m.BidCommentChanged.event_type)
    assert [(c["commentId"], c["commentText"]) for c in changes] == [
        (None, "Love this reel #ad"), ("c-17", "#ad Our summer drop is here")]


async def test_a_raise_that_names_no_comment_keeps_the_one_the_bid_had(world):
    creator, posts = await world.creator()
    slot = await world.slot(creator, posts[0], minBid=10)
    brand, rival = await world.buyer("Nova"), await world.buyer("Rival")
    await world.bid(brand, slot["id"], 12, commentId="c-9", commentText="Ad · @nova: Hi from Nova")
    assert (await world.bid(rival, slot["id"], 20)).json()["status"] == "ACTIVE"  # Nova is outbid
    back = await world.bid(brand, slot["id"], 25)
    assert back.status_code == 201 and back.json()["status"] == "ACTIVE"
    assert (back.json()["comment"], back.json()["commentId"]) == ("Ad · @nova: Hi from Nova", "c-9")
    raised = await world.bid(brand, slot["id"], 40)  # leading: only the ceiling moves
    assert (raised.json()["comment"], raised.json()["commentId"]) == ("Ad · @nova: Hi from Nova", "c-9")
    changed = await world.http.put(f"/buyer/bids/{back.json()['id']}", json={"amount": 50}, headers=brand)
    assert changed.status_code == 200 and changed.json()["comment"] == "Ad · @nova: Hi from Nova"
    assert len(await outbox_events(world.service.db, m.BidCommentChanged.event_type)) == 1


async def test_the_text_of_a_previous_comment_needs_its_id_and_changes_nothing_alone(world):
    creator, posts = await world.creator()
    slot = await world.slot(creator, posts[0], minBid=10)
    brand = await world.buyer()
    await world.bid(brand, slot["id"], 12, newCommentText="Keep me")
    refused = await world.bid(brand, slot["id"], 30, commentText="Words without a comment")
    assert refused.status_code == 422
    assert refused.json()["errors"] == [{"field": "commentText",
                                         "message": "The comment's text goes with the id of the comment you chose."}]
    too_long = await world.bid(brand, slot["id"], 30, commentId="c-1", commentText="x" * 2201)
    assert too_long.status_code == 422 and too_long.json()["errors"][0]["field"] == "commentText"
    mine = (await world.http.get("/buyer/bids", headers=brand)).json()[0]
    assert (mine["amount"], mine["comment"], mine["commentId"]) == (12, "Keep me", None)


async def test_a_leader_who_raises_sees_the_visible_bid_and_the_new_maximum(world):
    creator, posts = await world.creator()
    slot = await world.slot(creator, posts[0], minBid=10)
    leader, rival = await world.buyer("Lead"), await world.buyer("Rival")
    await world.bid(leader, slot["id"], 20, autoBidEnabled=True, maxAutoBid=80)
    await world.bid(rival, slot["id"], 30)
    raised = await world.bid(leader, slot["id"], 90)  # a plain amount above the ceiling
    assert raised.status_code == 201
    assert (raised.json()["amount"], raised.json()["maxAutoBid"], raised.json()["autoBidEnabled"]) == (31, 90, True)
    lower = await world.bid(leader, slot["id"], 45)  # below the ceiling: the maximum stays
    assert (lower.json()["amount"], lower.json()["maxAutoBid"], lower.json()["autoBidEnabled"]) == (31, 90, True)
    detail = (await world.http.get(f"/marketplace/slots/{slot['id']}", headers=rival)).json()
    assert detail["currentBid"] == 30  # the rival's 30, what the leader pays; its own 31 is its own

    plain = await world.buyer("Plain")
    other_slot = await world.slot(creator, posts[1], minBid=10)
    placed = (await world.bid(plain, other_slot["id"], 15)).json()
    assert (placed["amount"], placed["maxAutoBid"], placed["autoBidEnabled"]) == (15, None, False)
    raised_plain = (await world.bid(plain, other_slot["id"], 25)).json()
    assert (raised_plain["amount"], raised_plain["maxAutoBid"], raised_plain["autoBidEnabled"]) == (15, 25, True)


async def test_with_no_bid_yet_a_low_bid_is_told_the_minimum_only(world):
    creator, posts = await world.creator()
    slot = await world.slot(creator, posts[0], minBid=10)
    brand = await world.buyer()
    low = await world.bid(brand, slot["id"], 5)
    assert low.status_code == 422
    assert low.json()["errors"] == [{"field": "amount",
                                     "message": "Your bid must be at least the minimum bid ($10.00)."}]
    assert (await world.http.get("/buyer/bids", headers=brand)).json() == []
