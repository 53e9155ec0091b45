"""GET/PUT /influencer/payout-settings: defaults, every rule of SPEC section 5, secrets sealed and masked."""

import uuid

import pytest

VALID_BANK = {"payoutMethod": "BANK_TRANSFER", "minimumPayout": 75, "schedule": "WEEKLY", "currency": "USD",
              "accountName": "Maya Creator", "bankAccount": "123456789012", "routingNumber": "021000021",
              "taxFormSubmitted": True}


async def test_defaults_before_anything_is_saved(pay):
    response = await pay.http.get("/influencer/payout-settings", headers=pay.token(uuid.uuid4(), "INFLUENCER"))
    body = response.json()
    assert (body["payoutMethod"], body["minimumPayout"], body["schedule"], body["currency"], body["saved"]) == (
        "BANK_TRANSFER", 50.0, "MONTHLY", "USD", False)


async def test_only_influencers(pay):
    assert (await pay.http.get("/influencer/payout-settings",
                               headers=pay.token(uuid.uuid4(), "BUYER"))).status_code == 403
    assert (await pay.http.get("/influencer/earnings")).status_code == 403


@pytest.mark.parametrize(("changes", "field", "message"), [
    ({"payoutMethod": None}, "payoutMethod", "Payout method is required."),
    ({"payoutMethod": "CHEQUE"}, "payoutMethod", "Payout method must be BANK_TRANSFER or PAYPAL."),
    ({"minimumPayout": 0}, "minimumPayout", "Minimum payout must be a positive number."),
    ({"minimumPayout": -5}, "minimumPayout", "Minimum payout must be a positive number."),
    ({"minimumPayout": None}, "minimumPayout", "Minimum payout must be a positive number."),
    ({"minimumPayout": 20}, "minimumPayout", "Minimum payout must be at least $50.00."),
    ({"minimumPayout": 1_000_000_000}, "minimumPayout", "Minimum payout must be at most $100,000.00."),
    ({"minimumPayout": 100_000.01}, "minimumPayout", "Minimum payout must be at most $100,000.00."),
    ({"schedule": ""}, "schedule", "Payout schedule is required."),
    ({"schedule": "DAILY"}, "schedule", "Payout schedule must be WEEKLY, MONTHLY or QUARTERLY."),
    ({"accountName": " "}, "accountName", "Account holder name is required."),
    ({"bankAccount": "1234567"}, "bankAccount", "Bank account number must be at least 8 digits."),
    ({"bankAccount": "12345678x"}, "bankAccount", "Bank account number must be at least 8 digits."),
    ({"currency": None}, "currency", "Currency is required."),
    ({"currency": "EUR"}, "currency", "Currency must be USD or GBP."),
    ({"routingNumber": "12345678"}, "routingNumber", "Routing number must be 9 digits."),
    ({"routingNumber": None}, "routingNumber", "Routing number must be 9 digits."),
    ({"currency": "GBP", "routingNumber": None, "sortCode": "12345"}, "sortCode",
     "Sort code must be 6 digits (or XX-XX-XX)."),
    ({"currency": "GBP", "sortCode": "12-3456"}, "sortCode", "Sort code must be 6 digits (or XX-XX-XX)."),
    ({"payoutMethod": "PAYPAL", "paypalEmail": "maya@"}, "paypalEmail", "Invalid PayPal email format."),
    ({"payoutMethod": "PAYPAL", "paypalEmail": None}, "paypalEmail", "PayPal email is required."),
])
async def test_every_rule_is_enforced(pay, changes, field, message):
    creator = uuid.uuid4()
    response = await pay.http.put("/influencer/payout-settings", json={**VALID_BANK, **changes},
                                  headers=pay.token(creator, "INFLUENCER"))
    assert response.status_code == 422
    assert {"field": field, "message": message} in response.json()["errors"]
    assert await pay.scalar("SELECT count(*) FROM payout_settings") == 0


async def test_all_broken_rules_are_listed(pay):
    response = await pay.http.put("/influencer/payout-settings", json={"payoutMethod": "BANK_TRANSFER"},
                                  headers=pay.token(uuid.uuid4(), "INFLUENCER"))
    fields = [e["field"] for e in response.json()["errors"]]
    assert fields == ["minimumPayout", "schedule", "accountName", "bankAccount", "currency"]


