"""The sandbox checkout page: GET shows what is being paid; POST action=pay|cancel completes it (303). `card`: a
test card number (any digits; the same number gives the same card fingerprint)."""

from html import escape
from typing import Annotated
from urllib.parse import parse_qs

from fastapi import APIRouter, Depends, Path, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from pinbid_kit.api import PlainText
from pinbid_kit.deps import from_state

from .adapters.sandbox import DEFAULT_CARD, SandboxError, SandboxProvider
from .domain.money import to_money

_PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{{font-family:system-ui,sans-serif;max-width:28rem;margin:4rem auto;padding:0 1rem;color:#111}}
.card{{border:1px solid #ddd;border-radius:12px;padding:1.5rem}}.amount{{font-size:2rem;font-weight:700}}
button{{font-size:1rem;padding:.6rem 1.2rem;border-radius:8px;border:1px solid #999;cursor:pointer;margin-right:.5rem}}
.pay{{background:#111;color:#fff}}.note{{color:#666;font-size:.85rem}}</style></head>
<body><div class="card"><p class="note">Pinbid sandbox checkout · no real money moves</p>{body}</div></body></html>"""


def _page(title: str, body: str, status: int = 200) -> HTMLResponse:
    return HTMLResponse(_PAGE.format(title=escape(title), body=body), status_code=status)


SessionId = Annotated[PlainText, Path(max_length=255)]
SandboxDep = Annotated[SandboxProvider, Depends(from_state("sandbox"))]


router = APIRouter(prefix="/payments/sandbox", tags=["sandbox"])


@router.get("/checkout/{session_id}", response_class=HTMLResponse)
async def show(session_id: SessionId, sandbox: SandboxDep) -> Response:
    row = await sandbox.checkout(session_id)
    if row is None:
        return _page("Checkout not found", "<h1>Checkout not found</h1>", 404)
    if row.status == "complete":
        return _page("Paid", f'<h1>Already paid</h1><p><a href="{escape(row.success_url)}">Back to Pinbid</a></p>')
    if row.status != "open":
        return _page("Expired", f'<h1>This checkout has expired</h1><p><a href="{escape(row.cancel_url)}">'
                                "Back to Pinbid</a></p>", 410)
    amount = f"{to_money(row.amount_cents)} {escape(row.currency)}"
    return _page(f"Pay {amount}", (
        f"<h1>Pinned comment</h1><p>{escape(row.title)}</p><p class=\"amount\">{amount}</p>"
        f"<p class=\"note\">{escape(row.customer_email or '')}</p>"
        '<form method="post"><p><label>Test card <input name="card" value="4242 4242 4242 4242" '
        'inputmode="numeric" maxlength="23" autocomplete="off"></label></p>'
        '<p><label>Name on card <input name="cardholder" maxlength="100" autocomplete="off"></label></p>'
        '<button class="pay" name="action" value="pay">Pay</button>'
        '<button name="action" value="cancel">Cancel</button></form>'))


@router.post("/checkout/{session_id}", response_class=HTMLResponse)
async def act(session_id: SessionId, request: Request, sandbox: SandboxDep) -> Response:
    form = parse_qs((await request.body()).decode("utf-8", "replace"))
    action = (form.get("action") or [""])[0]
    if action not in ("pay", "cancel"):
        return _page("Bad request", "<h1>Choose Pay or Cancel.</h1>", 400)
    card = (form.get("card") or [DEFAULT_CARD])[0][:23]
    cardholder = (form.get("cardholder") or [""])[0].strip()[:100] or None
    try:
        url = await (sandbox.pay(session_id, card, cardholder) if action == "pay" else sandbox.cancel(session_id))
    except SandboxError as exc:
        return _page("Checkout", f"<h1>{escape(str(exc))}</h1>", 409)
    return RedirectResponse(url, status_code=303)
