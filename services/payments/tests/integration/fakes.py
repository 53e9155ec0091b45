"""Locally served stand-ins for Stripe's and PayPal's APIs, answering in their real response shapes and
recording what they were sent. Served over real HTTP on 127.0.0.1 (the SDK's own transport is used)."""

import asyncio
import contextlib
import socket
import time
import uuid
from urllib.parse import parse_qsl

import uvicorn
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from pinbid_testing import eventually


@contextlib.asynccontextmanager
async def serving(app: FastAPI):
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="off"))
    task = asyncio.create_task(server.serve())

    async def started() -> bool:
        return server.started

    await eventually(started)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        await task


def metadata_of(form: dict[str, str]) -> dict[str, str]:
    """The `metadata[...]` fields of a Stripe form, as the object Stripe answers with."""
    return {k[9:-1]: v for k, v in form.items() if k.startswith("metadata[")}


def stripe_fake() -> tuple[FastAPI, list[dict]]:
    """Stripe's form-encoded API: replays the first answer for a reused Idempotency-Key, as Stripe does."""
    app = FastAPI()
    calls: list[dict] = []
    answers: dict[str, tuple[int, dict]] = {}

    async def record(request: Request) -> tuple[dict, str | None]:
        form = dict(parse_qsl((await request.body()).decode()))
        key = request.headers.get("idempotency-key")
        calls.append({"path": request.url.path, "form": form, "idempotency_key": key,
                      "authorization": request.headers.get("authorization"),
                      "stripe_version": request.headers.get("stripe-version")})
        return form, key

    def answer(key: str | None, status: int, body: dict) -> JSONResponse:
        if key:
            status, body = answers.setdefault(key, (status, body))
        return JSONResponse(body, status_code=status)

    def invalid_request(key: str | None, code: str, message: str, **more: str) -> JSONResponse:
        return answer(key, 400, {"error": {"type": "invalid_request_error", "code": code, **more, "message": message}})

    @app.post("/v1/checkout/sessions")
    async def sessions(request: Request):
        form, key = await record(request)
        session_id = f"cs_test_{uuid.uuid4().hex}"
        amount = sum(int(v) for k, v in form.items() if k.endswith("[price_data][unit_amount]"))
        return answer(key, 200, {
            "id": session_id, "object": "checkout.session", "amount_subtotal": amount, "amount_total": amount,
            "cancel_url": form["cancel_url"], "success_url": form["success_url"],
            "client_reference_id": form.get("client_reference_id"), "created": int(time.time()),
            "currency": form["line_items[0][price_data][currency]"], "customer": None,
            "customer_email": form.get("customer_email"), "expires_at": int(form["expires_at"]),
            "livemode": False, "metadata": metadata_of(form),
            "mode": form["mode"], "payment_intent": None, "payment_status": "unpaid", "status": "open",
            "url": f"https://checkout.stripe.com/c/pay/{session_id}#fidkdWxOYHwnPyd1blpxYHZxWjA0"})

    @app.post("/v1/refunds")
    async def refunds(request: Request):
        form, key = await record(request)
        if form["payment_intent"] == "pi_unknown":
            return invalid_request(key, "resource_missing", "No such payment_intent: 'pi_unknown'",
                                   param="payment_intent")
        amount = int(form.get("amount", 10_000))
        return answer(key, 200, {"id": f"re_{uuid.uuid4().hex[:24]}", "object": "refund", "amount": amount,
                                 "charge": "ch_3MmlLrLkdIwHu7ix0snN0B15", "currency": "usd",
                                 "payment_intent": form["payment_intent"], "reason": form.get("reason"),
                                 "status": "succeeded", "created": int(time.time()), "metadata": {}})

    @app.post("/v1/accounts")
    async def accounts(request: Request):
        form, key = await record(request)
        return answer(key, 200, {"id": f"acct_{uuid.uuid4().hex[:16]}", "object": "account", "type": form["type"],
                                 "country": form["country"], "email": form.get("email"),
                                 "charges_enabled": False, "payouts_enabled": False, "details_submitted": False,
                                 "capabilities": {"transfers": "inactive"}, "created": int(time.time())})

    @app.post("/v1/account_links")
    async def account_links(request: Request):
        form, key = await record(request)
        return answer(key, 200, {"object": "account_link", "created": int(time.time()),
                                 "expires_at": int(time.time()) + 300,
                                 "url": f"https://connect.stripe.com/setup/e/{form['account']}/Ab12Cd34"})

    @app.post("/v1/transfers")
    async def transfers(request: Request):
        form, key = await record(request)
        if form["destination"] == "acct_closed":
            return invalid_request(key, "account_invalid", "The destination account is closed.")
        return answer(key, 200, {"id": f"tr_{uuid.uuid4().hex[:24]}", "object": "transfer",
                                 "amount": int(form["amount"]), "currency": form["currency"],
                                 "destination": form["destination"], "transfer_group": form.get("transfer_group"),
                                 "metadata": metadata_of(form),
                                 "reversed": False, "created": int(time.time()), "livemode": False})

    return app, calls


