"""The gateway's own routes. Under the API base (`base`, included with `settings.api_base` as its prefix): health,
the two dashboards and the live stream; every other path under the base is proxied to a service (proxy.py).
Outside it: the runtime config and the placements' short links (`side`), and the built web app (`web`, included
last: its catch-all answers any other path)."""

import asyncio
import json
import logging
import mimetypes
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Annotated

from fastapi import APIRouter, Depends, Query, Request, Response
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, PlainTextResponse
from pinbid_kit.auth import Buyer, Influencer
from pinbid_kit.deps import from_state
from pinbid_kit.errors import ApiError, NotFound
from pinbid_kit.tokens import TokenVerifier
from pinbid_kit.web_rules import web_rules

from . import dashboards, post_page, site_files
from .proxy import call
from .schemas import BuyerDashboard, InfluencerDashboard
from .settings import GatewaySettings
from .upstreams import Upstreams

log = logging.getLogger("pinbid.gateway")
SITEMAP_ARTICLE_PAGES = 20  # 1,000 articles
# how long a post's page waits for its article before it is sent without it (the app then asks for it itself)
POST_PAGE_WAIT_SECONDS = 3.0

SettingsDep = Annotated[GatewaySettings, Depends(from_state("settings"))]
UpstreamsDep = Annotated[Upstreams, Depends(from_state("upstreams"))]
VerifierDep = Annotated[TokenVerifier, Depends(from_state("verifier"))]
WebRootDep = Annotated[Path, Depends(from_state("web_root"))]

base = APIRouter()


@base.get("/health", tags=["health"], openapi_extra={"security": []})  # public
async def health() -> dict[str, str]:
    return {"status": "ok"}


@base.get("/influencer/dashboard", tags=["dashboards"], response_model=InfluencerDashboard)
async def influencer_dashboard(request: Request, _: Influencer, upstreams: UpstreamsDep):
    return await dashboards.influencer(upstreams, request)


@base.get("/buyer/dashboard", tags=["dashboards"], response_model=BuyerDashboard)
async def buyer_dashboard(request: Request, _: Buyer, upstreams: UpstreamsDep):
    return await dashboards.buyer(upstreams, request)


@base.get("/events/stream", tags=["live"], response_class=Response, responses={200: {
    "description": "Server-Sent Events: `ready`, then `slot`, `bid` and `notification` as they happen, a "
                   "`: ping` comment every 15 s, and `end` when the token expires or is revoked.",
    "content": {"text/event-stream": {"schema": {"type": "string"}}}}})
async def events_stream(slots: str | None = Query(
        default=None, max_length=4000, description="Slot ids to watch (at most 100), separated by commas.")):
    # Here for the contract only: `live.LiveStreams` answers the stream before FastAPI's routing (one coroutine
    # per stream), so this is reached by no request the stream serves.
    raise NotFound("Not found.")


side = APIRouter(include_in_schema=False)


@side.get("/runtime-config.json", include_in_schema=False)
async def runtime_config(settings: SettingsDep) -> JSONResponse:
    return JSONResponse({"apiBase": settings.api_base, "rules": web_rules(settings.served())},
                        headers={"Cache-Control": "no-store"})


@side.get("/robots.txt")
async def robots(request: Request) -> PlainTextResponse:
    return PlainTextResponse(site_files.robots_txt(origin(request)), headers={"Cache-Control": "public, max-age=3600"})


@side.get("/sitemap.xml")
async def sitemap(request: Request, upstreams: UpstreamsDep) -> Response:
    """The public pages and the blog's articles (the pages alone while the content service does not answer)."""
    articles: list[tuple[str, date]] = []
    try:
        for page in range(1, SITEMAP_ARTICLE_PAGES + 1):
            found = await call(upstreams, "content", request, "GET", "/blog/articles", query=f"limit=50&page={page}")
            body = json.loads(found.body) if found.status == 200 else {}
            articles += [(a["slug"], date.fromisoformat(a["publishedAt"])) for a in body.get("articles", [])]
            if page >= body.get("totalPages", 0):
                break
    except ApiError:
        log.warning("sitemap.xml without articles: the content service did not answer")
    return Response(site_files.sitemap_xml(origin(request), articles), media_type="application/xml",
                    headers={"Cache-Control": "public, max-age=3600"})


@side.get("/.well-known/security.txt")
async def security_txt(request: Request, settings: SettingsDep) -> PlainTextResponse:
    contact = settings.security_contact or f"mailto:security@{request.url.hostname}"
    return PlainTextResponse(site_files.security_txt(origin(request), contact, datetime.now(UTC)),
                             headers={"Cache-Control": "public, max-age=86400"})


def origin(request: Request) -> str:
    """The site as the visitor reached it (behind a trusted proxy, its scheme and host)."""
    return str(request.base_url).rstrip("/")


