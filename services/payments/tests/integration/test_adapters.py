"""The real adapters (Stripe Checkout, Stripe Connect, PayPal Payouts) against locally served fakes."""

import uuid
from datetime import UTC, datetime, timedelta

import httpx
import pytest
from pinbid_payments.adapters.paypal import PayPalPayouts
from pinbid_payments.adapters.stripe_checkout import StripeCheckout, stripe_client
from pinbid_payments.adapters.stripe_connect import StripeConnect
from pinbid_payments.ports import CheckoutOrder, PayoutOrder, ProviderError

from .fakes import paypal_fake, serving, stripe_fake


def order(**changes) -> CheckoutOrder:
    values = dict(payment_id=uuid.uuid4(), bid_id=uuid.uuid4(), title="Summer drop reel", price_cents=10_000,
                  buyer_fee_cents=250, currency="USD", customer_email="leo@brand.test",
                  success_url="http://pinbid.test/my-bids?payment=success",
                  cancel_url="http://pinbid.test/my-bids?payment=cancelled",
                  expires_at=datetime.now(UTC) + timedelta(hours=2), idempotency_key="checkout-1-1")
    values.update(changes)
    return CheckoutOrder(**values)


def payout(**changes) -> PayoutOrder:
    values = dict(payout_id=uuid.uuid4(), creator_id=uuid.uuid4(), method="PAYPAL", net_cents=6_305,
                  currency="USD", period="2026-W47", idempotency_key="payout-c-2026-W47",
                  destination={"paypal_email": "maya@creator.test"})
    values.update(changes)
    return PayoutOrder(**values)


async def test_stripe_checkout_session_request_and_idempotency():
    app, calls = stripe_fake()
    async with serving(app) as base:
        checkout = StripeCheckout(stripe_client("sk_test_123", base))
        wanted = order(expires_at=datetime.now(UTC) + timedelta(hours=48))
        opened = await checkout.open_checkout(wanted)
        again = await checkout.open_checkout(wanted)
    assert opened.session_id.startswith("cs_test_") and opened.url.startswith("https://checkout.stripe.com/")
    assert again.session_id == opened.session_id  # same idempotency key, same session
    form = calls[0]["form"]
    assert calls[0]["path"] == "/v1/checkout/sessions"
    assert calls[0]["idempotency_key"] == "checkout-1-1"
    assert calls[0]["authorization"] == "Bearer sk_test_123"
    assert form["mode"] == "payment"
    assert form["metadata[payment_id]"] == str(wanted.payment_id) and form["metadata[bid_id]"] == str(wanted.bid_id)
    assert form["payment_intent_data[metadata][payment_id]"] == str(wanted.payment_id)
    assert form["line_items[0][price_data][unit_amount]"] == "10000"
    assert form["line_items[0][price_data][currency]"] == "usd"
    assert form["line_items[1][price_data][unit_amount]"] == "250"
    assert form["success_url"].endswith("/my-bids?payment=success")
    assert form["cancel_url"].endswith("/my-bids?payment=cancelled")
    assert form["customer_email"] == "leo@brand.test"
    # a 48 h pay window is longer than Stripe allows for one session: capped just under 24 h
    expires_in = int(form["expires_at"]) - datetime.now(UTC).timestamp()
    assert 23 * 3600 < expires_in <= 24 * 3600


async def test_a_campaign_funding_checkout_is_told_apart_by_its_metadata():
    app, calls = stripe_fake()
    campaign = uuid.uuid4()
    async with serving(app) as base:
        wanted = order(bid_id=None, campaign_id=campaign, buyer_fee_cents=0, idempotency_key="campaign-funding-1")
        await StripeCheckout(stripe_client("sk_test_123", base)).open_checkout(wanted)
    form = calls[0]["form"]
    assert form["metadata[funding_id]"] == str(wanted.payment_id) and form["metadata[campaign_id]"] == str(campaign)
    assert form["payment_intent_data[metadata][funding_id]"] == str(wanted.payment_id)  # its charge and refunds
    assert "metadata[payment_id]" not in form and "metadata[bid_id]" not in form
    assert form["client_reference_id"] == str(campaign) and "line_items[1][price_data][unit_amount]" not in form
    assert calls[0]["idempotency_key"] == "campaign-funding-1"


async def test_stripe_session_expiry_matches_a_short_pay_window():
    app, calls = stripe_fake()
    async with serving(app) as base:
        wanted = order(expires_at=datetime.now(UTC) + timedelta(hours=2))
        await StripeCheckout(stripe_client("sk_test_123", base)).open_checkout(wanted)
    assert int(calls[0]["form"]["expires_at"]) == int(wanted.expires_at.timestamp())


async def test_stripe_refund_and_its_errors():
    app, calls = stripe_fake()
    async with serving(app) as base:
        checkout = StripeCheckout(stripe_client("sk_test_123", base))
        refund_id = await checkout.refund("pi_3MtwBwLkdIwHu7ix28a3tqPa", "refund-p1")
        with pytest.raises(ProviderError, match="No such payment_intent"):
            await checkout.refund("pi_unknown", "refund-p2")
    assert refund_id.startswith("re_")
    assert calls[0]["form"] == {"payment_intent": "pi_3MtwBwLkdIwHu7ix28a3tqPa", "reason": "requested_by_customer"}
    assert calls[0]["idempotency_key"] == "refund-p1"


