"""The happy path through the sandbox: approved → requested → checkout → pay → webhook → completed →
pinned → available; and what the creator and the buyer read."""

from pinbid_payments.domain import ledger


async def test_an_approved_bid_becomes_a_payment_request_once(pay):
    approved = await pay.approve(12_345)
    await pay.deliver(approved)  # the same approval again (another envelope)
    requested = await pay.events("payments.payment.requested.v1")
    assert len(requested) == 1
    assert requested[0]["bidId"] == str(approved.bid_id)
    assert requested[0]["amountCents"] == 12_345
    assert await pay.status(approved) == "REQUESTED"
    expires = await pay.scalar("SELECT expires_at FROM payments WHERE bid_id = :b", b=approved.bid_id)
    assert (expires - pay.clock()).total_seconds() == 48 * 3600


async def test_checkout_pay_and_pin(pay):
    approved = await pay.approve(10_000)
    response = await pay.http.post("/payments/create-checkout-session", json={"bidId": str(approved.bid_id)},
                                   headers=pay.token(approved.buyer_id, "BUYER"))
    assert response.status_code == 200
    url = response.json()["url"]
    assert url.startswith("http://pinbid.test/api/payments/sandbox/checkout/cs_test_")
    path = "/" + url.split("/api/", 1)[1]

    page = await pay.http.get(path)
    assert page.status_code == 200 and "100.00 USD" in page.text and "Summer drop reel" in page.text

    paid = await pay.http.post(path, data={"action": "pay"})
    assert paid.status_code == 303
    assert paid.headers["location"] == "http://pinbid.test/my-bids?payment=success"
    assert await pay.status(approved) == "COMPLETED"
    completed = await pay.events("payments.payment.completed.v1")
    assert [c["bidId"] for c in completed] == [str(approved.bid_id)]

    creator, buyer = approved.creator_id, approved.buyer_id
    assert await pay.balance(ledger.buyer_charges(buyer)) == 10_000
    assert await pay.balance(ledger.PLATFORM_FEES) == 1_000
    assert await pay.balance(ledger.creator_pending(creator)) == 9_000
    assert await pay.balance(ledger.creator_available(creator)) == 0

    earnings = (await pay.http.get("/influencer/earnings", headers=pay.token(creator, "INFLUENCER"))).json()
    # paid, not pinned: nothing is earned until it is released, all of it waits in the pending balance
    assert (earnings["totalEarnings"], earnings["thisMonthEarnings"], earnings["pendingPayouts"]) == (0, 0, 0)
    assert earnings["pendingBalance"] == 90.0

    await pay.pin(approved)
    await pay.pin(approved)  # a second pinned event releases nothing more
    assert await pay.balance(ledger.creator_pending(creator)) == 6_750  # a quarter is released at pin
    assert await pay.balance(ledger.creator_available(creator)) == 2_250
    await pay.complete(approved)
    await pay.complete(approved)
    assert await pay.balance(ledger.creator_pending(creator)) == 0
    assert await pay.balance(ledger.creator_available(creator)) == 9_000

    spent = await pay.http.get("/buyer/total-spent", headers=pay.token(buyer, "BUYER"))
    assert spent.json() == {"totalSpent": 100.0}
    report = await pay.http.get("/influencer/earnings/report.csv", headers=pay.token(creator, "INFLUENCER"))
    assert report.headers["content-type"].startswith("text/csv")
    lines = report.text.strip().splitlines()
    assert len(lines) == 2 and "100.00,10.00,90.00,USD,AVAILABLE" in lines[1]


async def test_cancel_goes_back_and_the_same_session_can_still_be_paid(pay):
    approved = await pay.approve(5_000)
    headers = pay.token(approved.buyer_id, "BUYER")
    first = (await pay.http.post("/payments/create-checkout-session", json={"bidId": str(approved.bid_id)},
                                 headers=headers)).json()["url"]
    path = "/" + first.split("/api/", 1)[1]
    cancelled = await pay.http.post(path, data={"action": "cancel"})
    assert cancelled.status_code == 303
    assert cancelled.headers["location"] == "http://pinbid.test/my-bids?payment=cancelled"
    assert await pay.status(approved) == "REQUESTED"
    again = (await pay.http.post("/payments/create-checkout-session", json={"bidId": str(approved.bid_id)},
                                 headers=headers)).json()["url"]
    assert again == first
    assert (await pay.http.post(path, data={"action": "pay"})).status_code == 303
    assert await pay.status(approved) == "COMPLETED"


async def test_names_from_identity_reach_checkout_and_report(pay):
    from pinbid_kit.events.identity import UserRegistered

    approved = await pay.approve(7_000)
    await pay.deliver(UserRegistered(user_id=approved.buyer_id, email="leo@brand.test", name="Leo Brand",
                                     role="BUYER"), source="identity")
    await pay.pay(approved)
    email = await pay.scalar("SELECT customer_email FROM sandbox_checkouts")
    assert email == "leo@brand.test"
    report = await pay.http.get("/influencer/earnings/report.csv",
                                headers=pay.token(approved.creator_id, "INFLUENCER"))
    assert "Leo Brand" in report.text
