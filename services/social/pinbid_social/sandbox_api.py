"""The sandbox Instagram's own pages: the authorize page, generated images and a post page, where the post's owner
pins, unpins, hides or deletes comments as in the Instagram app: only its owner, signed in by the cookie social
gives the browser that connected the account (domain/sandbox_owner.py); anyone else sees the comments and a clear
refusal."""

import asyncio
import html
from typing import Annotated
from urllib.parse import parse_qs, quote, urlencode

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from pinbid_kit.api import PlainText
from pinbid_kit.deps import from_state
from pinbid_kit.text import unsafe_character

from .adapters.sandbox import CLIENT_ID, NotOwner, SandboxInstagram
from .adapters.sandbox_images import post_image
from .domain import sandbox_owner
from .ports import LoginProblem, ProviderRejected
from .sandbox_owners import SandboxOwners

PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{{font-family:system-ui,sans-serif;background:#fafafa;display:flex;justify-content:center;padding:40px}}
main{{background:#fff;border:1px solid #dbdbdb;border-radius:12px;padding:32px;max-width:420px;width:100%}}
h1{{font-size:22px}} input{{width:100%;padding:10px;margin:8px 0 16px;box-sizing:border-box}}
button{{padding:10px 18px;border-radius:8px;border:0;margin-right:8px;cursor:pointer}}
.approve{{background:#0095f6;color:#fff}} .deny{{background:#efefef}} .pinned{{font-weight:600}}
small{{color:#737373}}</style></head><body><main>{body}</main></body></html>"""


def _page(title: str, body: str, status: int = 200) -> HTMLResponse:
    return HTMLResponse(PAGE.format(title=html.escape(title), body=body), status_code=status,
                        headers={"Cache-Control": "no-store", "X-Frame-Options": "DENY"})


ACTIONS = {"pin": "pinned", "unpin": "unpinned", "hide": "hidden", "unhide": "shown again", "delete": "deleted"}


def _comment_item(c, action_url: str, *, owner: bool) -> str:
    state = ("📌 " if c.pinned_at else "") + ("(hidden) " if c.hidden else "")
    line = f"<li class='{'pinned' if c.pinned_at else ''}'>{state}<b>@{html.escape(c.author)}</b> {html.escape(c.text)}"
    if not owner:
        return line + "</li>"
    buttons = "".join(
        f"<button name='action' value='{a}'>{a.capitalize()}</button> "
        for a in (("unpin" if c.pinned_at else "pin"), ("unhide" if c.hidden else "hide"), "delete"))
    return (f"{line}<form method='post' action='{action_url}'>"
            f"<input type='hidden' name='comment' value='{html.escape(c.id)}'> {buttons}</form></li>")


async def signed_in_as(request: Request, owners: SandboxOwners) -> str | None:
    """The sandbox account this browser is signed in as (the owner cookie of the account's current connection),
    if any."""
    return await owners.owner(request.cookies.get(sandbox_owner.COOKIE))


SandboxDep = Annotated[SandboxInstagram, Depends(from_state("sandbox"))]
OwnersDep = Annotated[SandboxOwners, Depends(from_state("sandbox_owners"))]

router = APIRouter(prefix="/instagram/sandbox", include_in_schema=False)


def check(request: Request, sandbox: SandboxInstagram) -> tuple[dict[str, str], HTMLResponse | None]:
    query = {k: v for k, v in request.query_params.items()}
    if query.get("client_id") != CLIENT_ID or query.get("response_type") != "code":
        return query, _page("Invalid request", "<h1>Invalid request</h1><p>Unknown app or response type.</p>", 400)
    if query.get("redirect_uri") != sandbox.redirect_uri:
        return query, _page("Invalid request", "<h1>Invalid request</h1><p>The redirect URI is not registered "
                            "for this app.</p>", 400)
    return query, None


@router.get("/authorize", response_class=HTMLResponse)
async def authorize_page(request: Request, sandbox: SandboxDep) -> HTMLResponse:
    query, problem = check(request, sandbox)
    if problem:
        return problem
    hint = html.escape(query.get("login_hint", ""))
    # The form posts back to the public URL of this page (the gateway serves it under /api).
    action = html.escape(f"{sandbox.public_url}/api/instagram/sandbox/authorize?{request.url.query}")
    body = f"""<h1>Instagram <small>sandbox</small></h1>
<p><b>Pinbid</b> would like to access your profile, media, insights and comments.</p>
<form method="post" action="{action}">
<label>Username<input name="username" value="{hint}" required autocomplete="username"></label>
<button class="approve" name="action" value="approve">Allow</button>
<button class="deny" name="action" value="deny" formnovalidate>Cancel</button></form>
<p><small>This is the sandbox Instagram: no real account is used.</small></p>"""
    return _page("Log in with Instagram (sandbox)", body)


@router.post("/authorize")
async def authorize(request: Request, sandbox: SandboxDep) -> Response:
    query, problem = check(request, sandbox)
    if problem:
        return problem
    form = {k: v[0] for k, v in parse_qs((await request.body()).decode(errors="replace")).items()}
    state = query.get("state", "")
    if unsafe_character(form.get("username", "")):
        return _page("Invalid request", "<h1>Invalid request</h1><p>That is not an Instagram username.</p>", 400)
    if form.get("action") == "approve" and form.get("username", "").strip():
        code = await sandbox.approve(form["username"], query["redirect_uri"])
        target = {"code": code, "state": state}
    elif form.get("action") in ("approve", "deny"):
        target = {"error": "access_denied", "error_reason": "user_denied",
                  "error_description": "The user denied your request.", "state": state}
    else:
        return _page("Invalid request", "<h1>Invalid request</h1><p>Choose Allow or Cancel.</p>", 400)
    return RedirectResponse(f"{query['redirect_uri']}?{urlencode(target)}", status_code=303)


@router.get("/media/{media_id}.png")
async def image(media_id: PlainText, sandbox: SandboxDep) -> Response:
    found = await sandbox.media(media_id)
    if found is None:
        return Response(status_code=404)
    png = await asyncio.to_thread(post_image, media_id, found[0].caption)
    return Response(png, media_type="image/png", headers={"Cache-Control": "public, max-age=86400, immutable"})


@router.get("/p/{media_id}", response_class=HTMLResponse)
async def post_page(media_id: PlainText, request: Request, sandbox: SandboxDep, owners: OwnersDep,
                    note: PlainText | None = Query(None, max_length=200)) -> HTMLResponse:
    found = await sandbox.media(media_id)
    if found is None:
        return _page("Not found", "<h1>Post not found</h1>", 404)
    media, owner, comments = found
    is_owner = await signed_in_as(request, owners) == owner.id
    action_url = html.escape(f"{sandbox.public_url}/api/instagram/sandbox/p/{media.id}")
    items = "".join(_comment_item(c, action_url, owner=is_owner)
                    for c in sorted(comments, key=lambda c: c.pinned_at is None))
    notice = f"<p role='status'><b>{html.escape(note)}</b></p>" if note else ""
    who = ("<p><small>You are signed in as the post's owner, as in the Instagram app: pin, unpin, hide or delete "
           "a comment.</small></p>" if is_owner else
           f"<p><small>Only @{html.escape(owner.username)}, signed in on this browser (by connecting the account "
           "to Pinbid here), can pin, unpin, hide or delete comments.</small></p>")
    body = (f"<h1>@{html.escape(owner.username)}</h1>{notice}<img src='{html.escape(sandbox.media_url(media.id))}' "
            f"alt='' style='width:100%'><p>{html.escape(media.caption)}</p>{who}<ul>{items}</ul>")
    return _page(f"@{owner.username} on Instagram (sandbox)", body)


@router.post("/p/{media_id}")
async def act_on_comment(media_id: PlainText, request: Request, sandbox: SandboxDep,
                         owners: OwnersDep) -> Response:
    form = {k: v[0] for k, v in parse_qs((await request.body()).decode(errors="replace")).items()}
    comment_id, action = (form.get(k, "")[:64] for k in ("comment", "action"))
    if action not in ACTIONS:
        return _page("Not allowed", "<h1>Unknown action</h1>", 422)
    try:
        await sandbox.act_as_owner(media_id, comment_id, action, await signed_in_as(request, owners))
        note = f"Comment {ACTIONS[action]}."
    except NotOwner as refused:
        return _page("Not allowed", f"<h1>Not allowed</h1><p>{html.escape(str(refused))}</p>", 403)
    except (ProviderRejected, LoginProblem) as refused:
        note = str(refused)
    page = f"{sandbox.public_url}/api/instagram/sandbox/p/{quote(media_id)}?{urlencode({'note': note})}"
    return RedirectResponse(page, status_code=303)