async def test_bank_details_are_sealed_at_rest_and_masked(pay):
    creator = uuid.uuid4()
    headers = pay.token(creator, "INFLUENCER")
    saved = await pay.http.put("/influencer/payout-settings", json=VALID_BANK, headers=headers)
    assert saved.status_code == 200
    body = saved.json()
    assert body["bankAccount"] == "••••9012" and body["routingNumber"] == "••••0021"
    row = (await pay.rows("SELECT * FROM payout_settings"))[0]._mapping
    stored = " ".join(str(v) for v in row.values())
    assert "123456789012" not in stored and "021000021" not in stored
    assert pay.settings.secret_box().open(row["bank_account_sealed"]) == "123456789012"

    # the form sends the masked values back unchanged: what is stored is kept
    again = await pay.http.put("/influencer/payout-settings", json={**VALID_BANK, **{
        "bankAccount": body["bankAccount"], "routingNumber": body["routingNumber"], "schedule": "QUARTERLY"}},
        headers=headers)
    assert again.status_code == 200 and again.json()["schedule"] == "QUARTERLY"
    row = (await pay.rows("SELECT * FROM payout_settings"))[0]._mapping
    assert pay.settings.secret_box().open(row["bank_account_sealed"]) == "123456789012"
    read = (await pay.http.get("/influencer/payout-settings", headers=headers)).json()
    assert read["bankAccount"] == "••••9012" and read["saved"] is True and read["taxFormSubmitted"] is True


async def test_gbp_and_paypal_forms(pay):
    creator = uuid.uuid4()
    headers = pay.token(creator, "INFLUENCER")
    gbp = await pay.http.put("/influencer/payout-settings", json={
        **VALID_BANK, "currency": "GBP", "routingNumber": None, "sortCode": "12-34-56"}, headers=headers)
    assert gbp.status_code == 200 and gbp.json()["sortCode"] == "••••"
    paypal = await pay.http.put("/influencer/payout-settings", json={
        "payoutMethod": "PAYPAL", "minimumPayout": 50, "schedule": "MONTHLY", "paypalEmail": "Maya@Creator.test"},
        headers=headers)
    assert paypal.status_code == 200
    assert paypal.json()["bankAccount"] is None and paypal.json()["paypalEmail"] == "m••••@creator.test"
    row = (await pay.rows("SELECT * FROM payout_settings"))[0]._mapping
    assert row["bank_account_sealed"] is None
    assert pay.settings.secret_box().open(row["paypal_email_sealed"]) == "maya@creator.test"


async def test_with_two_step_sign_in_on_a_new_payout_account_needs_a_fresh_second_factor(pay):
    """A stolen session of a creator with two-step sign-in on cannot send the money elsewhere: the token must say a
    second factor was proved in the last few minutes (pinbid_kit.step_up)."""
    import time

    from pinbid_kit.step_up import STEP_UP_SECONDS

    creator = uuid.uuid4()

    def token(proved_at):
        return {"Authorization": "Bearer " + pay.signer.sign(creator, "INFLUENCER", 0, second_factor_on=True,
                                                             second_factor_at=proved_at)}
    for stale in (None, int(time.time()) - STEP_UP_SECONDS - 5):
        refused = await pay.http.put("/influencer/payout-settings", json=VALID_BANK, headers=token(stale))
        assert refused.status_code == 401 and refused.json()["code"] == "step_up_required"
        onboarding = await pay.http.post("/influencer/payout-settings/stripe-onboarding", headers=token(stale))
        assert onboarding.status_code == 401
    assert (await pay.http.get("/influencer/payout-settings", headers=token(None))).json()["saved"] is False
    saved = await pay.http.put("/influencer/payout-settings", json=VALID_BANK, headers=token(int(time.time())))
    assert saved.status_code == 200 and saved.json()["saved"] is True


async def test_a_new_payout_destination_is_announced_masked_for_the_creators_notice(pay):
    creator = uuid.uuid4()
    headers = pay.token(creator, "INFLUENCER")
    assert (await pay.http.put("/influencer/payout-settings", json=VALID_BANK, headers=headers)).status_code == 200
    same = {**VALID_BANK, "minimumPayout": 80}  # the same account: nothing to tell
    assert (await pay.http.put("/influencer/payout-settings", json=same, headers=headers)).status_code == 200
    paypal = {**VALID_BANK, "payoutMethod": "PAYPAL", "paypalEmail": "maya@example.com"}
    assert (await pay.http.put("/influencer/payout-settings", json=paypal, headers=headers)).status_code == 200
    changes = await pay.events("payments.payout_account.changed.v1")
    assert [(c["creatorId"], c["method"], c["account"]) for c in changes] == [
        (str(creator), "BANK_TRANSFER", "the bank account ••••9012"),
        (str(creator), "PAYPAL", "the PayPal address m••••@example.com")]
    assert "123456789012" not in str(changes)
