"""Social's HTTP routes: connecting Instagram, posts with their slots, the buyer's comments, the
pinning login and pinning. Tokens and sessions never appear in a response."""

import uuid
from typing import Annotated, Literal

from fastapi import APIRouter, Depends, Query, Request, Response
from fastapi.responses import HTMLResponse, RedirectResponse
from pinbid_kit.api import PlainText
from pinbid_kit.auth import Buyer, Influencer, Operator, SignedIn
from pinbid_kit.deps import from_state
from pinbid_kit.errors import Invalid
from pinbid_kit.objects import StoredObject
from pinbid_kit.product_rules import REASON_MAX_LENGTH, SCREENSHOT_MAX_BYTES, SCREENSHOT_TYPES

from .acceptance import BrandAcceptance
from .connections import Connections, connection_of
from .decoding import Decoding
from .disputes import Disputes
from .domain import sandbox_owner
from .domain.placement import Status
from .evidence import CreatorEvidence
from .links import Link, Links, Unfollowable
from .models import PinSession
from .pin_login import PinLogin
from .pins import AWAITING_MANUAL_PIN, MANUAL, Pins
from .queries import DisputeDetail, DisputeRow, PinStates, Posts, TrustQueries, TrustView
from .sandbox_owners import SandboxOwners
from .schemas import (
    ClicksAt,
    DisputeDecisionIn,
    DisputeDetailOut,
    DisputeHistoryStepOut,
    DisputeListItemOut,
    DisputeOut,
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
    PinStateOut,
    PlacementAcceptanceOut,
    PlacementActionOut,
    PlacementActionsOut,
    PlacementAnswerOut,
    PlacementEvidenceOut,
    PlacementRecheckOut,
    PlacementReportIn,
    PlacementTrustOut,
    ResultsOut,
    _money,
)
from .screenshots import MAX_PIXELS, Screenshot, check, read_upload
from .settings import SocialSettings

STATE_COOKIE = "pinbid_ig_state"

ConnectionsDep = Annotated[Connections, Depends(from_state("connections"))]
SandboxOwnersDep = Annotated[SandboxOwners, Depends(from_state("sandbox_owners"))]
PostsDep = Annotated[Posts, Depends(from_state("posts"))]
PinsDep = Annotated[Pins, Depends(from_state("pins"))]
PinStatesDep = Annotated[PinStates, Depends(from_state("pin_states"))]
PinLoginDep = Annotated[PinLogin, Depends(from_state("pin_login"))]
LinksDep = Annotated[Links, Depends(from_state("links"))]
TrustQueriesDep = Annotated[TrustQueries, Depends(from_state("trust_queries"))]
AcceptanceDep = Annotated[BrandAcceptance, Depends(from_state("acceptance"))]
EvidenceDep = Annotated[CreatorEvidence, Depends(from_state("evidence"))]
DisputesDep = Annotated[Disputes, Depends(from_state("disputes"))]
SettingsDep = Annotated[SocialSettings, Depends(from_state("settings"))]