@side.api_route("/go/{code}", methods=["GET", "HEAD"], include_in_schema=False)
async def vanity_link(code: str, request: Request, upstreams: UpstreamsDep) -> Response:
    """A placement's short link (social counts the click and says where to go)."""
    upstream = await call(upstreams, "social", request, request.method, f"/go/{code}")
    headers = {k: v for k, v in upstream.headers if k.lower() in ("location", "cache-control",
                                                                 "content-type", "referrer-policy")}
    return Response(upstream.body, status_code=upstream.status, headers=headers)


web = APIRouter(include_in_schema=False)


@web.api_route("/blog/{slug}", methods=["GET", "HEAD"], include_in_schema=False)
async def blog_post(slug: str, request: Request, settings: SettingsDep, root: WebRootDep,
                    upstreams: UpstreamsDep) -> Response:
    """A post's page, its article written in (post_page.py); without the article (the build has no frame, the
    content service is down or slow), the shell, whose app then loads the article and shows what it finds. An
    unknown post is the shell too, as a 404."""
    if not post_page.is_slug(slug):
        return await web_app(f"blog/{slug}", request, settings, root)
    frame = post_page.read_frame(root)
    if frame is None:
        return await web_app(f"blog/{slug}", request, settings, root)
    try:
        async with asyncio.timeout(POST_PAGE_WAIT_SECONDS):
            found = await call(upstreams, "content", request, "GET", f"/blog/articles/{slug}")
    except (ApiError, TimeoutError):
        log.warning("blog post %s sent without its article: the content service did not answer", slug)
        return shell(root, request)
    if found.status != 200:
        return shell(root, request, status=404 if found.status == 404 else 200)
    try:
        page = post_page.fill(*frame, json.loads(found.body))
    except (KeyError, TypeError, ValueError) as problem:  # an answer the frame has no place for
        log.error("blog post %s sent without its article: %s", slug, problem)
        return shell(root, request)
    body, encoding = post_page.encoded(page, request.headers.get("accept-encoding", ""))
    return Response(body, media_type="text/html; charset=utf-8",
                    headers={"Cache-Control": "no-cache", "Vary": "Accept-Encoding", **encoding})


@web.api_route("/{path:path}", methods=["GET", "HEAD"], include_in_schema=False)
async def web_app(path: str, request: Request, settings: SettingsDep, root: WebRootDep) -> Response:
    """The built React app: a file of the build; a public page prerendered at build time (`/login` is
    `login/index.html`, `/` is `index.html`); else the SPA fallback, the empty shell `app.html` (`index.html` in a
    build that prerenders nothing), for any non-/api path."""
    if path.startswith(settings.api_base.strip("/") + "/"):
        raise NotFound("Not found.")
    index = root / "index.html"
    if not index.exists():
        return HTMLResponse(NOT_BUILT, status_code=503)
    candidate = (root / path).resolve()
    if candidate.is_relative_to(root) and not candidate.is_relative_to(root / post_page.FRAME):  # the frame: blog_post
        if path and candidate.is_file():
            cache = "public, max-age=31536000, immutable" if path.startswith("assets/") else "no-cache"
            return static_file(candidate, request, cache)
        if (candidate / "index.html").is_file():
            return static_file(candidate / "index.html", request, "no-cache")
    if path == site_files.FAVICON_ICO and (root / site_files.APP_ICON).is_file():
        # the build has no .ico: browsers and crawlers that ask for one get the app's icon (SVG, as index.html names
        # it), under a short cache so a real .ico added to the build later is picked up
        return static_file(root / site_files.APP_ICON, request, "public, max-age=86400")  # image/svg+xml
    if site_files.names_a_file(path):  # an old asset, a file the build never had: not the app's HTML, nor JSON
        return HTMLResponse(site_files.NOT_FOUND_PAGE, status_code=404, headers={"Cache-Control": "no-cache"})
    return shell(root, request)


def shell(root: Path, request: Request, status: int = 200) -> FileResponse:
    """The SPA fallback: the empty shell `app.html` (`index.html` in a build that prerenders nothing)."""
    app = root / "app.html"
    response = static_file(app if app.is_file() else root / "index.html", request, "no-cache")
    response.status_code = status
    return response


def static_file(path: Path, request: Request, cache: str) -> FileResponse:
    """The file, or the gzip copy the web build made beside it when the browser accepts gzip: compressed
    once at build time, never per request."""
    headers = {"Cache-Control": cache, "Vary": "Accept-Encoding"}
    compressed = path.with_name(path.name + ".gz")
    if "gzip" in request.headers.get("accept-encoding", "") and compressed.is_file():
        media_type = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        return FileResponse(compressed, media_type=media_type, headers={**headers, "Content-Encoding": "gzip"})
    return FileResponse(path, headers=headers)


NOT_BUILT = """<!doctype html><html lang="en"><meta charset="utf-8"><title>Pinbid</title>
<body style="font-family:system-ui;margin:4rem auto;max-width:40rem">
<h1>Pinbid</h1><p>The web app is not built yet. Run <code>make web</code> (or <code>make run</code>, which builds it)
and reload this page. The API is served under <a href="/api/health">/api</a>.</p></body></html>"""
