"""A NUL or a bidi override in the newsletter email, a blog search or an article's slug is a 4xx in the error
format, never a 500, and stores nothing."""

import pytest
from pinbid_testing import client
from sqlalchemy import text


async def stored(service) -> tuple:
    async with service.db.transaction() as session:
        return (await session.scalar(text("SELECT count(*) FROM subscribers")),
                await session.scalar(text("SELECT count(*) FROM mail_queue")))


@pytest.mark.parametrize("email", ["ana\x00@example.com", "ana@example.com\x00", "ana\u202e@example.com",
                                   "ana@exa\u2066mple.com"])
async def test_a_subscription_with_a_control_character_is_a_422_and_stores_nothing(make_service, articles_dir,
                                                                                   email):
    service = make_service(articles_dir)
    async with client(service.app) as http:
        before = await stored(service)
        response = await http.post("/newsletter/subscribe", json={"email": email})
        assert response.status_code == 422, response.text
        assert response.json()["errors"][0]["field"] == "email"
        assert await stored(service) == before


async def test_a_nul_in_a_blog_search_or_slug_is_refused(make_service, articles_dir):
    service = make_service(articles_dir)
    async with client(service.app) as http:
        for params in ({"q": "pin\x00"}, {"category": "Tips\x00"}, {"q": "pin \u202e"}):
            response = await http.get("/blog/articles", params=params)
            assert response.status_code == 422, response.text
            assert response.json()["errors"][0]["field"] == next(iter(params))
        slug = await http.get("/blog/articles/pinned%E2%80%AEcomments")
        assert slug.status_code in (404, 422) and slug.json()["code"]
        assert (await http.get("/blog/articles", params={"q": "pin"})).status_code == 200
