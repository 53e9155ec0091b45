import asyncio
import gzip
import json
from pathlib import Path

from pinbid_testing import client
from sqlalchemy import text


def article(slug: str, *, title: str | None = None, date: str = "2026-10-01", category: str = "creator-tips",
            tags: str = "[auctions]", featured: bool = False, published: bool = True, body: str | None = None,
            excerpt: str = "A short excerpt.", extra: str = "") -> str:
    return (f"---\nslug: {slug}\ntitle: {title or slug.replace('-', ' ').title()}\nauthor: Ana Ruiz\n"
            f"date: {date}\nexcerpt: {excerpt}\ncategory: {category}\ntags: {tags}\n"
            f"featured: {str(featured).lower()}\npublished: {str(published).lower()}\n{extra}---\n"
            f"{body or 'Some words about pinned comments. ' * 30}\n")


def write(folder: Path, name: str, text: str) -> None:
    (folder / name).write_text(text, encoding="utf-8")


async def views_of(service, slug: str) -> int:
    async with service.db.transaction() as session:
        return await session.scalar(text("SELECT views FROM articles WHERE slug = :s"), {"s": slug})


async def test_sync_creates_updates_unpublishes_and_keeps_views(make_service, articles_dir):
    write(articles_dir, "one.md", article("one"))
    write(articles_dir, "two.html", article("two", body="<p>Hello <script>alert(1)</script><b>there</b></p>"))
    service = make_service(articles_dir)
    sync = service.state["sync_articles"]

    first = await sync()
    assert (first.created, first.updated, first.unpublished) == (2, 0, 0)
    again = await sync()
    assert (again.created, again.updated, again.unpublished) == (0, 0, 0)

    async with client(service.app) as http:
        assert (await http.get("/blog/articles/one")).status_code == 200
        assert await views_of(service, "one") == 1
        write(articles_dir, "one.md", article("one", title="One, rewritten"))
        (articles_dir / "two.html").unlink()
        changed = await sync()
        assert (changed.created, changed.updated, changed.unpublished) == (0, 1, 1)
        body = (await http.get("/blog/articles/one")).json()
        assert body["title"] == "One, rewritten"
        assert body["views"] == 2  # the view count survived the rewrite
        gone = await http.get("/blog/articles/two")
        assert gone.status_code == 404
        assert gone.json() == {"detail": "Blog post not found.", "code": "not_found"}

        write(articles_dir, "two.html", article("two", body="<p>Back again</p>"))
        back = await sync()
        assert (back.created, back.updated, back.unpublished) == (0, 1, 0)
        assert (await http.get("/blog/articles/two")).json()["content"] == "<p>Back again</p>"


async def test_a_broken_file_does_not_unpublish_anything(make_service, articles_dir):
    write(articles_dir, "one.md", article("one"))
    service = make_service(articles_dir)
    await service.state["sync_articles"]()
    write(articles_dir, "one.md", "---\nslug: one\ntitle: [unclosed\n---\nbody\n")
    result = await service.state["sync_articles"]()
    assert (result.problems, result.unpublished) == (1, 0)
    async with client(service.app) as http:
        assert (await http.get("/blog/articles/one")).status_code == 200


async def test_concurrent_syncs_agree(make_service, articles_dir):
    for i in range(5):
        write(articles_dir, f"a{i}.md", article(f"a{i}"))
    service = make_service(articles_dir)
    results = await asyncio.gather(*(service.state["sync_articles"]() for _ in range(5)))
    assert sum(r.created for r in results) == 5
    assert sum(r.updated for r in results) == 0


