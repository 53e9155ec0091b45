"""A blog post's page: the build's frame filled with the article, escaped; the shell whenever that cannot be."""

import asyncio
import gzip
import json
from html.parser import HTMLParser

import pytest
from fastapi import FastAPI, Response
from pinbid_gateway import api, post_page
from pinbid_gateway.app import Gateway
from pinbid_gateway.settings import GatewaySettings
from pinbid_gateway.upstreams import Upstreams
from pinbid_kit.paths import repo_root
from pinbid_kit.tokens import TokenVerifier
from pinbid_testing import client

# the shape of web/dist/blog/_post (web/src/entry-server.tsx, renderPostFrame), cut down to its slots
FRAME = """<!doctype html><html><head><meta name="description" content="@@description@@" />
<title>@@pageTitle@@</title></head><body><div id="root"><span>@@category@@</span><h1>@@title@@</h1>
<p>@@excerpt@@</p><div aria-hidden="true">@@initial@@</div><p>@@author@@</p>
<time dateTime="@@publishedAt@@">@@date@@</time> <!-- -->@@readTime@@ <!-- -->@@views@@
@@cover@@<div class="prose-article mt-8">@@body@@</div><p>@@author@@</p></div>
<script type="application/json" id="article-data">@@data@@</script></body></html>"""
PARTS = {"html": "<div>@@html@@</div>", "formula": "<figure>formula</figure>", "steps": "<div>steps</div>",
         "cover": '<img src="@@imageUrl@@" alt=""/>'}
NASTY = "</script><script>alert('x')</script> & \"quoted\" <b>bold</b> @@excerpt@@ \u2028 end"


def article(**fields) -> dict:
    return {"slug": "a-post", "type": "mdx", "title": "A Post", "author": "ana", "publishedAt": "2026-11-18",
            "excerpt": "Short.", "category": "creator-tips", "tags": ["x"], "featured": False, "imageUrl": None,
            "views": 1234, "readTime": 5, "content": "source", "faq": [], "seo": None,
            "body": [{"kind": "html", "html": "<p>One</p>"}, {"kind": "formula"},
                     {"kind": "html", "html": "<p>Two</p>"}],
            **fields}


class Page(HTMLParser):
    """What a browser reads from the page: each element's text by tag, attributes, and the data block."""

    def __init__(self, page: str):
        super().__init__()
        self.text: dict[str, list[str]] = {}
        self.attrs: dict[str, dict[str, str | None]] = {}
        self.stack: list[str] = []
        self.feed(page)

    def handle_starttag(self, tag, attrs):
        self.attrs.setdefault(tag, dict(attrs))
        self.stack.append(tag)

    def handle_endtag(self, tag):
        while self.stack and self.stack.pop() != tag:
            pass

    def handle_data(self, data):
        if self.stack:
            self.text.setdefault(self.stack[-1], []).append(data)


def test_the_strings_are_the_ones_the_app_writes():
    cases = json.loads((repo_root() / "web/src/pages/blog/post-text.cases.json").read_text(encoding="utf-8"))
    for case in cases:
        assert post_page.article_text(article(**case["article"])) == case["text"]


def test_the_article_is_written_escaped_and_its_json_cannot_end_the_block():
    got = post_page.fill(FRAME, PARTS, article(title=NASTY, author=NASTY, excerpt="<!-- x", imageUrl='/a.png?"x"'))
    page = Page(got)
    assert page.text["h1"] == [NASTY]  # one text, the slot's name in it left as it was
    assert page.text["title"] == [f"{NASTY} — Pinbid Blog"]
    assert page.text["script"] == [post_page.script_json(article(title=NASTY, author=NASTY, excerpt="<!-- x",
                                                                 imageUrl='/a.png?"x"'))]
    data = json.loads(page.text["script"][0])
    assert data["title"] == NASTY and data["body"][1] == {"kind": "formula"}
    assert "<" not in page.text["script"][0] and "\u2028" not in page.text["script"][0]
    assert got.count("<script") == 1  # the data block's own, none from the article
    assert page.attrs["img"]["src"] == '/a.png?"x"'
    assert page.attrs["meta"]["content"] == "<!-- x"
    assert page.attrs["time"]["datetime"] == "2026-11-18"
    assert page.text["time"] == ["November 18, 2026"]
    assert "<div>@@html@@</div>" not in got and "@@" not in got.replace("@@excerpt@@", "")


def test_the_body_is_its_parts_in_order_and_no_cover_leaves_nothing():
    got = post_page.fill(FRAME, PARTS, article())
    assert ('<div class="prose-article mt-8"><div><p>One</p></div><figure>formula</figure><div><p>Two</p></div></div>'
            in got)
    assert "<img" not in got


@pytest.mark.parametrize("body", [[{"kind": "video"}], [{"kind": "cover"}], [{"html": "<p>no kind</p>"}]])
def test_a_part_the_frame_does_not_know_is_refused(body):
    with pytest.raises((post_page.NotFillable, KeyError)):
        post_page.fill(FRAME, PARTS, article(body=body))


