"""Social's HTTP routes: connecting Instagram, posts with their slots, the buyer's comments, the
pinning login and pinning. Tokens and sessions never appear in a response."""

import uuid
from typing import Annotated

from fastapi import APIRouter, Depends, Query, Request, Response
from fastapi.responses import HTMLResponse, RedirectResponse
from pinbid_kit.api import PlainText
from pinbid_kit.auth import Buyer, Influencer, Operator, SignedIn
from pinbid_kit.deps import from_state

from .connections import Connections, connection_of
from .domain import sandbox_owner
from .domain.sandbox_owner import sign_owner
from .links import Link, Links
from .models import PinSession
from .pins import AWAITING_MANUAL_PIN, Pins
from .posts import Posts
from .schemas import (
    ClicksAt,
    FiguresAt,
    InstagramCommentOut,
    InstagramConnectionOut,
    InstagramConnectOut,
    InstagramLoginIn,
    InstagramLoginOut,
    InstagramPostOut,
    LinkChangeOut,
    LinkIn,
    LinkOut,
    PinCommentOut,
    PinMethodIn,
    PinMethodOut,
    ResultsOut,
)
from .settings import SocialSettings

STATE_COOKIE = "pinbid_ig_state"

ConnectionsDep = Annotated[Connections, Depends(from_state("connections"))]
PostsDep = Annotated[Posts, Depends(from_state("posts"))]
PinsDep = Annotated[Pins, Depends(from_state("pins"))]
LinksDep = Annotated[Links, Depends(from_state("links"))]
SettingsDep = Annotated[SocialSettings, Depends(from_state("settings"))]

NO_SUCH_LINK = """<!doctype html><html lang="en"><meta charset="utf-8"><title>Link not found · Pinbid</title>
<body style="font-family:system-ui;margin:4rem auto;max-width:36rem;padding:0 1rem">
<h1>This link does not exist</h1><p>The short link may be mistyped, or the brand removed it. Check the comment
you saw it in, or go to <a href="/">Pinbid</a>.</p></body></html>"""


def link_out(link: Link | None, public_url: str) -> LinkOut | None:
    if link is None:
        return None
    return LinkOut(code=link.code, short_url=f"{public_url.rstrip('/')}/go/{link.code}",
                   destination=link.destination, promo_code=link.promo_code)


instagram = APIRouter(prefix="/instagram", tags=["instagram"])


@instagram.get("/connect", response_model=InstagramConnectOut)
async def connect(response: Response, principal: SignedIn, connections: ConnectionsDep,
                  settings: SettingsDep) -> InstagramConnectOut:
    started = await connections.start(principal.user_id)
    response.set_cookie(STATE_COOKIE, started.nonce, max_age=settings.state_ttl_seconds, httponly=True,
                        samesite="lax", secure=settings.public_url.startswith("https://"), path="/")
    response.headers["Cache-Control"] = "no-store"
    return InstagramConnectOut(url=started.url)


@instagram.get("/callback", response_class=RedirectResponse, status_code=303,
               responses={303: {"description": "to /post-manager (creators) or /marketplace (brands), "
                                                     "?connected=1 or ?error=<reason>"}})
async def callback(request: Request, connections: ConnectionsDep,
                   code: PlainText | None = Query(None, max_length=2048),
                   state: PlainText | None = Query(None, max_length=512),
                   error: PlainText | None = Query(None, max_length=200)) -> RedirectResponse:
    location, instagram_id = await connections.complete_connection(
        code=code, state=state, error=error, browser_nonce=request.cookies.get(STATE_COOKIE))
    redirect = RedirectResponse(location, status_code=303, headers={"Cache-Control": "no-store"})
    redirect.delete_cookie(STATE_COOKIE, path="/")
    if instagram_id is not None and connections.providers.sandbox is not None:
        # the sandbox Instagram's "signed in to the app": its post page acts only for this account's owner
        redirect.set_cookie(sandbox_owner.COOKIE, sign_owner(connections.sandbox_owner_key, instagram_id,
                                                             now=int(connections.clock().timestamp())),
                            max_age=sandbox_owner.TTL_SECONDS, httponly=True, samesite="lax", path="/",
                            secure=connections.public_url.startswith("https://"))
    return redirect


@instagram.get("/connection", response_model=InstagramConnectionOut)
async def connection(principal: SignedIn, connections: ConnectionsDep) -> InstagramConnectionOut:
    async with connections.db.transaction() as session:
        found = await connection_of(session, principal.user_id)
        logged_in = await session.get(PinSession, principal.user_id) is not None
    if found is None:
        return InstagramConnectionOut(connected=False)
    return InstagramConnectionOut(
        connected=True, instagram_id=found.instagram_id, username=found.username,
        account_type=found.account_type, followers=found.followers, avg_views=found.avg_views,
        avg_engagement=found.avg_engagement, verified=found.verified, pinning_logged_in=logged_in,
        last_synced_at=found.last_synced_at, pin_method=found.pin_method)


@instagram.delete("/connection", status_code=204, response_class=Response)
async def disconnect(principal: SignedIn, connections: ConnectionsDep) -> Response:
    await connections.disconnect(principal.user_id)
    return Response(status_code=204)


