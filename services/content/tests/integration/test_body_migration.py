"""Migration 0003 renders the body of every article already stored, from the source the row keeps."""

import psycopg
from pinbid_kit.migrations import upgrade

ARTICLE = ("INSERT INTO articles (slug, type, title, author, published_at, excerpt, category, tags, featured, "
           "published, read_time, content, faq, search_text, source_hash) VALUES (%s, %s, 'T', 'A', '2026-10-01', "
           "'E', 'c', '{}', false, %s, 1, %s, '[]', '', 'old')")


def test_stored_articles_get_their_rendered_body(new_database):
    url = new_database()
    upgrade(url, "pinbid_content", "0002")
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(ARTICLE, ("md-one", "md", True, "Hello *you*"))
        conn.execute(ARTICLE, ("mdx-one", "mdx", False, "One\n<StepsDemo />\nTwo"))
        conn.execute(ARTICLE, ("html-one", "html", True, "<p>kept</p>"))
    upgrade(url, "pinbid_content")
    with psycopg.connect(url) as conn:
        bodies = dict(conn.execute("SELECT slug, body FROM articles").fetchall())
    assert bodies == {
        "md-one": [{"kind": "html", "html": "<p>Hello <em>you</em></p>"}],
        "mdx-one": [{"kind": "html", "html": "<p>One</p>"}, {"kind": "steps"}, {"kind": "html", "html": "<p>Two</p>"}],
        "html-one": [{"kind": "html", "html": "<p>kept</p>"}],
    }