async def test_html_is_sanitised_and_read_time_computed(make_service, articles_dir):
    body = "<h2>Title</h2><p onclick='x()'>" + "word " * 450 + "</p><script>steal()</script>" \
           "<a href='javascript:evil()'>link</a><img src='https://img.example/a.png' onerror='x()'>"
    write(articles_dir, "h.html", article("h", body=body))
    service = make_service(articles_dir)
    await service.state["sync_articles"]()
    async with client(service.app) as http:
        got = (await http.get("/blog/articles/h")).json()
    assert got["type"] == "html"
    for bad in ("<script", "onclick", "javascript:", "onerror", "steal"):
        assert bad not in got["content"]
    assert "<h2>Title</h2>" in got["content"] and "https://img.example/a.png" in got["content"]
    assert got["readTime"] == 3  # 452 words at 200 a minute


async def test_listing_pages_newest_first(make_service, articles_dir):
    for day in range(1, 24):
        write(articles_dir, f"p{day}.md", article(f"post-{day}", date=f"2026-10-{day:02d}"))
    write(articles_dir, "draft.md", article("draft", date="2026-10-30", published=False))
    service = make_service(articles_dir)
    await service.state["sync_articles"]()
    async with client(service.app) as http:
        first = (await http.get("/blog/articles", params={"limit": 10})).json()
        third = (await http.get("/blog/articles", params={"limit": 10, "page": 3})).json()
        beyond = (await http.get("/blog/articles", params={"limit": 10, "page": 9})).json()
        default = (await http.get("/blog/articles")).json()
    assert (first["total"], first["totalPages"], first["page"]) == (23, 3, 1)
    assert [a["slug"] for a in first["articles"][:3]] == ["post-23", "post-22", "post-21"]
    assert [a["slug"] for a in third["articles"]] == ["post-3", "post-2", "post-1"]
    assert beyond["articles"] == [] and beyond["total"] == 23
    assert len(default["articles"]) == 10
    summary = first["articles"][0]
    assert set(summary) == {"slug", "type", "title", "author", "publishedAt", "excerpt", "category", "tags",
                            "featured", "imageUrl", "views", "readTime"}
    assert summary["publishedAt"] == "2026-10-23" and summary["imageUrl"] is None


async def test_search_and_category(make_service, articles_dir):
    write(articles_dir, "a.md", article("alpha", title="Second-Price Auctions Explained", category="brand-playbook",
                                        tags="[bidding]"))
    write(articles_dir, "b.md", article("beta", excerpt="How payouts reach creators.", tags="[Money, Payouts]"))
    write(articles_dir, "c.mdx", article("gamma", body="Write the #ad disclosure first. 100% of creators agree_"))
    service = make_service(articles_dir)
    await service.state["sync_articles"]()

    async def slugs(**params) -> list[str]:
        response = await http.get("/blog/articles", params=params)
        assert response.status_code == 200, response.text
        return sorted(a["slug"] for a in response.json()["articles"])

    async with client(service.app) as http:
        assert await slugs(q="SECOND-price") == ["alpha"]          # title, any case
        assert await slugs(q="payouts reach") == ["beta"]          # excerpt, every word must appear
        assert await slugs(q="money") == ["beta"]                  # tags
        assert await slugs(q="#AD disclosure") == ["gamma"]        # content
        assert await slugs(q="100%") == ["gamma"]                  # % is literal, not a wildcard
        assert await slugs(q="_") == ["gamma"]                     # so is _
        assert await slugs(q="nothing-like-this") == []
        assert await slugs(category="brand-playbook") == ["alpha"]
        assert await slugs(category="creator-tips", q="payouts") == ["beta"]
        assert await slugs(q="   ") == ["alpha", "beta", "gamma"]
        categories = (await http.get("/blog/categories")).json()
    assert categories == {"categories": ["brand-playbook", "creator-tips"]}


async def test_featured_at_most_two_newest_first(make_service, articles_dir):
    for day, slug in ((1, "old"), (5, "mid"), (9, "new")):
        write(articles_dir, f"{slug}.md", article(slug, date=f"2026-09-{day:02d}", featured=True))
    write(articles_dir, "plain.md", article("plain", date="2026-09-30"))
    write(articles_dir, "hidden.md", article("hidden", date="2026-09-29", featured=True, published=False))
    service = make_service(articles_dir)
    await service.state["sync_articles"]()
    async with client(service.app) as http:
        got = (await http.get("/blog/featured")).json()
    assert [a["slug"] for a in got["articles"]] == ["new", "mid"]


