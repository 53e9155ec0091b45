from datetime import UTC, date, datetime

from fastapi import FastAPI
from pinbid_gateway.app import Gateway
from pinbid_gateway.site_files import names_a_file, robots_txt, security_txt, sitemap_xml
from pinbid_gateway.upstreams import Upstreams
from pinbid_testing import client


def test_paths_that_name_a_file():
    assert names_a_file("favicon.ico") and names_a_file("assets/index-3f2a.js") and names_a_file("a/b/icon.PNG")
    assert not names_a_file("blog/how-pinned-comments-sell") and not names_a_file("") and not names_a_file("my-bids/42")
    assert not names_a_file("blog/version-2.0-is-here.")  # a trailing dot is no extension


def test_robots_keeps_crawlers_out_of_the_app_and_names_the_sitemap():
    text = robots_txt("https://pinbid.example")
    assert "Disallow: /api/\n" in text and "Disallow: /my-bids\n" in text and "Disallow: /go/\n" in text
    assert text.endswith("Sitemap: https://pinbid.example/sitemap.xml\n")


def test_the_sitemap_lists_public_pages_and_articles_escaped():
    xml = sitemap_xml("https://pinbid.example", [("a&b", date(2026, 9, 1))])
    assert "<loc>https://pinbid.example/blog</loc>" in xml and "<loc>https://pinbid.example/terms</loc>" in xml
    assert "<loc>https://pinbid.example/blog/a&amp;b</loc><lastmod>2026-09-01</lastmod>" in xml
    assert "/dashboard" not in xml


def test_security_txt_expires_a_year_ahead():
    text = security_txt("https://pinbid.example", "mailto:security@pinbid.example", datetime(2026, 11, 26, tzinfo=UTC))
    assert text.splitlines()[:2] == ["Contact: mailto:security@pinbid.example", "Expires: 2027-11-26T00:00:00Z"]
    assert "Canonical: https://pinbid.example/.well-known/security.txt" in text


def blog_with(*slugs: str) -> FastAPI:
    """Stands in for the content service's article list."""
    app = FastAPI()

    @app.get("/blog/articles")
    async def articles(page: int = 1) -> dict:
        return {"articles": [{"slug": s, "publishedAt": "2026-09-01"} for s in slugs] if page == 1 else [],
                "total": len(slugs), "totalPages": 1, "page": page}

    return app


async def test_the_site_files_are_real_and_a_missing_file_is_a_404(stack):
    http, gateway, _ = stack
    robots = await http.get("/robots.txt")
    assert robots.status_code == 200 and robots.headers["content-type"].startswith("text/plain")
    assert "Sitemap: http://test/sitemap.xml" in robots.text
    security = await http.get("/.well-known/security.txt")
    assert security.status_code == 200 and security.text.startswith("Contact: mailto:security@test\nExpires: ")
    alone = await http.get("/sitemap.xml")  # the content service is not part of this stack: the pages alone
    assert alone.status_code == 200 and alone.headers["content-type"].startswith("application/xml")
    assert "<loc>http://test/blog</loc>" in alone.text and "<lastmod>" not in alone.text
    for missing in ("/apple-touch-icon.png", "/assets/gone-1234.js", "/favicon.png"):
        response = await http.get(missing)
        assert response.status_code == 404, missing
        assert response.headers["content-type"].startswith("text/html") and "<h1>Not found</h1>" in response.text
        assert "Pinbid app" not in response.text
    no_icon = await http.get("/favicon.ico")  # this build has no icon at all: a 404 like any missing file
    assert no_icon.status_code == 404 and no_icon.headers["content-type"].startswith("text/html")
    assert "Pinbid app" in (await http.get("/blog/how-pins-sell")).text  # the app's own routes still get the app


async def test_the_sitemap_lists_the_blogs_articles(stack):
    _, gateway, _ = stack
    upstreams = Upstreams.in_process({"content": blog_with("first-post", "second-post")}, timeout=10)
    with_blog = Gateway(gateway.settings, upstreams, gateway.verifier)
    async with client(with_blog.app) as http:
        xml = (await http.get("/sitemap.xml")).text
    assert "<loc>http://test/blog/first-post</loc><lastmod>2026-09-01</lastmod>" in xml
    assert "<loc>http://test/blog/second-post</loc>" in xml


async def test_favicon_ico_is_the_apps_icon(stack):
    http, gateway, _ = stack
    icon = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32"/></svg>'
    (gateway.settings.web_dist / "favicon.svg").write_text(icon)
    for path in ("/favicon.ico", "/favicon.svg"):
        response = await http.get(path)
        assert response.status_code == 200, path
        assert response.headers["content-type"] == "image/svg+xml" and response.text == icon
    assert (await http.get("/favicon.ico")).headers["cache-control"] == "public, max-age=86400"
    assert (await http.head("/favicon.ico")).status_code == 200
