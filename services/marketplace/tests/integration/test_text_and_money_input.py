"""Control characters, bidi overrides and money sent as strings are a 422 naming the field, never a 500, and
change nothing; a search string with a NUL never reaches PostgreSQL."""

from collections.abc import Awaitable, Callable
from datetime import timedelta

import httpx
import pytest

from .conftest import market_fixtures, snapshot

BAD_TEXT = ["latte\x00art", "latte\x1bart", "latte \u202etra", "latte\u2066art"]
BAD_MONEY = ["1e3", " 50 ", "50", "", True, [50]]


async def a_market(world):
    creator, posts = await world.creator()
    slot = await world.slot(creator, posts[0], minBid=10)
    buyer = await world.buyer()
    return world, creator, posts, slot, buyer


market, unchanged_market = market_fixtures(a_market)


def new_slot(world, post_id: str, **fields) -> dict:
    return {"postId": post_id, "title": "Morning latte art", "description": "A reel", "category": "food",
            "minBid": 10, "auctionEnd": (world.clock.now + timedelta(days=2)).isoformat(), **fields}


async def test_a_description_keeps_its_line_breaks(market):
    world, creator, posts, _, _ = market
    response = await world.http.post("/influencer/pin-slots", headers=creator,
                                     json=new_slot(world, posts[1], description="Line one\nLine two"))
    assert response.status_code == 201, response.text
    assert response.json()["description"] == "Line one\nLine two"


def each(fields: list[str], values: list) -> list[tuple[str, object]]:
    return [(field, value) for field in fields for value in values]


async def refused_without_effect(world, field: str, send: Callable[[], Awaitable[httpx.Response]]) -> None:
    """A 422 that names `field`, and nothing written."""
    before = await snapshot(world)
    response = await send()
    assert response.status_code == 422, response.text
    assert field in {e["field"] for e in response.json()["errors"]}
    assert await snapshot(world) == before


@pytest.mark.parametrize(("field", "bad"), each(["title", "description", "category", "postId"], BAD_TEXT)
                         + each(["minBid", "buyNowPrice"], BAD_MONEY))
async def test_a_slot_with_control_characters_or_money_not_a_number_is_refused_without_effect(unchanged_market, field,
                                                                                                bad):
    world, creator, posts, _, _ = unchanged_market
    await refused_without_effect(world, field, lambda: world.http.post(
        "/influencer/pin-slots", json=new_slot(world, posts[1], **{field: bad}), headers=creator))


@pytest.mark.parametrize(("field", "bad"), each(["newCommentText", "commentId"], BAD_TEXT)
                         + each(["amount", "maxAutoBid"], BAD_MONEY))
async def test_a_bid_with_control_characters_or_money_not_a_number_is_refused_without_effect(unchanged_market, field,
                                                                                               bad):
    world, _, _, slot, buyer = unchanged_market
    fields = {"amount": 20, "autoBidEnabled": True, "maxAutoBid": 40, field: bad}
    await refused_without_effect(world, field, lambda: world.http.post(
        "/buyer/bids", json={"pinSlotId": slot["id"], **fields}, headers=buyer))


async def test_a_comment_submission_with_a_bidi_override_changes_nothing(market):
    world, _, _, slot, buyer = market
    placed = await world.bid(buyer, slot["id"], 20, newCommentText="Love this #ad\nfrom us")
    assert placed.status_code == 201, placed.text
    before = await snapshot(world)
    response = await world.http.post("/buyer/comment-submission", headers=buyer,
                                     json={"bidId": placed.json()["id"], "commentText": "Buy \u202ekcab"})
    assert response.status_code == 422 and response.json()["errors"][0]["field"] == "commentText"
    assert await snapshot(world) == before


@pytest.mark.parametrize("param", ["q", "category", "sortBy"])
async def test_a_nul_in_a_search_parameter_is_a_422(unchanged_market, param):
    world, _, _, _, buyer = unchanged_market
    response = await world.http.get("/marketplace/slots", params={param: "latte\x00"}, headers=buyer)
    assert response.status_code == 422, response.text
    assert response.json()["errors"][0]["field"] == param
    found = await world.http.get("/marketplace/slots", params={"q": "latte"}, headers=buyer)
    assert found.status_code == 200 and found.json()["total"] == 1