async def test_article_detail_with_faq_and_seo(make_service, articles_dir):
    extra = ("imageUrl: https://images.example/cover.jpg\nreadTime: 7\nseo:\n  title: SEO title\n"
             "  description: SEO description\nfaq:\n  - question: Is it paid?\n    answer: \"Yes, with #ad.\"\n")
    write(articles_dir, "x.mdx", article("x", extra=extra, body="Intro\n\n<FormulaDemo />\n\nMore\n"))
    service = make_service(articles_dir)
    await service.state["sync_articles"]()
    async with client(service.app) as http:
        got = (await http.get("/blog/articles/x")).json()
        unknown = await http.get("/blog/articles/no-such-post")
        weird = await http.get("/blog/articles/" + "A" * 500)
    assert got["type"] == "mdx" and got["readTime"] == 7
    assert got["content"] == "Intro\n\n<FormulaDemo />\n\nMore"
    assert got["body"] == [{"kind": "html", "html": "<p>Intro</p>"}, {"kind": "formula"},
                           {"kind": "html", "html": "<p>More</p>"}]
    assert got["seo"] == {"title": "SEO title", "description": "SEO description"}
    assert got["faq"] == [{"question": "Is it paid?", "answer": "Yes, with #ad."}]
    assert got["imageUrl"] == "https://images.example/cover.jpg" and got["views"] == 1
    assert unknown.status_code == 404 and unknown.json()["detail"] == "Blog post not found."
    assert weird.status_code == 404


async def test_concurrent_views_are_all_counted(make_service, articles_dir):
    write(articles_dir, "hot.md", article("hot"))
    service = make_service(articles_dir)
    await service.state["sync_articles"]()
    async with client(service.app) as http:
        responses = await asyncio.gather(*(http.get("/blog/articles/hot") for _ in range(50)))
    assert all(r.status_code == 200 for r in responses)
    assert sorted(r.json()["views"] for r in responses) == list(range(1, 51))  # each saw its own increment
    assert await views_of(service, "hot") == 50


async def test_bad_paging_and_filters_are_422(make_service, articles_dir):
    service = make_service(articles_dir)
    async with client(service.app) as http:
        for params in ({"page": 0}, {"page": "x"}, {"limit": 51}, {"limit": 0}, {"q": "x" * 201},
                       {"category": "Creator Tips"}, {"unknown": "1"}):
            response = await http.get("/blog/articles", params=params)
            assert response.status_code == 422, params
            assert response.json()["code"] == "validation_error" and response.json()["errors"], params


async def test_the_article_list_is_gzipped_for_a_client_that_accepts_it(make_service, shipped_articles):
    """Issue 31: `/api/blog/articles` went uncompressed. The service gzips it (the gateway passes it through)."""
    service = make_service(shipped_articles)
    await service.state["sync_articles"]()
    async with client(service.app) as http:
        async with http.stream("GET", "/blog/articles", headers={"Accept-Encoding": "identity"}) as plain:
            plain_bytes = b"".join([chunk async for chunk in plain.aiter_raw()])
        async with http.stream("GET", "/blog/articles", headers={"Accept-Encoding": "gzip, br"}) as zipped:
            zipped_bytes = b"".join([chunk async for chunk in zipped.aiter_raw()])
    assert "content-encoding" not in plain.headers and json.loads(plain_bytes)["articles"]
    assert zipped.headers["content-encoding"] == "gzip" and zipped.headers["vary"] == "Accept-Encoding"
    assert gzip.decompress(zipped_bytes) == plain_bytes and len(zipped_bytes) < len(plain_bytes) / 2
