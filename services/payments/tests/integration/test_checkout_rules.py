"""Bad checkout requests get a clear 4xx and move no money; racing checkouts open one session."""

import asyncio
import uuid

from pinbid_kit.events.marketplace import BidApproved


async def _checkout(pay, approved: BidApproved, user_id=None, role="BUYER"):
    return await pay.http.post("/payments/create-checkout-session", json={"bidId": str(approved.bid_id)},
                               headers=pay.token(user_id or approved.buyer_id, role))


async def test_someone_elses_bid_is_not_found(pay):
    approved = await pay.approve()
    response = await _checkout(pay, approved, user_id=uuid.uuid4())
    assert response.status_code == 404
    assert response.json()["detail"] == "This bid is not awaiting payment."
    assert await pay.scalar("SELECT count(*) FROM checkout_sessions") == 0


async def test_a_bid_whose_approval_has_not_reached_payments_yet_is_being_prepared(pay):
    travelling = BidApproved(bid_id=uuid.uuid4(), slot_id=uuid.uuid4(), slot_title="Summer drop reel",
                             creator_id=uuid.uuid4(), buyer_id=uuid.uuid4(), final_price_cents=10_000)
    response = await _checkout(pay, travelling)
    assert response.status_code == 409
    assert response.json() == {"detail": "The payment is being prepared. Please try again in a moment.",
                               "code": "payment_preparing"}
    assert response.headers["Retry-After"] == "2"
    assert await pay.scalar("SELECT count(*) FROM checkout_sessions") == 0

    await pay.deliver(travelling)  # the approval arrives: the retry opens the checkout
    assert (await _checkout(pay, travelling)).status_code == 200


async def test_only_buyers_and_signed_in_users(pay):
    approved = await pay.approve()
    assert (await _checkout(pay, approved, role="INFLUENCER")).status_code == 403
    anonymous = await pay.http.post("/payments/create-checkout-session", json={"bidId": str(approved.bid_id)})
    assert anonymous.status_code == 403
    bad = await pay.http.post("/payments/create-checkout-session", json={"bidId": "nope"},
                              headers=pay.token(approved.buyer_id, "BUYER"))
    assert bad.status_code == 422


async def test_paid_or_expired_bids_cannot_be_checked_out(pay):
    paid = await pay.approve()
    await pay.pay(paid)
    response = await _checkout(pay, paid)
    assert response.status_code == 409 and response.json()["code"] == "already_paid"

    late = await pay.approve()
    pay.clock.advance(hours=48)
    response = await _checkout(pay, late)
    assert response.status_code == 409 and response.json()["code"] == "payment_expired"
    assert await pay.scalar("SELECT count(*) FROM checkout_sessions WHERE payment_id = "
                            "(SELECT id FROM payments WHERE bid_id = :b)", b=late.bid_id) == 0


async def test_racing_checkouts_share_one_session(pay):
    approved = await pay.approve()
    responses = await asyncio.gather(*[_checkout(pay, approved) for _ in range(12)])
    assert {r.status_code for r in responses} == {200}
    assert len({r.json()["url"] for r in responses}) == 1
    assert await pay.scalar("SELECT count(*) FROM checkout_sessions") == 1
    assert await pay.scalar("SELECT count(*) FROM sandbox_checkouts") == 1


async def test_racing_pays_complete_once(pay):
    approved = await pay.approve(4_200)
    url = (await _checkout(pay, approved)).json()["url"]
    path = "/" + url.split("/api/", 1)[1]
    responses = await asyncio.gather(*[pay.http.post(path, data={"action": "pay"}) for _ in range(8)])
    assert {r.status_code for r in responses} == {303}
    assert await pay.status(approved) == "COMPLETED"
    assert len(await pay.events("payments.payment.completed.v1")) == 1
    assert await pay.scalar("SELECT count(*) FROM ledger_transactions WHERE kind = 'payment_received'") == 1


async def test_sandbox_page_refuses_other_actions(pay):
    approved = await pay.approve()
    url = (await _checkout(pay, approved)).json()["url"]
    path = "/" + url.split("/api/", 1)[1]
    assert (await pay.http.post(path, data={"action": "steal"})).status_code == 400
    assert (await pay.http.get("/payments/sandbox/checkout/cs_test_missing")).status_code == 404
    assert await pay.status(approved) == "REQUESTED"
