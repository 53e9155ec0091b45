"""Account signals for finding a creator's associated accounts: CARD (the provider's card fingerprint, from the
charge) with the billing email (EMAIL) and the name on the card (NAME) when a payment completes; PAYOUT_ACCOUNT
when a payout account is connected or saved, with the PayPal address (EMAIL) and the bank account's holder (NAME).
Only hashes leave."""

import uuid

from pinbid_kit.events.identity import UserRegistered
from pinbid_kit.events.trust import signal_hash as hashed
from pinbid_payments.adapters.sandbox import card_fingerprint


async def pay_with(pay, approved, card: str, cardholder: str = "") -> None:
    response = await pay.http.post("/payments/create-checkout-session", json={"bidId": str(approved.bid_id)},
                                   headers=pay.token(approved.buyer_id, "BUYER"))
    path = "/" + response.json()["url"].split("/api/", 1)[1]
    answer = await pay.http.post(path, data={"action": "pay", "card": card, "cardholder": cardholder})
    assert answer.status_code == 303


async def test_a_completed_payment_announces_the_card_fingerprint_stable_per_test_card(pay):
    first, second, third = [await pay.approve(5_000) for _ in range(3)]
    await pay_with(pay, first, "4242 4242 4242 4242")
    await pay_with(pay, second, "4242424242424242")
    await pay_with(pay, third, "5555 5555 5555 4444")
    assert {await pay.status(a) for a in (first, second, third)} == {"COMPLETED"}
    signals = [s for s in await pay.events("payments.account.signal_observed.v1") if s["kind"] == "CARD"]
    assert [(s["userId"], s["kind"]) for s in signals] == [(str(a.buyer_id), "CARD") for a in (first, second, third)]
    assert signals[0]["valueHash"] == signals[1]["valueHash"] == hashed("CARD", card_fingerprint("4242424242424242"))
    assert signals[2]["valueHash"] != signals[0]["valueHash"]
    assert "4242" not in str(signals)


async def test_a_charge_announces_the_billing_email_and_the_name_on_the_card_hashed(pay):
    named, unnamed = await pay.approve(5_000), await pay.approve(5_000)
    await pay.deliver(UserRegistered(user_id=named.buyer_id, email="Maya.Rossi+shop@gmail.com", name="Maya",
                                     role="BUYER", business_name="Shop"), source="identity")
    await pay_with(pay, named, "4242 4242 4242 4242", cardholder="ROSSI, MAYA")
    await pay_with(pay, unnamed, "4242 4242 4242 4242")  # no email known, no name typed: neither is announced
    signals = [(s["userId"], s["kind"], s["valueHash"]) for s in await pay.events("payments.account.signal_observed.v1")
               if s["kind"] != "CARD"]
    assert signals == [(str(named.buyer_id), "EMAIL", hashed("EMAIL", "mayarossi@gmail.com")),
                       (str(named.buyer_id), "NAME", hashed("NAME", "Maya Rossi"))]
    assert "ossi" not in str(signals)


async def test_a_charge_before_its_checkout_completion_is_retried_later(pay):
    import json

    from pinbid_payments.adapters.signing import stripe_signature
    event = json.dumps({"id": "evt_early", "type": "charge.succeeded", "data": {"object": {
        "id": "ch_x", "object": "charge", "payment_intent": "pi_unknown", "metadata": {},
        "payment_method_details": {"type": "card", "card": {"fingerprint": "fp1"}}}}})
    answer = await pay.http.post("/payments/webhook", content=event, headers={
        "Stripe-Signature": stripe_signature(event, pay.settings.webhook_secret)})
    assert (answer.status_code, answer.json()["code"]) == (409, "out_of_order")
    assert await pay.scalar("SELECT count(*) FROM webhook_events WHERE id = 'evt_early'") == 0


async def test_payout_accounts_are_announced_once_each_and_on_sandbox_onboarding(pay):
    creator, other = uuid.uuid4(), uuid.uuid4()
    settings = {"payoutMethod": "PAYPAL", "minimumPayout": 50, "schedule": "WEEKLY",
                "paypalEmail": "Maya@Creator.test"}
    for user, email in ((creator, "Maya@Creator.test"), (creator, "maya@creator.test"), (other, "maya@creator.test")):
        answer = await pay.http.put("/influencer/payout-settings", json={**settings, "paypalEmail": email},
                                    headers=pay.token(user, "INFLUENCER"))
        assert answer.status_code == 200, answer.text
    link = await pay.http.post("/influencer/payout-settings/stripe-onboarding", headers=pay.token(creator,
                                                                                                  "INFLUENCER"))
    assert link.status_code == 200
    await pay.http.post("/influencer/payout-settings/stripe-onboarding", headers=pay.token(creator, "INFLUENCER"))
    every = [(s["userId"], s["kind"], s["valueHash"]) for s in await pay.events("payments.account.signal_observed.v1")]
    emailed = [s for s in every if s[1] == "EMAIL"]
    # the PayPal address is a mailbox a brand can be seen holding too: announced once per creator, however written
    assert emailed == [(str(creator), "EMAIL", hashed("EMAIL", "maya@creator.test")),
                       (str(other), "EMAIL", hashed("EMAIL", "maya@creator.test"))]
    signals = [s for s in every if s[1] != "EMAIL"]
    paypal = hashed("PAYOUT_ACCOUNT", "PAYPAL:maya@creator.test")
    assert signals[:2] == [(str(creator), "PAYOUT_ACCOUNT", paypal), (str(other), "PAYOUT_ACCOUNT", paypal)]
    assert len(signals) == 3 and signals[2][:2] == (str(creator), "PAYOUT_ACCOUNT")  # the connected account, once
