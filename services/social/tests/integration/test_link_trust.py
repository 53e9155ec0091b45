"""Links people can trust, through the HTTP app: an unsafe target is refused (the local deny list here), and a
target changed after the comment was pinned is recorded and shown to operators (GET /ops/links/changes)."""

import uuid

from .test_vanity_links import set_link


def operator(world):
    return world.social.auth(uuid.uuid4(), "OPERATOR")


async def changes(world, **query):
    answer = await world.social.http.get("/ops/links/changes", params=query, headers=operator(world))
    assert answer.status_code == 200, answer.text
    return answer.json()


async def test_a_listed_unsafe_target_is_refused_and_bad_hosts_say_why(world):
    bid = await world.bid(comment_text="Hello")
    unsafe = await set_link(world, bid, url="https://testsafebrowsing.appspot.com/s/phishing.html")
    assert unsafe.status_code == 422 and unsafe.json()["code"] == "unsafe_link"
    for url, why in (("https://2130706433/", "IP address"), ("https://shop.internal/", "reserved"),
                     ("https://pаypal.com/", "imitate")):
        refused = await set_link(world, bid, url=url)
        assert refused.status_code == 422 and why in refused.json()["detail"], url
    assert (await world.social.sql("SELECT count(*) FROM vanity_links"))[0][0] == 0


async def test_a_target_changed_after_the_pin_is_recorded_for_operators_and_one_before_is_not(world):
    bid = await world.bid(comment_text="Hello")
    assert (await set_link(world, bid, url="https://northwind.coffee/a")).status_code == 200
    assert (await set_link(world, bid, url="https://northwind.coffee/b")).status_code == 200  # not pinned yet
    assert await changes(world) == []
    await world.social.sql("UPDATE placements SET status = 'PINNED', pinned_at = :t WHERE bid_id = :b "
                           "RETURNING 1", b=bid, t=world.social.clock.now)
    world.social.clock.advance(hours=3)
    assert (await set_link(world, bid, url="https://northwind.coffee/b", promo="NEW")).status_code == 200
    assert await changes(world) == []  # the same target: nothing changed for the people who click
    assert (await set_link(world, bid, url="https://northwind-deals.shop/c")).status_code == 200
    [change] = await changes(world)
    assert (change["bidId"], change["fromUrl"], change["toUrl"]) == (
        str(bid), "https://northwind.coffee/b", "https://northwind-deals.shop/c")
    assert change["buyerId"] == str(world.buyer) and change["creatorId"] == str(world.creator)
    assert change["buyerName"] == "Northwind Coffee" and change["creatorName"] == "Maya Creator"
    assert change["pinnedAt"] < change["changedAt"]
    assert await changes(world, bidId=str(uuid.uuid4())) == []
    assert len(await changes(world, bidId=str(bid))) == 1
    brand = await world.social.http.get("/ops/links/changes", headers=world.social.auth(world.buyer, "BUYER"))
    assert brand.status_code == 403
