"""The files crawlers and security researchers ask for at a site's root, made for the site they are asked on.

Without them the web app's fallback answered `/robots.txt` or `/favicon.ico` with the app's HTML page. Now the
three known files are real, `/favicon.ico` is the app's own icon, and any other path that names a file the build
does not have is a plain 404 page (a browser or a crawler asked for a file, not the API: no JSON)."""

import re
from collections.abc import Iterable
from datetime import date, datetime, timedelta
from xml.sax.saxutils import escape

# what a search engine may list: the public pages of SPEC section 3 (the blog's articles are added by slug)
PUBLIC_PAGES = ("/", "/blog", "/signup/buyer", "/signup/influencer", "/login", "/privacy", "/terms")
# signed-in screens and one-time links: nothing there for a crawler
PRIVATE_PREFIXES = ("/api/", "/dashboard", "/marketplace", "/post-manager", "/approvals", "/my-bids", "/earnings",
                    "/settings", "/notifications", "/reset-password", "/go/")
SECURITY_TXT_LIFETIME = timedelta(days=365)
# the icon every browser and crawler asks for at the root, and the app's one icon (web/public, named in index.html)
FAVICON_ICO = "favicon.ico"
APP_ICON = "favicon.svg"
NOT_FOUND_PAGE = """<!doctype html><html lang="en"><meta charset="utf-8"><title>Not found · Pinbid</title>
<body style="font-family:system-ui;margin:4rem auto;max-width:40rem"><h1>Not found</h1>
<p>There is no such file on Pinbid. <a href="/">Go to the home page</a>.</p></body></html>
"""

_FILE_NAME = re.compile(r"\.[A-Za-z0-9]{1,8}$")


def names_a_file(path: str) -> bool:
    """`favicon.ico`, `assets/x.js`, `apple-touch-icon.png`: a path whose last segment has an extension. The app's
    own routes never do (a blog slug is words and hyphens), so such a path without a file is a 404, not the app."""
    return bool(_FILE_NAME.search(path.rsplit("/", 1)[-1]))


def robots_txt(origin: str) -> str:
    lines = ["User-agent: *", "Allow: /", *(f"Disallow: {prefix}" for prefix in PRIVATE_PREFIXES),
             "", f"Sitemap: {origin}/sitemap.xml"]
    return "\n".join(lines) + "\n"


def sitemap_xml(origin: str, articles: Iterable[tuple[str, date]]) -> str:
    """The public pages, then each published article with the day it was published."""
    urls = [f"  <url><loc>{escape(origin + page)}</loc></url>" for page in PUBLIC_PAGES]
    urls += [f"  <url><loc>{escape(f'{origin}/blog/{slug}')}</loc><lastmod>{published.isoformat()}</lastmod></url>"
             for slug, published in articles]
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n' + "\n".join(urls) + "\n</urlset>\n")


def security_txt(origin: str, contact: str, now: datetime) -> str:
    """RFC 9116: how to report a vulnerability; `Expires` is required and kept a year ahead."""
    expires = (now + SECURITY_TXT_LIFETIME).strftime("%Y-%m-%dT%H:%M:%SZ")
    return "\n".join([f"Contact: {contact}", f"Expires: {expires}", "Preferred-Languages: en",
                      f"Canonical: {origin}/.well-known/security.txt", f"Policy: {origin}/terms", ""])