def paypal_fake(*, final_status: str = "SUCCESS") -> tuple[FastAPI, list[dict]]:
    """PayPal's OAuth2 token and Payouts batch API."""
    app = FastAPI()
    calls: list[dict] = []
    batches: dict[str, dict] = {}
    by_sender_id: dict[str, str] = {}

    @app.post("/v1/oauth2/token")
    async def token(request: Request):
        calls.append({"path": "/v1/oauth2/token", "authorization": request.headers.get("authorization"),
                      "form": dict(parse_qsl((await request.body()).decode()))})
        return {"scope": "https://uri.paypal.com/services/payments/payouts", "access_token": "A21AAFake.Token",
                "token_type": "Bearer", "app_id": "APP-80W284485P519543T", "expires_in": 32400,
                "nonce": "2026-11-22T10:00:00ZFakeNonce"}

    def unauthorized(request: Request):
        if request.headers.get("authorization") != "Bearer A21AAFake.Token":
            return JSONResponse({"error": "invalid_token", "error_description": "Token signature verification failed"},
                                status_code=401)
        return None

    @app.post("/v1/payments/payouts")
    async def create(request: Request):
        if (refused := unauthorized(request)) is not None:
            return refused
        body = await request.json()
        calls.append({"path": "/v1/payments/payouts", "json": body})
        sender_id = body["sender_batch_header"]["sender_batch_id"]
        if sender_id in by_sender_id:
            href = f"{request.base_url}v1/payments/payouts/{by_sender_id[sender_id]}"
            return JSONResponse({"name": "USER_BUSINESS_ERROR", "message": "Batch with given sender_batch_id "
                                 "already exists", "debug_id": "b0d3a5e7f0e2a",
                                 "information_link": "https://developer.paypal.com/docs/api/payments.payouts-batch/#errors",
                                 "links": [{"href": href, "rel": "self", "method": "GET"}]}, status_code=400)
        batch_id = uuid.uuid4().hex[:13].upper()
        by_sender_id[sender_id] = batch_id
        batches[batch_id] = body
        return JSONResponse({"batch_header": {"sender_batch_header": body["sender_batch_header"],
                                              "payout_batch_id": batch_id, "batch_status": "PENDING"},
                             "links": [{"href": f"{request.base_url}v1/payments/payouts/{batch_id}", "rel": "self",
                                        "method": "GET", "encType": "application/json"}]}, status_code=201)

    @app.get("/v1/payments/payouts/{batch_id}")
    async def show(batch_id: str, request: Request):
        if (refused := unauthorized(request)) is not None:
            return refused
        calls.append({"path": f"/v1/payments/payouts/{batch_id}"})
        body = batches[batch_id]
        item = body["items"][0]
        failed = final_status != "SUCCESS"
        return {"batch_header": {"payout_batch_id": batch_id, "batch_status": "SUCCESS" if not failed else "DENIED",
                                 "sender_batch_header": body["sender_batch_header"],
                                 "amount": item["amount"], "fees": {"currency": "USD", "value": "0.00"}},
                "items": [{"payout_item_id": "8AELMXH8UB2P8", "transaction_id": "0C413693MN970190K",
                           "activity_id": "0E158638XS0329106", "transaction_status": final_status,
                           "payout_batch_id": batch_id,
                           "payout_item": {"recipient_type": "EMAIL", "amount": item["amount"],
                                           "receiver": item["receiver"], "sender_item_id": item["sender_item_id"]},
                           **({"errors": {"name": "RECEIVER_UNREGISTERED",
                                          "message": "Receiver is unregistered"}} if failed else {})}]}

    return app, calls
