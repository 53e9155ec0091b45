"""The price chart's data: the slot's public price each time it moved, at the time it moved, kept by the
database whichever writer moved it; a bidder's hidden maximum never appears in it."""

from datetime import datetime


async def test_the_price_history_is_the_public_price_as_it_moved(world):
    creator, posts = await world.creator(posts=1)
    slot = await world.slot(creator, posts[0], minBid=20)
    first, second = await world.buyer("Avery"), await world.buyer("Blake")
    seen = []

    async def bid(buyer, amount, **fields):
        world.clock.advance(minutes=5)
        response = await world.bid(buyer, slot["id"], amount, **fields)
        assert response.status_code == 201, response.text
        detail = (await world.http.get(f"/marketplace/slots/{slot['id']}", headers=creator)).json()
        seen.append((detail["currentBid"], world.clock.now))

    await bid(first, 25, autoBidEnabled=True, maxAutoBid=60)  # the hidden maximum
    await bid(second, 31)  # the first's automatic bid answers: the price moves, the maximum stays hidden
    await bid(second, 45)
    detail = (await world.http.get(f"/marketplace/slots/{slot['id']}", headers=creator)).json()
    history = [(point["price"], point["at"]) for point in detail["priceHistory"]]

    assert [price for price, _ in history] == [20] + [price for price, _ in seen]
    assert 60 not in [price for price, _ in history]
    for (price, at), (_, when) in zip(history[1:], seen, strict=True):  # at the time it moved
        assert datetime.fromisoformat(at) == when, (price, at, when)
    mine = (await world.http.get("/influencer/pin-slots/active", headers=creator)).json()
    assert [p["price"] for p in mine[0]["priceHistory"]] == [price for price, _ in history]
