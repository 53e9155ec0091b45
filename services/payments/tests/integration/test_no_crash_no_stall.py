"""No request crashes or stalls payments: racing first saves and checkouts have one effect and no 5xx, no row
lock is held while a provider is called, an exhausted pool answers 503, and bad text or money changes nothing."""

import asyncio
import uuid

import pytest
from sqlalchemy import text

from .test_payout_settings import VALID_BANK

MANY = 50


async def _checkout(pay, approved):
    return await pay.http.post("/payments/create-checkout-session", json={"bidId": str(approved.bid_id)},
                               headers=pay.token(approved.buyer_id, "BUYER"))


async def test_fifty_simultaneous_checkouts_for_one_bid_open_one_session(pay):
    approved = await pay.approve()
    responses = await asyncio.gather(*[_checkout(pay, approved) for _ in range(MANY)])
    assert [r.status_code for r in responses] == [200] * MANY
    assert len({r.json()["url"] for r in responses}) == 1
    assert await pay.scalar("SELECT count(*) FROM checkout_sessions") == 1
    assert await pay.scalar("SELECT count(*) FROM sandbox_checkouts") == 1
    session_id = await pay.scalar("SELECT id FROM checkout_sessions")
    assert await pay.scalar("SELECT provider_session_id FROM payments WHERE bid_id = :b",
                            b=approved.bid_id) == session_id


class LockProbe:
    """A checkout provider that, while it is being called, checks that nobody holds the payment's row."""

    def __init__(self, pay, inner):
        self.pay = pay
        self.inner = inner
        self.free_during_call: list[bool] = []

    async def open_checkout(self, order):
        async with self.pay.db.transaction() as session:
            await session.execute(text("SET LOCAL lock_timeout = '50ms'"))
            try:
                async with session.begin_nested():
                    await session.execute(text("SELECT 1 FROM payments WHERE id = :id FOR UPDATE"),
                                          {"id": order.payment_id})
                self.free_during_call.append(True)
            except Exception:  # lock_timeout: the row is held by the request that called us
                self.free_during_call.append(False)
        return await self.inner.open_checkout(order)

    async def refund(self, payment_intent, idempotency_key, *, amount_cents=None):
        return await self.inner.refund(payment_intent, idempotency_key, amount_cents=amount_cents)


async def test_no_row_lock_is_held_while_the_provider_opens_the_checkout(pay):
    checkout = pay.service.state["checkout"]
    probe = checkout.provider = LockProbe(pay, checkout.provider)
    approved = await pay.approve()
    assert (await _checkout(pay, approved)).status_code == 200
    assert probe.free_during_call == [True]


async def test_fifty_simultaneous_first_saves_of_payout_settings_make_one_row(pay):
    creator = uuid.uuid4()
    headers = pay.token(creator, "INFLUENCER")
    responses = await asyncio.gather(*[
        pay.http.put("/influencer/payout-settings", json={**VALID_BANK, "minimumPayout": 50 + n}, headers=headers)
        for n in range(MANY)])
    assert [r.status_code for r in responses] == [200] * MANY
    assert await pay.scalar("SELECT count(*) FROM payout_settings") == 1
    stored = await pay.scalar("SELECT minimum_payout FROM payout_settings")
    assert stored in {50 + n for n in range(MANY)}  # the last of the queued saves
    read = (await pay.http.get("/influencer/payout-settings", headers=headers)).json()
    assert read["saved"] and read["minimumPayout"] == float(stored) and read["bankAccount"] == "••••9012"


async def test_fifty_simultaneous_onboardings_make_one_account(pay):
    creator = uuid.uuid4()
    responses = await asyncio.gather(*[
        pay.http.post("/influencer/payout-settings/stripe-onboarding", headers=pay.token(creator, "INFLUENCER"))
        for _ in range(MANY)])
    assert [r.status_code for r in responses] == [200] * MANY
    assert await pay.scalar("SELECT count(DISTINCT stripe_account_id) FROM payout_settings") == 1


async def test_an_exhausted_pool_answers_503_with_retry_after_and_recovers(make_harness):
    pay = await make_harness(db_pool_size=1, db_max_overflow=0, db_pool_timeout=0.3)
    creator = uuid.uuid4()
    headers = pay.token(creator, "INFLUENCER")
    held, release = asyncio.Event(), asyncio.Event()

    async def hold_the_only_connection():
        async with pay.db.transaction() as session:
            await session.execute(text("SELECT 1"))
            held.set()
            await release.wait()

    holder = asyncio.create_task(hold_the_only_connection())
    await held.wait()
    busy = await pay.http.put("/influencer/payout-settings", json=VALID_BANK, headers=headers)
    release.set()
    await holder
    assert busy.status_code == 503 and busy.headers["retry-after"] == "1"
    assert busy.json()["code"] == "busy" and busy.json()["detail"]
    assert await pay.scalar("SELECT count(*) FROM payout_settings") == 0
    assert (await pay.http.put("/influencer/payout-settings", json=VALID_BANK, headers=headers)).status_code == 200


BAD_PAYOUT_INPUT = [
    ({"accountName": "Maya\x00Creator"}, "accountName"),
    ({"accountName": "Maya \u202eCreator"}, "accountName"),
    ({"accountName": "Maya\nCreator"}, "accountName"),
    ({"bankAccount": "1234\x00567890"}, "bankAccount"),
    ({"payoutMethod": "PAYPAL", "paypalEmail": "maya\x00@creator.test"}, "paypalEmail"),
    ({"routingNumber": "02100\u20660021"}, "routingNumber"),
    ({"minimumPayout": "1e3"}, "minimumPayout"),
    ({"minimumPayout": " 50 "}, "minimumPayout"),
    ({"minimumPayout": "75"}, "minimumPayout"),
    ({"minimumPayout": True}, "minimumPayout"),
    ({"minimumPayout": 1e300}, "minimumPayout"),
]


@pytest.mark.parametrize(("changes", "field"), BAD_PAYOUT_INPUT)
async def test_bad_text_or_money_in_payout_settings_is_a_422_and_changes_nothing(pay, changes, field):
    creator = uuid.uuid4()
    headers = pay.token(creator, "INFLUENCER")
    assert (await pay.http.put("/influencer/payout-settings", json=VALID_BANK, headers=headers)).status_code == 200
    before = (await pay.http.get("/influencer/payout-settings", headers=headers)).json()
    sealed_before = await pay.rows("SELECT * FROM payout_settings")

    response = await pay.http.put("/influencer/payout-settings", json={**VALID_BANK, **changes}, headers=headers)

    assert response.status_code == 422, response.text
    body = response.json()
    assert body["code"] == "validation_error" and body["detail"]
    assert field in {e["field"] for e in body["errors"]}
    assert (await pay.http.get("/influencer/payout-settings", headers=headers)).json() == before
    assert await pay.rows("SELECT * FROM payout_settings") == sealed_before


async def test_a_control_or_bidi_character_in_a_sandbox_checkout_id_is_a_4xx(pay):
    """The kit's path guard answers 404 first; the path parameter's own type would answer 422."""
    for path in ("/payments/sandbox/checkout/cs_test%00x", "/payments/sandbox/checkout/cs_test%E2%80%AEx"):
        shown = await pay.http.get(path)
        posted = await pay.http.post(path, data={"action": "pay"})
        for response in (shown, posted):
            assert response.status_code in (404, 422) and response.json()["code"], response.text
    assert await pay.scalar("SELECT count(*) FROM sandbox_webhooks") == 0
