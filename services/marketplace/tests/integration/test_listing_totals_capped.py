"""A listing counts its matches up to a cap: under it the total is exact, past it the page says "at least the cap"
and pages stop there; filtered by nothing but a category, the total stays exact however large. Bad paging and
search input gets a 422; `%_\\` in a search match themselves, and a search of nothing but them is refused."""

import pytest


@pytest.fixture
async def listed(world):
    """Five food slots (two titled with the LIKE wildcards) and one tech slot; the listing counts up to 3."""
    creator, posts = await world.creator(posts=6)
    titles = ["Latte art", "Latte pour", "Latte 100% oat", "Latte_cold brew", "Latte at dawn", "Keyboard"]
    for n, title in enumerate(titles):
        await world.slot(creator, posts[n], title=title, category="tech" if title == "Keyboard" else "food")
    world.service.state["queries"].count_cap = 3
    return world, await world.buyer()


async def listing(world, buyer, **params) -> dict:
    response = await world.http.get("/marketplace/slots", params={"limit": 2, **params}, headers=buyer)
    assert response.status_code == 200, response.text
    return response.json()


def totals(page: dict) -> tuple[int, bool, int]:
    return page["total"], page["totalIsExact"], page["totalPages"]


async def test_under_the_cap_the_total_is_exact_and_past_it_at_least_the_cap(listed):
    world, buyer = listed
    assert totals(await listing(world, buyer, q="keyboard")) == (1, True, 1)
    assert totals(await listing(world, buyer, q="latte", verified="true")) == (3, False, 2)
    assert totals(await listing(world, buyer, q="latte", sortBy="price-low")) == (3, False, 2)


async def test_filtered_by_nothing_but_a_category_the_total_stays_exact_past_the_cap(listed):
    world, buyer = listed
    assert totals(await listing(world, buyer)) == (6, True, 2)  # six match; pages reach only the first three
    assert totals(await listing(world, buyer, category="food")) == (5, True, 2)


async def test_a_page_past_the_end_is_empty_with_its_total_and_one_past_the_cap_is_refused(listed):
    world, buyer = listed
    past_the_end = await listing(world, buyer, q="keyboard", page=2)
    assert (past_the_end["slots"], totals(past_the_end)) == ([], (1, True, 1))
    last = await listing(world, buyer, page=2)
    assert len(last["slots"]) == 2
    refused = await world.http.get("/marketplace/slots", params={"limit": 2, "page": 3}, headers=buyer)
    assert refused.status_code == 422, refused.text
    assert refused.json()["errors"][0]["field"] == "page"
    assert "first 3 matches" in refused.json()["detail"]


async def titles(world, buyer, q: str) -> list[str]:
    return sorted(s["title"] for s in (await listing(world, buyer, q=q, limit=10))["slots"])


async def test_like_wildcards_in_a_search_match_themselves(listed):
    world, buyer = listed
    assert [await titles(world, buyer, q) for q in ("100%", "latte_", "100% o", "100_")] == [
        ["Latte 100% oat"], ["Latte_cold brew"], ["Latte 100% oat"], []]


async def test_a_search_without_three_letters_in_a_row_matches_the_start_of_a_word(listed):
    world, buyer = listed
    assert [await titles(world, buyer, q) for q in ("ke", "oa", "ey", "at d")] == [
        ["Keyboard"], ["Latte 100% oat"], [], ["Latte at dawn"]]


@pytest.mark.parametrize(("params", "field"), [
    ({"limit": 10_000}, "limit"),
    ({"q": "latte " * 84}, "q"),  # 504 characters
    ({"sortBy": "cheapest"}, "sortBy"),
    ({"page": 0}, "page"),
    ({"q": "%_\\"}, "q"),
])
async def test_bad_paging_and_search_input_is_a_422_naming_the_field(listed, params, field):
    world, buyer = listed
    response = await world.http.get("/marketplace/slots", params=params, headers=buyer)
    assert response.status_code == 422, response.text
    assert response.json()["errors"][0]["field"] == field
