"""Social's HTTP routes: connecting Instagram, posts with their slots, the buyer's comments, the
pinning login and pinning. Tokens and sessions never appear in a response."""

import uuid
from datetime import datetime
from decimal import Decimal
from typing import Annotated, Literal

from fastapi import APIRouter, Depends, Query, Request, Response
from fastapi.responses import HTMLResponse, RedirectResponse
from pinbid_kit.api import ApiModel, Money, PlainText
from pinbid_kit.auth import require
from pinbid_kit.tokens import Principal, TokenVerifier
from pydantic import Field

from .common import connection_of
from .connections import Connections
from .links import Link, Links
from .models import PinSession, Slot
from .pins import AWAITING_MANUAL_PIN, Pins
from .posts import Posts, PostView

STATE_COOKIE = "pinbid_ig_state"


def _money(cents: int | None) -> Decimal | None:
    return None if cents is None else (Decimal(cents) / 100).quantize(Decimal("0.01"))


class InstagramConnectOut(ApiModel):
    url: str


class InstagramPinSlotOut(ApiModel):
    id: uuid.UUID
    title: str | None
    category: str | None
    status: str
    min_bid: Money | None
    current_bid: Money | None
    bid_count: int
    auction_end: datetime
    duration: int | None

    @classmethod
    def of(cls, slot: Slot) -> "InstagramPinSlotOut":
        return cls(id=slot.slot_id, title=slot.title, category=slot.category, status=slot.status,
                   min_bid=_money(slot.min_bid_cents), current_bid=_money(slot.current_bid_cents),
                   bid_count=slot.bid_count, auction_end=slot.auction_end, duration=slot.duration_days)


class InstagramPostOut(ApiModel):
    """A post as the provider shows it (snake_case names, as the spec's client reads them) with its slots."""

    id: str
    media_type: str = Field(serialization_alias="media_type")
    media_url: str = Field(serialization_alias="media_url")
    caption: str
    views: int
    like_count: int = Field(serialization_alias="like_count")
    comments_count: int = Field(serialization_alias="comments_count")
    permalink: str
    timestamp: datetime | None
    pin_slots: list[InstagramPinSlotOut]

    @classmethod
    def of(cls, view: PostView) -> "InstagramPostOut":
        p = view.post
        return cls(id=p.id, media_type=p.media_type, media_url=p.media_url, caption=p.caption, views=p.views,
                   like_count=p.like_count, comments_count=p.comments_count, permalink=p.permalink,
                   timestamp=p.posted_at, pin_slots=[InstagramPinSlotOut.of(s) for s in view.slots])


class InstagramCommentOut(ApiModel):
    id: str
    comment: str
    username: str
    like_count: int


class InstagramConnectionOut(ApiModel):
    connected: bool
    instagram_id: str | None = None
    username: str | None = None
    account_type: str | None = None
    followers: int | None = None
    avg_views: int | None = None
    avg_engagement: Money | None = None
    verified: bool | None = None
    pinning_logged_in: bool = False
    last_synced_at: datetime | None = None
    pin_method: str = "SESSION"  # SESSION: Pinbid pins with the Instagram login; MANUAL: pinned in the app


class InstagramLoginIn(ApiModel):
    username: Annotated[PlainText, Field(min_length=1, max_length=64)]
    password: Annotated[str, Field(min_length=1, max_length=512)]  # passed on once, never stored
    verification_code: Annotated[PlainText, Field(max_length=12)] | None = None


class InstagramLoginOut(ApiModel):
    detail: str
    username: str


class LinkIn(ApiModel):
    url: Annotated[PlainText, Field(max_length=2000, description="The brand's page (https://…)")]
    promo_code: Annotated[PlainText | None, Field(max_length=32)] = None


class LinkOut(ApiModel):
    code: str
    short_url: str  # what the comment can say: people type it, as links in comments are not clickable
    destination: str
    promo_code: str | None


