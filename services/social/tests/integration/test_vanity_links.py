"""Vanity links through the HTTP app on real PostgreSQL: the brand sets its page, `/go/<code>` redirects with UTM
parameters and counts people (not bots, previews or repeats within a minute), the results page reads them, and
the tracker announces the clicks with the comment's other figures."""

import asyncio
from urllib.parse import parse_qs, urlsplit

from pinbid_kit.events.social import CommentMetricsUpdated

from .conftest import World

BROWSER = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 Instagram 350.0"


async def set_link(world: World, bid, url="https://northwind.coffee/summer?ref=ig", promo="SUMMER-25", user=None):
    return await world.social.http.put(f"/instagram/placements/{bid}/link", json={"url": url, "promoCode": promo},
                                       headers=world.social.auth(user or world.buyer, "BUYER"))


async def visit(world: World, code: str, *, agent=BROWSER, address="203.0.113.7", method="GET"):
    return await world.social.http.request(method, f"/go/{code}", headers={
        "user-agent": agent, "x-forwarded-for": f"10.0.0.1, {address}"})


async def clicks(world: World, bid) -> int:
    found = await world.social.http.get(f"/instagram/placements/{bid}/results",
                                        headers=world.social.auth(world.buyer, "BUYER"))
    assert found.status_code == 200, found.text
    return found.json()["clicks"]


async def test_the_brand_sets_its_page_and_the_short_link_redirects_with_utm(world):
    bid = await world.bid(comment_text="Hello")
    made = await set_link(world, bid)
    assert made.status_code == 200, made.text
    link = made.json()
    assert link["shortUrl"].endswith(f"/go/{link['code']}") and link["promoCode"] == "SUMMER-25"
    again = (await set_link(world, bid, url="https://northwind.coffee/autumn", promo="")).json()
    assert again["code"] == link["code"] and again["promoCode"] is None  # one link per placement, updated
    answer = await visit(world, link["code"])
    assert answer.status_code == 302 and answer.headers["cache-control"] == "no-store"
    target = urlsplit(answer.headers["location"])
    assert (target.scheme, target.netloc, target.path) == ("https", "northwind.coffee", "/autumn")
    assert parse_qs(target.query) == {"utm_source": ["pinbid"], "utm_medium": ["instagram_pinned_comment"],
                                      "utm_campaign": ["pin-me"]}


async def test_only_the_bids_brand_sets_its_link_and_bad_pages_are_refused(world):
    bid = await world.bid(comment_text="Hello")
    for url in ("http://northwind.coffee", "javascript:alert(1)", "https://localhost/x", "not a url"):
        refused = await set_link(world, bid, url=url)
        assert refused.status_code == 422 and refused.json()["errors"][0]["field"] == "url", url
    assert (await set_link(world, bid, promo="two words")).status_code == 422
    stranger = await world.social.user("BUYER", name="Other Brand")
    assert (await set_link(world, bid, user=stranger)).status_code == 404
    creator = await world.social.http.put(f"/instagram/placements/{bid}/link", json={"url": "https://a.co/x"},
                                          headers=world.social.auth(world.creator))
    assert creator.status_code == 403


async def test_bots_previews_head_requests_and_repeats_within_a_minute_are_not_counted(world):
    bid = await world.bid(comment_text="Hello")
    code = (await set_link(world, bid)).json()["code"]
    assert (await visit(world, code)).status_code == 302
    assert (await visit(world, code)).status_code == 302  # the same person again at once
    for agent in ("facebookexternalhit/1.1", "WhatsApp/2.23.20", "Googlebot/2.1", ""):
        assert (await visit(world, code, agent=agent, address="198.51.100.9")).status_code == 302
    assert (await visit(world, code, method="HEAD", address="198.51.100.10")).status_code == 302
    assert await clicks(world, bid) == 1
    world.social.clock.advance(seconds=61)
    await visit(world, code)
    await visit(world, code, address="203.0.113.99")
    assert await clicks(world, bid) == 3


async def test_fifty_people_at_once_are_fifty_clicks_and_one_person_fifty_times_is_one(world):
    bid = await world.bid(comment_text="Hello")
    code = (await set_link(world, bid)).json()["code"]
    answers = await asyncio.gather(*(visit(world, code, address=f"203.0.113.{n}") for n in range(50)))
    assert {a.status_code for a in answers} == {302}
    assert await clicks(world, bid) == 50
    world.social.clock.advance(hours=2)
    await asyncio.gather(*(visit(world, code, address="192.0.2.1") for _ in range(50)))
    assert await clicks(world, bid) == 51
    hours = (await world.social.http.get(f"/instagram/placements/{bid}/results",
                                         headers=world.social.auth(world.buyer, "BUYER"))).json()["clicksByHour"]
    assert [h["clicks"] for h in hours] == [50, 1]


async def test_an_unknown_or_malformed_code_is_a_friendly_404_page(world):
    for code in ("zzzzzzz", "bad code", "x" * 40, "abc.def"):
        answer = await world.social.http.get(f"/go/{code}")
        assert answer.status_code == 404 and "This link does not exist" in answer.text, code
        assert answer.headers["content-type"].startswith("text/html")


async def test_the_tracker_announces_the_clicks_with_the_comments_figures(world):
    bid = await world.bid(comment_text="Count me")
    code = (await set_link(world, bid)).json()["code"]
    await world.login()
    assert (await world.pin(bid)).status_code == 200
    for n in range(3):
        await visit(world, code, address=f"198.51.100.{n}")
    world.social.clock.advance(hours=2)
    await world.social.service.state["tracker"].run_once()
    announced = [e for e in await world.social.events(CommentMetricsUpdated.event_type) if e["bidId"] == str(bid)]
    assert announced and announced[-1]["clicks"] == 3
    world.social.clock.advance(hours=2)
    await world.social.service.state["tracker"].run_once()  # likes keep coming: the clicks go along, never less
    later = [e for e in await world.social.events(CommentMetricsUpdated.event_type) if e["bidId"] == str(bid)]
    assert all(e["clicks"] == 3 for e in later)
    figures = (await world.social.http.get(f"/instagram/placements/{bid}/results",
                                           headers=world.social.auth(world.buyer, "BUYER"))).json()["figures"]
    assert len(figures) == len(later) and figures[-1]["likes"] == later[-1]["likes"]
