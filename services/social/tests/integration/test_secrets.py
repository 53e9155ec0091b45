"""Tokens and sessions are encrypted at rest and never appear in a response, an event or a log."""

import logging
import uuid
from datetime import UTC, datetime, timedelta

from pinbid_kit.events.marketplace import BidAwarded, SlotCreated


async def test_tokens_and_sessions_stay_secret(social, caplog):
    caplog.set_level(logging.DEBUG)
    bodies: list[str] = []

    async def call(method, path, user, role="INFLUENCER", **kwargs):
        response = await social.http.request(method, path, headers=social.auth(user, role), **kwargs)
        bodies.append(response.text + str(response.headers))
        return response

    creator = await social.user(handle="maya.makes")
    buyer = await social.user("BUYER", business="Northwind Coffee")
    url, cookie = await social.start_connect(creator)
    bodies.append(await social.callback(await social.authorize(url), cookie))
    await social.connect(buyer, "BUYER", username="northwind.coffee")
    posts = (await call("GET", "/instagram/posts", creator)).json()
    await call("GET", "/instagram/posts?refresh=true", creator)
    await call("GET", "/instagram/connection", creator)
    await call("POST", "/influencer/instagram-login", creator, json={"username": "maya.makes", "password": "sandbox"})
    slot_id, bid_id = uuid.uuid4(), uuid.uuid4()
    await social.deliver(SlotCreated(slot_id=slot_id, creator_id=creator, post_id=posts[0]["id"], title="t",
                                     category="food", min_bid_cents=100, auction_end=datetime.now(UTC),
                                     duration_days=7))
    await call("GET", f"/instagram/comments/{slot_id}", buyer, "BUYER")
    await social.award(BidAwarded(bid_id=bid_id, slot_id=slot_id, creator_id=creator, buyer_id=buyer,
                                    buyer_name="Leo", post_id=posts[0]["id"], comment_text="Secret-free",
                                    final_price_cents=100, duration_days=7))
    assert (await call("PUT", f"/influencer/pin-comment/{bid_id}", creator)).status_code == 200
    social.clock.advance(hours=2)
    await social.service.state["tracker"].run_once()
    social.clock.advance(days=55)
    assert await social.service.state["connections"].refresh_tokens() == 2

    box = social.service.state["pins"].box
    sealed_tokens = [r[0] for r in await social.sql("SELECT access_token FROM connections")]
    sealed_sessions = [r[0] for r in await social.sql("SELECT session FROM pin_sessions")]
    secrets = [box.open(s) for s in sealed_tokens + sealed_sessions]
    secrets += [s.split('"sandbox_session": "')[1].split('"')[0] for s in secrets if "sandbox_session" in s]
    assert len(secrets) == 4 and all(len(s) > 20 for s in secrets)
    assert all(s not in sealed for s in secrets for sealed in sealed_tokens + sealed_sessions)  # encrypted at rest
    events = str(await social.events())
    logs = "\n".join(r.getMessage() for r in caplog.records)
    for secret in secrets:
        assert secret not in events
        assert secret not in logs
        assert all(secret not in body for body in bodies)
    codes = [r[0] for r in await social.sql("SELECT code FROM sandbox_codes")]
    assert codes and all(code not in logs for code in codes)


async def test_the_token_refresh_renews_tokens_close_to_expiry_once(social):
    creator = await social.user(handle="refresh.me")
    await social.connect(creator)
    before = await social.sql("SELECT access_token, token_expires_at FROM connections")
    connections = social.service.state["connections"]
    assert await connections.refresh_tokens() == 0  # 60 days left
    social.clock.advance(days=51)
    assert await connections.refresh_tokens() == 1
    after = await social.sql("SELECT access_token, token_expires_at FROM connections")
    assert after[0][0] != before[0][0] and after[0][1] > before[0][1] + timedelta(days=50)
    assert await connections.refresh_tokens() == 0
    posts = await social.http.get("/instagram/posts?refresh=true", headers=social.auth(creator))
    assert posts.status_code == 200  # the new token works
