from datetime import UTC, date, datetime

from pinbid_gateway.site_files import names_a_file, robots_txt, security_txt, sitemap_xml


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