def test_a_slot_the_gateway_does_not_know_is_refused():
    with pytest.raises(post_page.NotFillable, match="@@newThing@@"):
        post_page.fill(FRAME + "@@newThing@@", PARTS, article())


# --- through the gateway ------------------------------------------------------------------------------------------
def content_service(answers: dict[str, tuple[int, dict]], delay: float = 0.0) -> FastAPI:
    app = FastAPI()
    reads: list[str] = []
    app.state.reads = reads

    @app.get("/blog/articles/{slug}")
    async def read(slug: str) -> Response:
        reads.append(slug)
        await asyncio.sleep(delay)
        status, body = answers.get(slug, (404, {"detail": "Blog post not found.", "code": "not_found"}))
        return Response(json.dumps(body), status_code=status, media_type="application/json")

    return app


@pytest.fixture
def dist(tmp_path):
    dist = tmp_path / "dist"
    (dist / "blog" / "_post").mkdir(parents=True)
    (dist / "index.html").write_text("<!doctype html><title>landing</title>")
    (dist / "app.html").write_text("<!doctype html><title>shell</title>")
    (dist / "blog" / "index.html").write_text("<!doctype html><title>blog</title>")
    (dist / "blog" / "_post" / "index.html").write_text(FRAME)
    (dist / "blog" / "_post" / "parts.json").write_text(json.dumps(PARTS))
    return dist


def gateway_app(tmp_path, dist, content: FastAPI | None) -> FastAPI:
    upstreams = Upstreams.in_process({"content": content} if content else {}, timeout=10)
    return Gateway(GatewaySettings(web_dist=dist, jwt_public_key_file=tmp_path / "none.pub"), upstreams,
                   TokenVerifier.from_file(tmp_path / "none.pub")).app


async def test_a_post_is_its_page_filled_compressed_and_under_the_page_policy(tmp_path, dist):
    content = content_service({"a-post": (200, article(title="Tom & Jerry"))})
    async with client(gateway_app(tmp_path, dist, content)) as http:
        page = await http.get("/blog/a-post", headers={"accept-encoding": "gzip"})
        plain = await http.get("/blog/a-post", headers={"accept-encoding": "identity"})
    assert page.status_code == 200 and page.headers["content-encoding"] == "gzip"
    assert page.headers["content-type"] == "text/html; charset=utf-8"
    assert page.headers["cache-control"] == "no-cache" and page.headers["vary"] == "Accept-Encoding"
    assert "script-src 'self'" in page.headers["content-security-policy"]
    assert "<h1>Tom &amp; Jerry</h1>" in page.text  # httpx took the gzip off
    assert int(page.headers["content-length"]) == len(gzip.compress(page.content, compresslevel=6))
    assert "content-encoding" not in plain.headers and plain.text == page.text
    assert content.state.reads == ["a-post", "a-post"]  # one read (one view) per page


async def test_an_unknown_post_is_the_shell_as_a_404(tmp_path, dist):
    async with client(gateway_app(tmp_path, dist, content_service({}))) as http:
        page = await http.get("/blog/no-such-post")
    assert page.status_code == 404 and "<title>shell</title>" in page.text


@pytest.mark.parametrize("answer", [(500, {"detail": "boom", "code": "internal"}),
                                    (200, article(body=[{"kind": "video"}])),
                                    (200, {"slug": "a-post"})])
async def test_a_content_service_answer_the_page_cannot_use_gives_the_shell(tmp_path, dist, answer):
    async with client(gateway_app(tmp_path, dist, content_service({"a-post": answer}))) as http:
        page = await http.get("/blog/a-post")
    assert page.status_code == 200 and "<title>shell</title>" in page.text


async def test_no_content_service_or_a_slow_one_gives_the_shell(tmp_path, dist, monkeypatch):
    monkeypatch.setattr(api, "POST_PAGE_WAIT_SECONDS", 0.05)
    slow = content_service({"a-post": (200, article())}, delay=1.0)
    for content in (None, slow):
        async with client(gateway_app(tmp_path, dist, content)) as http:
            page = await http.get("/blog/a-post")
        assert page.status_code == 200 and "<title>shell</title>" in page.text


async def test_the_frame_itself_is_never_served(tmp_path, dist):
    content = content_service({})
    async with client(gateway_app(tmp_path, dist, content)) as http:
        frame = await http.get("/blog/_post")
        files = [await http.get(f"/blog/_post/{name}") for name in ("index.html", "parts.json", "")]
        blog = await http.get("/blog")
    assert frame.status_code == 200 and "<title>shell</title>" in frame.text
    assert [f.status_code for f in files[:2]] == [404, 404] and all("@@" not in f.text for f in files)
    assert "<title>blog</title>" in blog.text
    assert content.state.reads == []  # not a slug: the content service is not asked


async def test_a_build_without_a_frame_serves_the_shell_as_before(tmp_path, dist):
    for name in ("index.html", "parts.json"):
        (dist / "blog" / "_post" / name).unlink()
    async with client(gateway_app(tmp_path, dist, content_service({"a-post": (200, article())}))) as http:
        page = await http.get("/blog/a-post")
    assert page.status_code == 200 and "<title>shell</title>" in page.text