class ClicksAt(ApiModel):
    hour: datetime
    clicks: int


class FiguresAt(ApiModel):
    at: datetime
    likes: int
    replies: int


class ResultsOut(ApiModel):
    link: LinkOut | None
    clicks: int
    likes: int
    replies: int
    status: str
    clicks_by_hour: list[ClicksAt]
    figures: list[FiguresAt]


class PinMethodIn(ApiModel):
    pin_method: Literal["SESSION", "MANUAL"]


class PinMethodOut(ApiModel):
    pin_method: str


class PinCommentOut(ApiModel):
    bid_id: uuid.UUID
    comment_id: str
    comment_text: str
    status: str
    detail: str


NO_SUCH_LINK = """<!doctype html><html lang="en"><meta charset="utf-8"><title>Link not found · Pinbid</title>
<body style="font-family:system-ui;margin:4rem auto;max-width:36rem;padding:0 1rem">
<h1>This link does not exist</h1><p>The short link may be mistyped, or the brand removed it. Check the comment
you saw it in, or go to <a href="/">Pinbid</a>.</p></body></html>"""


def routes(connections: Connections, posts: Posts, pins: Pins, links: Links, verifier: TokenVerifier, *,
           state_ttl: int, secure_cookie: bool, public_url: str) -> list[APIRouter]:
    signed_in = Depends(require(verifier))
    influencer = Depends(require(verifier, "INFLUENCER"))
    brand = Depends(require(verifier, "BUYER"))

    def link_out(link: Link | None) -> LinkOut | None:
        if link is None:
            return None
        return LinkOut(code=link.code, short_url=f"{public_url.rstrip('/')}/go/{link.code}",
                       destination=link.destination, promo_code=link.promo_code)
    instagram = APIRouter(prefix="/instagram", tags=["instagram"])

    @instagram.get("/connect", response_model=InstagramConnectOut)
    async def connect(response: Response, principal: Principal = signed_in) -> InstagramConnectOut:
        started = await connections.start(principal.user_id)
        response.set_cookie(STATE_COOKIE, started.nonce, max_age=state_ttl, httponly=True, samesite="lax",
                            secure=secure_cookie, path="/")
        response.headers["Cache-Control"] = "no-store"
        return InstagramConnectOut(url=started.url)

    @instagram.get("/callback", response_class=RedirectResponse, status_code=303,
                   responses={303: {"description": "to /post-manager (creators) or /marketplace (brands), "
                                                         "?connected=1 or ?error=<reason>"}})
    async def callback(request: Request, code: PlainText | None = Query(None, max_length=2048),
                       state: PlainText | None = Query(None, max_length=512),
                       error: PlainText | None = Query(None, max_length=200)) -> RedirectResponse:
        location = await connections.complete(code=code, state=state, error=error,
                                              browser_nonce=request.cookies.get(STATE_COOKIE))
        redirect = RedirectResponse(location, status_code=303, headers={"Cache-Control": "no-store"})
        redirect.delete_cookie(STATE_COOKIE, path="/")
        return redirect

    @instagram.get("/connection", response_model=InstagramConnectionOut)
    async def connection(principal: Principal = signed_in) -> InstagramConnectionOut:
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
    async def disconnect(principal: Principal = signed_in) -> Response:
        await connections.disconnect(principal.user_id)
        return Response(status_code=204)

    @instagram.get("/posts", response_model=list[InstagramPostOut], response_model_by_alias=True)
    async def list_posts(refresh: bool = False, principal: Principal = signed_in) -> list[InstagramPostOut]:
        return [InstagramPostOut.of(v) for v in await posts.of(principal.user_id, refresh=refresh)]

    @instagram.get("/comments/{pin_slot_id}", response_model=list[InstagramCommentOut])
    async def buyer_comments(pin_slot_id: uuid.UUID, principal: Principal = signed_in) -> list[InstagramCommentOut]:
        found = await pins.buyer_comments(principal.user_id, pin_slot_id)
        return [InstagramCommentOut(id=c.id, comment=c.text, username=c.username, like_count=c.like_count)
                for c in found]

    creator = APIRouter(prefix="/influencer", tags=["influencer"])

    @creator.post("/instagram-login", response_model=InstagramLoginOut)
    async def instagram_login(body: InstagramLoginIn, principal: Principal = influencer) -> InstagramLoginOut:
        username = await pins.login(principal.user_id, body.username, body.password, body.verification_code)
        return InstagramLoginOut(detail="Instagram Login Successful.", username=username)

    @creator.put("/pin-comment/{bid_id}", response_model=PinCommentOut)
    async def pin_comment(bid_id: uuid.UUID, principal: Principal = influencer) -> PinCommentOut:
        """Pins the comment (SESSION), or posts it for the creator to pin in the Instagram app (MANUAL:
        `status` AWAITING_MANUAL_PIN, then POST .../confirm)."""
        pinned = await pins.pin(principal.user_id, bid_id)
        detail = "Comment Pinned." if pinned.status != AWAITING_MANUAL_PIN else (
            "The comment is on your post: pin it in the Instagram app, then press I pinned it.")
        return PinCommentOut(bid_id=pinned.bid_id, comment_id=pinned.comment_id, comment_text=pinned.comment_text,
                             status=pinned.status, detail=detail)

    @creator.post("/pin-comment/{bid_id}/confirm", response_model=PinCommentOut)
    async def confirm_pin(bid_id: uuid.UUID, principal: Principal = influencer) -> PinCommentOut:
        """"I pinned it": checked through the official API, then the placement starts."""
        pinned = await pins.confirm(principal.user_id, bid_id)
        return PinCommentOut(bid_id=pinned.bid_id, comment_id=pinned.comment_id, comment_text=pinned.comment_text,
                             status=pinned.status, detail="Comment Pinned.")

    @instagram.put("/placements/{bid_id}/link", response_model=LinkOut)
    async def set_link(bid_id: uuid.UUID, body: LinkIn, principal: Principal = brand) -> LinkOut:
        """The brand's page for a won bid's placement: a short link to put in the comment, counted per click."""
        out = link_out(await links.set(principal.user_id, bid_id, body.url, body.promo_code))
        assert out is not None
        return out

    @instagram.get("/placements/{bid_id}/results", response_model=ResultsOut)
    async def results(bid_id: uuid.UUID, principal: Principal = brand) -> ResultsOut:
        found = await links.results(principal.user_id, bid_id)
        return ResultsOut(link=link_out(found.link), clicks=found.clicks, likes=found.likes, replies=found.replies,
                          status=found.status,
                          clicks_by_hour=[ClicksAt(hour=h, clicks=c) for h, c in found.clicks_by_hour],
                          figures=[FiguresAt(at=a, likes=lk, replies=r) for a, lk, r in found.figures])

    @instagram.put("/pin-method", response_model=PinMethodOut)
    async def set_pin_method(body: PinMethodIn, principal: Principal = influencer) -> PinMethodOut:
        return PinMethodOut(pin_method=await pins.set_method(principal.user_id, body.pin_method))

    go = APIRouter(tags=["links"])

    @go.api_route("/go/{code}", methods=["GET", "HEAD"], include_in_schema=False)
    async def follow(code: PlainText, request: Request) -> Response:
        forwarded = request.headers.get("x-forwarded-for", "")
        address = forwarded.split(",")[-1].strip() if forwarded else (request.client.host if request.client else "")
        target = await links.follow(code[:32], method=request.method, user_agent=request.headers.get("user-agent", ""),
                                    address=address[:64])
        if target is None:
            return HTMLResponse(NO_SUCH_LINK, status_code=404, headers={"Cache-Control": "no-store"})
        return RedirectResponse(target, status_code=302, headers={"Cache-Control": "no-store",
                                                                  "Referrer-Policy": "no-referrer"})

    return [instagram, creator, go]