NO_SUCH_LINK = """<!doctype html><html lang="en"><meta charset="utf-8"><title>Link not found · Pinbid</title>
<body style="font-family:system-ui;margin:4rem auto;max-width:36rem;padding:0 1rem">
<h1>This link does not exist</h1><p>The short link may be mistyped, or the brand removed it. Check the comment
you saw it in, or go to <a href="/">Pinbid</a>.</p></body></html>"""
UNFOLLOWABLE_LINK = """<!doctype html><html lang="en"><meta charset="utf-8"><title>Link not available · Pinbid</title>
<body style="font-family:system-ui;margin:4rem auto;max-width:36rem;padding:0 1rem">
<h1>This link cannot be followed</h1><p>The address the brand gave for it is not a valid or safe web address, so
Pinbid does not send you there. Go to <a href="/">Pinbid</a>.</p></body></html>"""


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
async def callback(request: Request, connections: ConnectionsDep, owners: SandboxOwnersDep,
                   code: PlainText | None = Query(None, max_length=2048),
                   state: PlainText | None = Query(None, max_length=512),
                   error: PlainText | None = Query(None, max_length=200)) -> RedirectResponse:
    location, connected = await connections.complete_connection(
        code=code, state=state, error=error, browser_nonce=request.cookies.get(STATE_COOKIE))
    redirect = RedirectResponse(location, status_code=303, headers={"Cache-Control": "no-store"})
    redirect.delete_cookie(STATE_COOKIE, path="/")
    if connected is not None and connections.providers.sandbox is not None:
        # the sandbox Instagram's "signed in to the app": its post page acts only for this account's owner, and
        # only while this connection of it lasts
        redirect.set_cookie(sandbox_owner.COOKIE, owners.cookie(connected),
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
async def instagram_login(body: InstagramLoginIn, principal: Influencer, pin_login: PinLoginDep) -> InstagramLoginOut:
    username = await pin_login.login(principal.user_id, body.username, body.password, body.verification_code)
    return InstagramLoginOut(detail="Instagram Login Successful.", username=username)


@creator.get("/pin-comment", response_model=list[PinStateOut])
async def pin_states(principal: Influencer, pin_states: PinStatesDep) -> list[PinStateOut]:
    """The creator's placements waiting for their pin, with the method each was paid under and the buttons it
    allows now (`pin`, `post`, `confirm`): the Approvals cards show these, not the current setting."""
    states = await pin_states.states(principal.user_id)
    return [PinStateOut(bid_id=s.bid_id, method=s.method, actions=s.actions) for s in states]


@creator.put("/pin-comment/{bid_id}", response_model=PinCommentOut)
async def pin_comment(bid_id: uuid.UUID, principal: Influencer, pins: PinsDep) -> PinCommentOut:
    """Pins the comment (SESSION), or posts it for the creator to pin in the Instagram app (MANUAL:
    `status` AWAITING_MANUAL_PIN, then POST .../confirm)."""
    pinned = await pins.pin(principal.user_id, bid_id)
    detail = "Comment Pinned." if pinned.status != AWAITING_MANUAL_PIN else (
        "The comment is on your post: pin it in the Instagram app, then press I pinned it.")
    return PinCommentOut(bid_id=pinned.bid_id, comment_id=pinned.comment_id, comment_text=pinned.comment_text,
                         status=pinned.status, detail=detail)


_TYPES = list(SCREENSHOT_TYPES.values())
SCREENSHOT_FORM = {"requestBody": {"required": False, "content": {"multipart/form-data": {"schema": {
    "type": "object", "properties": {
        "screenshot": {"type": "string", "format": "binary",
                       "description": f"{', '.join(_TYPES[:-1])} or {_TYPES[-1]}, at most "
                                      f"{SCREENSHOT_MAX_BYTES // 2**20} MB and {MAX_PIXELS // 10**6} megapixels"},
        "note": {"type": "string", "maxLength": REASON_MAX_LENGTH}}}}}}}
UPLOAD_ERRORS = {413: {"description": "the body is over the limit"},
                 422: {"description": "screenshot_required, not_an_image or image_too_large"}}


DecodingDep = Annotated[Decoding, Depends(from_state("decoding"))]


async def screenshot_of(request: Request, person: uuid.UUID, decoding: Decoding) -> tuple[Screenshot, str | None]:
    """The upload read with its cap, then decoded and re-encoded off the event loop in the person's turn. Called
    only once the route knows the person may upload for this bid: nobody's body is read or decoded for a bid that
    is not theirs or not waiting for a screenshot."""
    upload = await read_upload(request)
    if upload.screenshot is None:
        raise Invalid("Add a screenshot of the pinned comment on your post (JPEG, PNG or WebP).",
                      field="screenshot", code="screenshot_required")
    return await decoding.run(person, check, upload.screenshot), upload.note


@creator.post("/pin-comment/{bid_id}/confirm", response_model=PinCommentOut, openapi_extra=SCREENSHOT_FORM,
              responses=UPLOAD_ERRORS)
async def confirm_pin(bid_id: uuid.UUID, request: Request, principal: Influencer, pins: PinsDep,
                      decoding: DecodingDep) -> PinCommentOut:
    """"I pinned it", with a screenshot of the pinned comment (`multipart/form-data`, field `screenshot`,
    required), on a placement paid under "I pin in the app": checked through the official API, then the placement
    starts and awaits the brand's acceptance."""
    await pins.confirmable(principal.user_id, bid_id)
    screenshot, _ = await screenshot_of(request, principal.user_id, decoding)
    pinned = await pins.confirm(principal.user_id, bid_id, screenshot)
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
async def set_pin_method(body: PinMethodIn, principal: Influencer, pin_login: PinLoginDep) -> PinMethodOut:
    return PinMethodOut(pin_method=await pin_login.set_method(principal.user_id, body.pin_method))


def trust_out(view: TrustView) -> PlacementTrustOut:
    p, d, a = view.placement, view.dispute, view.actions
    base = f"/api/instagram/placements/{p.bid_id}/evidence"
    return PlacementTrustOut(
        method="MANUAL" if p.pin_method == MANUAL else "SESSION",
        acceptance=PlacementAcceptanceOut(status=p.acceptance, accept_by=p.accept_by, accepted_at=p.accepted_at,
                                 accepted_by=p.accepted_by),
        evidence=[PlacementEvidenceOut(id=e.id, kind=e.kind, uploaded_at=e.uploaded_at, url=f"{base}/{e.id}")
                  for e in view.evidence],
        recheck=None if p.recheck_requested_at is None or p.recheck_answer_by is None else PlacementRecheckOut(
            requested_at=p.recheck_requested_at, answer_by=p.recheck_answer_by, answered_at=p.recheck_answered_at),
        dispute=None if d is None else DisputeOut(
            id=d.id, status=d.status, reason=d.reason, reporter=d.reporter, reported_at=d.reported_at,
            creator_note=d.creator_note, answer_by=d.answer_by, answered_at=d.answered_at, outcome=d.outcome,
            decision_reason=d.decision_reason, decided_at=d.decided_at),
        ended=p.status == Status.ENDED, end_reason=p.end_reason,
        actions=PlacementActionsOut(
            accept=PlacementActionOut(open=a.accept.open, until=a.accept.until),
            report=PlacementActionOut(open=a.report.open, until=a.report.until),
            answer=PlacementAnswerOut(open=a.answer.open, until=a.answer.until, kind=a.answer.kind)))


IMAGE = {200: {"content": {"image/jpeg": {}, "image/png": {}, "image/webp": {}},
               "description": "the re-encoded screenshot"}}


def image_response(stored: StoredObject) -> Response:
    """Served so a browser can only ever show it as the image it is: no sniffing, no script, not cached shared."""
    return Response(stored.data, media_type=stored.content_type, headers={
        "X-Content-Type-Options": "nosniff", "Content-Security-Policy": "default-src 'none'; sandbox",
        "Cache-Control": "private, no-store", "Content-Disposition": "inline"})


@instagram.get("/placements/{bid_id}/trust", response_model=PlacementTrustOut)
async def placement_trust(bid_id: uuid.UUID, principal: SignedIn, trust: TrustQueriesDep) -> PlacementTrustOut:
    """The placement's proof, acceptance, fresh-screenshot request and dispute: for its brand, its creator and
    operators only (404 for anyone else)."""
    return trust_out(await trust.view(principal, bid_id))


@instagram.get("/placements/{bid_id}/evidence/{evidence_id}", response_class=Response, responses=IMAGE)
async def placement_evidence(bid_id: uuid.UUID, evidence_id: uuid.UUID, principal: SignedIn,
                             trust: TrustQueriesDep) -> Response:
    return image_response(await trust.evidence(principal, bid_id, evidence_id))


brand = APIRouter(prefix="/buyer/placements", tags=["placements"])


@brand.post("/{bid_id}/accept", response_model=PlacementTrustOut)
async def accept_placement(bid_id: uuid.UUID, principal: Buyer, trust: AcceptanceDep) -> PlacementTrustOut:
    """"Looks right": the brand accepts a placement the creator pinned in the Instagram app. 409 when it is not
    awaiting acceptance."""
    return trust_out(await trust.accept(principal.user_id, bid_id))


@brand.post("/{bid_id}/report", response_model=PlacementTrustOut)
async def report_placement(bid_id: uuid.UUID, body: PlacementReportIn, principal: Buyer,
                           trust: AcceptanceDep) -> PlacementTrustOut:
    """"Report a problem" (in the acceptance window) or "no longer pinned" (any time while it runs): a dispute
    opens and releases stop. 409 already_disputed / placement_ended."""
    return trust_out(await trust.report(principal.user_id, bid_id, body.reason))


@creator.post("/placements/{bid_id}/screenshot", response_model=PlacementTrustOut, openapi_extra=SCREENSHOT_FORM,
              responses=UPLOAD_ERRORS)
async def answer_with_screenshot(bid_id: uuid.UUID, request: Request, principal: Influencer,
                                 trust: EvidenceDep, decoding: DecodingDep) -> PlacementTrustOut:
    """The creator's fresh screenshot (answering Pinbid's request) or answer to an open dispute (with an
    optional `note`)."""
    await trust.answerable(principal.user_id, bid_id)
    screenshot, note = await screenshot_of(request, principal.user_id, decoding)
    return trust_out(await trust.answer(principal.user_id, bid_id, screenshot, note))


ops_disputes = APIRouter(prefix="/ops/disputes", tags=["ops"])


def dispute_item(row: DisputeRow) -> dict:
    d, p = row.dispute, row.placement
    return dict(id=d.id, bid_id=p.bid_id, slot_id=p.slot_id, status=d.status, reason=d.reason, reporter=d.reporter,
                reported_at=d.reported_at, answered_at=d.answered_at, answer_by=d.answer_by,
                creator_id=p.creator_id, creator_name=row.creator_name, buyer_id=p.buyer_id,
                buyer_name=p.business_name or p.buyer_name, amount=_money(p.price_cents), post_url=row.post_url,
                outcome=d.outcome, decided_at=d.decided_at, awaiting_answer=row.awaiting_answer)


def dispute_detail(found: DisputeDetail) -> DisputeDetailOut:
    d = found.row.dispute
    base = f"/api/ops/disputes/{d.id}/evidence"
    return DisputeDetailOut(
        **dispute_item(found.row), creator_note=d.creator_note, decision_reason=d.decision_reason,
        evidence=[PlacementEvidenceOut(id=e.id, kind=e.kind, uploaded_at=e.uploaded_at, url=f"{base}/{e.id}")
                  for e in found.evidence],
        history=[DisputeHistoryStepOut(at=h.at, what=h.what, by=h.by) for h in found.history])


@ops_disputes.get("", response_model=list[DisputeListItemOut])
async def list_disputes(principal: Operator, trust: TrustQueriesDep,
                        status: Literal["OPEN", "DECIDED"] | None = None) -> list[DisputeListItemOut]:
    return [DisputeListItemOut(**dispute_item(row)) for row in await trust.disputes(status)]


@ops_disputes.get("/{dispute_id}", response_model=DisputeDetailOut)
async def get_dispute(dispute_id: uuid.UUID, principal: Operator, trust: TrustQueriesDep) -> DisputeDetailOut:
    return dispute_detail(await trust.dispute(dispute_id))


@ops_disputes.get("/{dispute_id}/evidence/{evidence_id}", response_class=Response, responses=IMAGE)
async def dispute_evidence(dispute_id: uuid.UUID, evidence_id: uuid.UUID, principal: Operator,
                           trust: TrustQueriesDep) -> Response:
    return image_response(await trust.dispute_evidence(dispute_id, evidence_id))


@ops_disputes.post("/{dispute_id}/decision", response_model=DisputeDetailOut,
                   responses={409: {"description": "already_decided, or awaiting_answer"}})
async def decide_dispute(dispute_id: uuid.UUID, body: DisputeDecisionIn, principal: Operator,
                         trust: DisputesDep) -> DisputeDetailOut:
    """The operator's decision, once (409 already_decided): CONTINUE, REFUND_UNEARNED or REFUND_ALL (the
    placement ends). Only after the creator's answer or its window (409 awaiting_answer), unless
    `decideNowReason` says why not to wait."""
    return dispute_detail(await trust.decide(principal.user_id, dispute_id, body.outcome, body.reason,
                                             decide_now=body.decide_now_reason))


go = APIRouter(tags=["links"])


@go.api_route("/go/{code}", methods=["GET", "HEAD"], include_in_schema=False)
async def follow(code: PlainText, request: Request, links: LinksDep) -> Response:
    forwarded = request.headers.get("x-forwarded-for", "")
    address = forwarded.split(",")[-1].strip() if forwarded else (request.client.host if request.client else "")
    try:
        target = await links.follow(code[:32], method=request.method,
                                    user_agent=request.headers.get("user-agent", ""), address=address[:64])
    except Unfollowable:
        return HTMLResponse(UNFOLLOWABLE_LINK, status_code=404, headers={"Cache-Control": "no-store"})
    if target is None:
        return HTMLResponse(NO_SUCH_LINK, status_code=404, headers={"Cache-Control": "no-store"})
    return RedirectResponse(target, status_code=302, headers={"Cache-Control": "no-store",
                                                              "Referrer-Policy": "no-referrer"})


ops_links = APIRouter(prefix="/ops/links", tags=["ops"])


@ops_links.get("/changes", response_model=list[LinkChangeOut])
async def link_changes(_: Operator, links: LinksDep, bid_id: Annotated[uuid.UUID | None, Query(alias="bidId")] = None
                       ) -> list[LinkChangeOut]:
    """Short links whose target the brand changed after the comment was pinned, newest first."""
    return [LinkChangeOut.model_validate(c) for c in await links.target_changes(bid_id)]


ROUTERS = (instagram, creator, brand, ops_disputes, ops_links, go)
