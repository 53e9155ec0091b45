"""Defence in depth: payments refuses a revoked token itself, so a request that reaches it without the
gateway is held to the same rule, and it still does after a restart."""

import uuid

from pinbid_kit.events.identity import SessionsRevoked

BANK = {"paymentMethod": "BANK_TRANSFER", "accountName": "Maya Makes", "accountNumber": "12345678",
        "routingNumber": "021000021", "minimumPayout": 50, "payoutSchedule": "MONTHLY", "currency": "USD"}


def bearer(harness, user_id: uuid.UUID, version: int) -> dict[str, str]:
    return {"Authorization": f"Bearer {harness.signer.sign(user_id, 'INFLUENCER', version)}"}


async def test_a_revoked_token_is_refused_by_the_service_and_after_a_restart(make_harness):
    harness = await make_harness()
    creator = uuid.uuid4()
    old, new = bearer(harness, creator, 0), bearer(harness, creator, 1)
    assert (await harness.http.get("/influencer/payout-settings", headers=old)).status_code == 200

    await harness.deliver(SessionsRevoked(user_id=creator, token_version=1), source="identity")

    refused = await harness.http.put("/influencer/payout-settings", json=BANK, headers=old)
    assert refused.status_code == 403 and refused.json()["code"] == "token_revoked"
    assert await harness.scalar("SELECT count(*) FROM payout_settings") == 0
    assert (await harness.http.get("/influencer/payout-settings", headers=new)).status_code == 200

    restarted = await make_harness(database_url=harness.settings.database_url)
    await restarted.service.load_revocations()
    again = await restarted.http.get("/influencer/payout-settings", headers=old)
    assert again.status_code == 403 and again.json()["code"] == "token_revoked"
    assert (await restarted.http.get("/influencer/payout-settings", headers=new)).status_code == 200
