"""Bad input gets a clear 4xx and changes nothing."""

import uuid
from datetime import timedelta

import pytest

from .conftest import market_fixtures, snapshot


async def a_market(world):
    creator, posts = await world.creator()
    slot = await world.slot(creator, posts[0], minBid=10, buyNowPrice=90)
    buyer = await world.buyer()
    assert (await world.bid(buyer, slot["id"], 20)).status_code == 201
    return world, creator, posts, slot, buyer


market, unchanged_market = market_fixtures(a_market)


BAD_BIDS = [
    ({"amount": -5}, 422, None),
    ({"amount": 0}, 422, None),
    ({"amount": 1e12}, 422, None),
    ({"amount": 25.005}, 422, None),
    ({"amount": "lots"}, 422, None),
    # one price: the lone leader (20) would pay the minimum, so the current bid is 10
    ({"amount": 10}, 422, "Your bid must be higher than the current bid ($10.00) and at least the minimum bid "
                          "($10.00)."),
    ({"amount": 30, "autoBidEnabled": True, "maxAutoBid": 25}, 422, None),
    ({"amount": 30, "autoBidEnabled": True}, 422, None),
    ({"amount": 30, "commentId": "c1", "newCommentText": "hello"}, 422, None),
    ({"amount": 30, "newCommentText": "   "}, 422, "Please write a new comment to pin."),
    ({"amount": 30, "newCommentText": "x" * 2201}, 422, None),
    ({"amount": 30, "commentId": "c" * 65}, 422, None),
    ({"amount": 30, "surprise": 1}, 422, None),
]


@pytest.mark.parametrize(("fields", "status", "detail"), BAD_BIDS)
async def test_bad_bids_are_refused_without_effect(unchanged_market, fields, status, detail):
    world, _, _, slot, _ = unchanged_market
    other = await world.buyer()
    before = await snapshot(world)
    response = await world.http.post("/buyer/bids", json={"pinSlotId": slot["id"], **fields}, headers=other)
    assert response.status_code == status, response.text
    body = response.json()
    assert body["detail"] and body["code"]
    if detail:
        assert body["detail"] == detail
    assert await snapshot(world) == before


async def test_state_and_access_errors(market):
    world, creator, posts, slot, buyer = market
    before = await snapshot(world)
    other_creator, _ = await world.creator()
    checks = [
        (world.bid(buyer, str(uuid.uuid4()), 50), 404),
        (world.http.post("/buyer/bids", json={"pinSlotId": slot["id"], "amount": 50}, headers=creator), 403),
        (world.http.get("/influencer/approvals", headers=buyer), 403),
        (world.http.post("/influencer/pin-slots", json={}, headers=buyer), 403),
        (world.http.get("/marketplace/slots"), 403),
        (world.http.post(f"/influencer/pin-slots/{slot['id']}/end-auction", headers=other_creator), 404),
        (world.http.post("/buyer/buy-now", json={"pinSlotId": slot["id"]}, headers=buyer), 409),
        (world.http.get("/marketplace/slots", params={"limit": 51}, headers=buyer), 422),
        (world.http.get("/marketplace/slots", params={"sortBy": "cheapest"}, headers=buyer), 422),
    ]
    for call, status in checks:
        response = await call
        assert response.status_code == status, response.text
    mine = (await world.http.get("/buyer/bids", headers=buyer)).json()[0]
    stranger = await world.buyer()
    for call in (world.http.put(f"/buyer/bids/{mine['id']}", json={"amount": 99}, headers=stranger),
                 world.http.post(f"/buyer/bids/{mine['id']}/cancel", headers=stranger),
                 world.http.post("/buyer/comment-submission", json={"bidId": mine["id"], "commentText": "hi"},
                                 headers=stranger)):
        assert (await call).status_code == 404
    leading = await world.http.post(f"/buyer/bids/{mine['id']}/cancel", headers=buyer)
    assert leading.status_code == 409 and leading.json()["detail"] == "You cannot cancel the highest bid."
    assert await snapshot(world) == before


async def test_slot_creation_rules(market):
    world, creator, posts, slot, _ = market
    now = world.clock.now
    other_creator_posts = await world.creator(posts=1)
    bad = [
        ({"postId": other_creator_posts[1][0]}, 422),  # someone else's post
        ({"postId": "not-synced-yet"}, 409),  # not heard of yet: retryable
        ({"postId": posts[0]}, 409),  # already has an active slot
        ({"minBid": 0}, 422),
        ({"buyNowPrice": 5}, 422),
        ({"auctionEnd": (now + timedelta(minutes=30)).isoformat()}, 422),
        ({"auctionEnd": (now + timedelta(days=31)).isoformat()}, 422),
        ({"duration": 6}, 422),
        ({"duration": 31}, 422),
        ({"category": "cars"}, 422),
        ({"title": " "}, 422),
    ]
    before = await snapshot(world)
    for fields, status in bad:
        body = {"postId": posts[1], "title": "T", "category": "tech", "minBid": 10,
                "auctionEnd": (now + timedelta(days=2)).isoformat(), **fields}
        response = await world.http.post("/influencer/pin-slots", json=body, headers=creator)
        assert response.status_code == status, (fields, response.text)
    assert await snapshot(world) == before


async def test_a_post_not_synced_yet_is_a_retryable_409(market):
    world, creator, _, _, _ = market
    body = {"postId": "17890000000000001", "title": "T", "category": "tech", "minBid": 10,
            "auctionEnd": (world.clock.now + timedelta(days=2)).isoformat()}
    response = await world.http.post("/influencer/pin-slots", json=body, headers=creator)
    assert response.status_code == 409 and response.headers["Retry-After"] == "1"
    assert response.json() == {"detail": "This post is still arriving from Instagram. Please try again in a moment.",
                               "code": "post_not_synced"}