async def test_stripe_connect_onboarding_and_transfer():
    app, calls = stripe_fake()
    async with serving(app) as base:
        connect = StripeConnect(stripe_client("sk_test_123", base))
        account = await connect.create_account("maya@creator.test", "US", "connect-c1")
        link = await connect.onboarding_link(account, "http://pinbid.test/earnings?onboarding=refresh",
                                             "http://pinbid.test/earnings?onboarding=done")
        paid = await connect.send(payout(method="BANK_TRANSFER", destination={"stripe_account_id": account}))
        refused = await connect.send(payout(method="BANK_TRANSFER", idempotency_key="payout-x",
                                            destination={"stripe_account_id": "acct_closed"}))
    assert account.startswith("acct_") and link.startswith(f"https://connect.stripe.com/setup/e/{account}/")
    created, linked, transfer = calls[0], calls[1], calls[2]
    assert created["form"]["type"] == "express" and created["form"]["capabilities[transfers][requested]"] == "true"
    assert linked["form"]["type"] == "account_onboarding" and linked["form"]["account"] == account
    assert transfer["form"]["amount"] == "6305" and transfer["form"]["destination"] == account
    assert transfer["idempotency_key"] == "payout-c-2026-W47"
    assert paid.status == "PAID" and paid.reference.startswith("tr_")
    assert refused.status == "FAILED" and "closed" in refused.reason


async def test_paypal_payout_batch_then_status():
    app, calls = paypal_fake()
    async with serving(app) as base, httpx.AsyncClient() as http:
        paypal = PayPalPayouts(base, "client-id", "client-secret", http=http)
        sent = await paypal.send(payout())
        assert sent.status == "PENDING" and sent.reference
        resent = await paypal.send(payout())  # the same sender_batch_id: PayPal links the original batch
        settled = await paypal.status(payout(), sent.reference)
    assert resent.status == "PENDING" and resent.reference == sent.reference
    assert settled.status == "PAID"
    token = calls[0]
    assert token["form"] == {"grant_type": "client_credentials"}
    assert token["authorization"].startswith("Basic ")
    body = calls[1]["json"]
    assert body["sender_batch_header"]["sender_batch_id"] == "payout-c-2026-W47"
    assert body["items"][0] | {"note": None} == {
        "recipient_type": "EMAIL", "receiver": "maya@creator.test",
        "sender_item_id": body["items"][0]["sender_item_id"], "note": None,
        "amount": {"value": "63.05", "currency": "USD"}}
    assert sum(1 for c in calls if c["path"] == "/v1/oauth2/token") == 1  # the token is reused


async def test_paypal_failed_item():
    app, _ = paypal_fake(final_status="FAILED")
    async with serving(app) as base, httpx.AsyncClient() as http:
        paypal = PayPalPayouts(base, "client-id", "client-secret", http=http)
        sent = await paypal.send(payout())
        settled = await paypal.status(payout(), sent.reference)
    assert settled.status == "FAILED" and settled.reason == "Receiver is unregistered"


async def test_live_payouts_through_the_worker(make_harness):
    """The service wired for live payouts: PayPal creators paid through PayPal, bank creators by Connect."""
    from .test_payouts import MONDAY, earn

    stripe_app, stripe_calls = stripe_fake()
    paypal_app, _ = paypal_fake()
    async with serving(stripe_app) as stripe_base, serving(paypal_app) as paypal_base:
        pay = await make_harness(payout_provider="live", stripe_api_key="sk_test_123", stripe_api_base=stripe_base,
                                 paypal_client_id="id", paypal_client_secret="secret", paypal_api_base=paypal_base)
        pay.service.state["payouts"].providers["PAYPAL"].http = httpx.AsyncClient()
        paypal_creator, bank_creator = uuid.uuid4(), uuid.uuid4()
        await pay.http.put("/influencer/payout-settings", headers=pay.token(paypal_creator, "INFLUENCER"), json={
            "payoutMethod": "PAYPAL", "minimumPayout": 50, "schedule": "WEEKLY", "paypalEmail": "maya@creator.test"})
        await pay.http.put("/influencer/payout-settings", headers=pay.token(bank_creator, "INFLUENCER"), json={
            "payoutMethod": "BANK_TRANSFER", "minimumPayout": 50, "schedule": "WEEKLY", "currency": "USD",
            "accountName": "Sam", "bankAccount": "12345678", "routingNumber": "021000021"})
        onboarding = await pay.http.post("/influencer/payout-settings/stripe-onboarding",
                                         headers=pay.token(bank_creator, "INFLUENCER"))
        assert onboarding.json()["url"].startswith("https://connect.stripe.com/setup/e/acct_")
        await earn(pay, paypal_creator, 10_000)
        await earn(pay, bank_creator, 10_000)
        pay.clock.now = MONDAY
        worker = pay.service.state["payouts"]
        assert await worker.run_once() == (2, 1)  # the transfer is done at once; PayPal's batch is pending
        assert await worker.deliver() == 1  # the next run finds PayPal's batch SUCCESS
        assert await pay.scalar("SELECT count(*) FROM payouts WHERE status = 'PAID'") == 2
        transfer = next(c for c in stripe_calls if c["path"] == "/v1/transfers")
        assert transfer["form"]["amount"] == "9000"