@instagram.get("/posts", response_model=list[InstagramPostOut], response_model_by_alias=True)
async def list_posts(principal: SignedIn, posts: PostsDep, refresh: bool = False) -> list[InstagramPostOut]:
    return [InstagramPostOut.of(v) for v in await posts.of(principal.user_id, refresh=refresh)]


@instagram.get("/comments/{pin_slot_id}", response_model=list[InstagramCommentOut])
async def buyer_comments(pin_slot_id: uuid.UUID, principal: SignedIn, pins: PinsDep) -> list[InstagramCommentOut]:
    found = await pins.buyer_comments(principal.user_id, pin_slot_id)
    return [InstagramCommentOut(id=c.id, comment=c.text, username=c.username, like_count=c.like_count)
            for c in found]


creator = APIRouter(prefix="/influencer", tags=["influencer"])


@creator.post("/instagram-login", response_model=InstagramLoginOut)
async def instagram_login(body: InstagramLoginIn, principal: Influencer, pins: PinsDep) -> InstagramLoginOut:
    username = await pins.login(principal.user_id, body.username, body.password, body.verification_code)
    return InstagramLoginOut(detail="Instagram Login Successful.", username=username)


@creator.put("/pin-comment/{bid_id}", response_model=PinCommentOut)
async def pin_comment(bid_id: uuid.UUID, principal: Influencer, pins: PinsDep) -> PinCommentOut:
    """Pins the comment (SESSION), or posts it for the creator to pin in the Instagram app (MANUAL:
    `status` AWAITING_MANUAL_PIN, then POST .../confirm)."""
    pinned = await pins.pin(principal.user_id, bid_id)
    detail = "Comment Pinned." if pinned.status != AWAITING_MANUAL_PIN else (
        "The comment is on your post: pin it in the Instagram app, then press I pinned it.")
    return PinCommentOut(bid_id=pinned.bid_id, comment_id=pinned.comment_id, comment_text=pinned.comment_text,
                         status=pinned.status, detail=detail)


@creator.post("/pin-comment/{bid_id}/confirm", response_model=PinCommentOut)
async def confirm_pin(bid_id: uuid.UUID, principal: Influencer, pins: PinsDep) -> PinCommentOut:
    """"I pinned it": checked through the official API, then the placement starts."""
    pinned = await pins.confirm(principal.user_id, bid_id)
    return PinCommentOut(bid_id=pinned.bid_id, comment_id=pinned.comment_id, comment_text=pinned.comment_text,
                         status=pinned.status, detail="Comment Pinned.")


@instagram.put("/placements/{bid_id}/link", response_model=LinkOut)
async def set_link(bid_id: uuid.UUID, body: LinkIn, principal: Buyer, settings: SettingsDep,
                   links: LinksDep) -> LinkOut:
    """The brand's page for a won bid's placement: a short link to put in the comment, counted per click."""
    out = link_out(await links.set(principal.user_id, bid_id, body.url, body.promo_code), settings.public_url)
    assert out is not None
    return out


@instagram.get("/placements/{bid_id}/results", response_model=ResultsOut)
async def results(bid_id: uuid.UUID, principal: Buyer, links: LinksDep, settings: SettingsDep) -> ResultsOut:
    found = await links.results(principal.user_id, bid_id)
    return ResultsOut(link=link_out(found.link, settings.public_url), clicks=found.clicks, likes=found.likes,
                      replies=found.replies, status=found.status,
                      clicks_by_hour=[ClicksAt(hour=h, clicks=c) for h, c in found.clicks_by_hour],
                      figures=[FiguresAt(at=a, likes=lk, replies=r) for a, lk, r in found.figures])


@instagram.put("/pin-method", response_model=PinMethodOut)
async def set_pin_method(body: PinMethodIn, principal: Influencer, pins: PinsDep) -> PinMethodOut:
    return PinMethodOut(pin_method=await pins.set_method(principal.user_id, body.pin_method))


go = APIRouter(tags=["links"])


@go.api_route("/go/{code}", methods=["GET", "HEAD"], include_in_schema=False)
async def follow(code: PlainText, request: Request, links: LinksDep) -> Response:
    forwarded = request.headers.get("x-forwarded-for", "")
    address = forwarded.split(",")[-1].strip() if forwarded else (request.client.host if request.client else "")
    target = await links.follow(code[:32], method=request.method, user_agent=request.headers.get("user-agent", ""),
                                address=address[:64])
    if target is None:
        return HTMLResponse(NO_SUCH_LINK, status_code=404, headers={"Cache-Control": "no-store"})
    return RedirectResponse(target, status_code=302, headers={"Cache-Control": "no-store",
                                                              "Referrer-Policy": "no-referrer"})


ops = APIRouter(prefix="/ops/links", tags=["ops"])


@ops.get("/changes", response_model=list[LinkChangeOut])
async def link_changes(_: Operator, links: LinksDep, bid_id: Annotated[uuid.UUID | None, Query(alias="bidId")] = None
                       ) -> list[LinkChangeOut]:
    """Short links whose target the brand changed after the comment was pinned, newest first."""
    return [LinkChangeOut(**vars(c)) for c in await links.target_changes(bid_id)]


ROUTERS = (instagram, creator, go, ops)
