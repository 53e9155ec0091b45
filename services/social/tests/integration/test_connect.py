"""Connecting Instagram through the sandbox's authorize page, and every way the OAuth state can be bad."""

import asyncio
import hashlib
import uuid
from urllib.parse import parse_qs, urlsplit

from pinbid_kit.events.social import AccountConnected, AccountDisconnected, MediaSynced, SocialAccountSignal
from pinbid_testing import counting_statements

PUBLIC = "http://pinbid.test"


async def test_the_sandbox_connection_stores_the_account_and_publishes_profile_and_media(social):
    creator = await social.user(handle="maya.makes", name="Maya Creator")
    url, _ = await social.start_connect(creator)
    query = parse_qs(urlsplit(url).query)
    assert url.startswith(f"{PUBLIC}/api/instagram/sandbox/authorize?")
    assert query["response_type"] == ["code"] and query["force_reauth"] == ["true"]
    assert query["redirect_uri"] == [f"{PUBLIC}/api/instagram/callback"]
    assert "instagram_business_manage_comments" in query["scope"][0]
    assert str(creator) not in query["state"][0]  # the state is not the bare user id

    page = await social.http.get(urlsplit(url).path.removeprefix("/api") + "?" + urlsplit(url).query)
    assert page.status_code == 200 and 'value="maya.makes"' in page.text

    assert await social.connect(creator) == f"{PUBLIC}/post-manager?connected=1"
    connected = await social.events(AccountConnected.event_type)
    assert len(connected) == 1 and connected[0]["username"] == "maya.makes"
    profile = connected[0]["profile"]
    assert profile["followers"] > 0 and profile["avgViews"] > 0 and profile["verified"] in (True, False)
    synced = await social.events(MediaSynced.event_type)
    assert len(synced[0]["posts"]) == 6 and synced[0]["posts"][0]["mediaUrl"].startswith(
        f"{PUBLIC}/api/instagram/sandbox/media/")

    status = (await social.http.get("/instagram/connection", headers=social.auth(creator))).json()
    assert status["connected"] is True and status["username"] == "maya.makes"


async def test_connecting_writes_the_account_and_its_media_events_with_one_outbox_insert(social):
    creator = await social.user(handle="nia.bakes", name="Nia Creator")
    with counting_statements(social.service.db) as counted:
        assert await social.connect(creator) == f"{PUBLIC}/post-manager?connected=1"
    assert counted.outbox_writes() == (1, 1)
    assert len(await social.events(AccountConnected.event_type)) == len(await social.events(MediaSynced.event_type))


async def test_connecting_announces_the_instagram_account_as_a_hashed_signal(social):
    creator = await social.user(handle="ivy.signals")
    await social.connect(creator)
    instagram_id = (await social.sql("SELECT instagram_id FROM connections WHERE user_id = :u", u=creator))[0][0]
    signals = await social.events(SocialAccountSignal.event_type)
    assert len(signals) == 1 and signals[0]["userId"] == str(creator) and signals[0]["kind"] == "INSTAGRAM_ACCOUNT"
    assert signals[0]["valueHash"] == hashlib.sha256(f"INSTAGRAM_ACCOUNT:{instagram_id}".encode()).hexdigest()
    assert instagram_id not in str(signals[0])


async def test_denying_on_the_authorize_page_connects_nothing(social):
    creator = await social.user(handle="deny.me")
    url, cookie = await social.start_connect(creator)
    location = await social.callback(await social.authorize(url, action="deny"), cookie)
    assert location == f"{PUBLIC}/post-manager?error=access_denied"
    assert await social.sql("SELECT * FROM connections") == []


async def test_a_state_works_once(social):
    creator = await social.user(handle="once.only")
    url, cookie = await social.start_connect(creator)
    redirect = await social.authorize(url)
    assert (await social.callback(redirect, cookie)).endswith("connected=1")
    assert (await social.callback(redirect, cookie)).endswith("error=used_state")


async def test_a_replayed_state_with_a_new_code_is_refused(social):
    creator = await social.user(handle="replay.me")
    url, cookie = await social.start_connect(creator)
    first = await social.authorize(url)
    second = await social.authorize(url)  # same state, a second code
    assert (await social.callback(first, cookie)).endswith("connected=1")
    assert (await social.callback(second, cookie)).endswith("error=used_state")


async def test_concurrent_callbacks_with_one_state_connect_once(social):
    creator = await social.user(handle="race.me")
    url, cookie = await social.start_connect(creator)
    redirects = [await social.authorize(url) for _ in range(5)]
    results = await asyncio.gather(*(social.callback(r, cookie) for r in redirects))
    assert sorted(r.rsplit("?", 1)[1] for r in results) == ["connected=1"] + ["error=used_state"] * 4
    assert len(await social.events(AccountConnected.event_type)) == 1


async def test_an_expired_state_is_refused(social):
    creator = await social.user(handle="slow.poke")
    url, cookie = await social.start_connect(creator)
    redirect = await social.authorize(url)
    social.clock.advance(seconds=601)
    assert (await social.callback(redirect, cookie)).endswith("error=expired_state")
    assert await social.sql("SELECT * FROM connections") == []


async def test_a_tampered_or_foreign_state_is_refused(social):
    creator = await social.user(handle="tamper.me")
    url, cookie = await social.start_connect(creator)
    redirect = await social.authorize(url)
    parts = urlsplit(redirect)
    query = parse_qs(parts.query)
    state = query["state"][0]
    other = uuid.uuid4().hex
    forged = other + state[32:]  # another user's id under the same signature
    for bad in (forged, state[:-2] + "xx", "", "a.b.c"):
        location = await social.callback(f"{parts.path}?code={query['code'][0]}&state={bad}", cookie)
        assert location.endswith("error=invalid_state"), bad
    assert await social.sql("SELECT * FROM connections") == []


async def test_a_state_from_another_browser_is_refused(social):
    victim = await social.user(handle="victim")
    attacker = await social.user(handle="attacker")
    url, _attacker_cookie = await social.start_connect(attacker)
    _, victim_cookie = await social.start_connect(victim)
    redirect = await social.authorize(url, username="victim")
    assert (await social.callback(redirect, victim_cookie)).endswith("error=state_mismatch")
    assert (await social.callback(redirect, None)).endswith("error=state_mismatch")
    assert await social.sql("SELECT * FROM connections") == []


async def test_an_unknown_code_is_refused_and_nothing_is_stored(social):
    creator = await social.user(handle="bad.code")
    url, cookie = await social.start_connect(creator)
    parts = urlsplit(await social.authorize(url))
    state = parse_qs(parts.query)["state"][0]
    location = await social.callback(f"{parts.path}?code=not-a-code&state={state}", cookie)
    assert location.endswith("error=invalid_code")
    assert await social.sql("SELECT * FROM connections") == []


async def test_the_authorize_page_refuses_a_foreign_redirect_uri(social):
    response = await social.http.get("/instagram/sandbox/authorize?client_id=pinbid-sandbox&response_type=code"
                                     "&redirect_uri=https://evil.example/cb&state=x")
    assert response.status_code == 400
    response = await social.http.post("/instagram/sandbox/authorize?client_id=pinbid-sandbox&response_type=code"
                                      "&redirect_uri=https://evil.example/cb&state=x",
                                      content="action=approve&username=a",
                                      headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert response.status_code == 400 and "location" not in response.headers


async def test_one_instagram_account_belongs_to_one_user(social):
    first = await social.user(handle="shared.handle")
    second = await social.user(handle="shared.handle")
    assert (await social.connect(first)).endswith("connected=1")
    assert (await social.connect(second)).endswith("error=account_in_use")


async def test_disconnecting_forgets_the_account_and_tells_the_others(social):
    creator = await social.user(handle="leaving.soon")
    await social.connect(creator)
    response = await social.http.delete("/instagram/connection", headers=social.auth(creator))
    assert response.status_code == 204
    assert await social.sql("SELECT * FROM connections") == []
    assert await social.sql("SELECT * FROM posts") == []
    assert [e["userId"] for e in await social.events(AccountDisconnected.event_type)] == [str(creator)]
    again = await social.http.delete("/instagram/connection", headers=social.auth(creator))
    assert again.status_code == 204 and len(await social.events(AccountDisconnected.event_type)) == 1
    posts = await social.http.get("/instagram/posts", headers=social.auth(creator))
    assert posts.status_code == 401


async def test_connect_needs_a_signed_in_user(social):
    assert (await social.http.get("/instagram/connect")).status_code == 403


async def test_a_brand_comes_back_to_the_marketplace(social):
    brand = await social.user("BUYER", business="Northwind Coffee", name="Leo Brand")
    assert await social.connect(brand, "BUYER", username="northwind") == f"{PUBLIC}/marketplace?connected=1"
    url, cookie = await social.start_connect(brand, "BUYER")
    location = await social.callback(await social.authorize(url, action="deny"), cookie)
    assert location == f"{PUBLIC}/marketplace?error=access_denied"


async def _owner_acts(social, account: str, cookie: str | None, action: str = "pin"):
    """The sandbox post page's owner action on the account's first post, from a browser with `cookie`."""
    [(media_id, comment_id)] = await social.sql(
        "SELECT m.id, c.id FROM sandbox_media m JOIN sandbox_accounts a ON a.id = m.account_id "
        "JOIN sandbox_comments c ON c.media_id = m.id WHERE a.username = :u ORDER BY m.id, c.id LIMIT 1", u=account)
    headers = {"Cookie": f"pinbid_sandbox_owner={cookie}"} if cookie else {}
    return await social.http.post(f"/instagram/sandbox/p/{media_id}", headers=headers,
                                  data={"comment": comment_id, "action": action})


async def test_the_sandbox_owner_cookie_ends_when_the_creator_disconnects(social):
    creator = await social.user(handle="maya.makes")
    await social.connect(creator)
    cookie = social.sandbox_owners[creator]
    assert (await _owner_acts(social, "maya.makes", cookie)).status_code == 303
    assert (await social.http.delete("/instagram/connection", headers=social.auth(creator))).status_code == 204
    refused = await _owner_acts(social, "maya.makes", cookie, "unpin")
    assert refused.status_code == 403 and "signed in to this sandbox Instagram" in refused.text
    [(media_id,)] = await social.sql("SELECT m.id FROM sandbox_media m JOIN sandbox_accounts a ON a.id = m.account_id "
                                     "WHERE a.username = 'maya.makes' ORDER BY m.id LIMIT 1")
    page = await social.http.get(f"/instagram/sandbox/p/{media_id}",
                                 headers={"Cookie": f"pinbid_sandbox_owner={cookie}"})
    assert "signed in as the post's owner" not in page.text and "<button" not in page.text


async def test_the_sandbox_owner_cookie_ends_when_the_account_is_connected_again(social):
    """Issue 30: a brand that once connected a creator's sandbox account could still unpin after the creator
    connected it. Each connection has its own id, and only the current one's cookie signs in."""
    creator = await social.user(handle="maya.makes")
    brand = await social.user("BUYER", business="Northwind Coffee")
    await social.connect(brand, "BUYER", username="maya.makes")
    brands = social.sandbox_owners[brand]
    assert (await _owner_acts(social, "maya.makes", brands)).status_code == 303
    assert (await social.http.delete("/instagram/connection", headers=social.auth(brand, "BUYER"))).status_code == 204
    await social.connect(creator)
    first = social.sandbox_owners[creator]
    assert (await _owner_acts(social, "maya.makes", brands, "unpin")).status_code == 403
    assert (await _owner_acts(social, "maya.makes", first, "unpin")).status_code == 303
    await social.connect(creator)  # the same person connects the same account again: a new connection
    second = social.sandbox_owners[creator]
    assert second != first
    assert (await _owner_acts(social, "maya.makes", first)).status_code == 403
    assert (await _owner_acts(social, "maya.makes", second)).status_code == 303
    [(pinned,)] = await social.sql("SELECT count(*) FROM sandbox_comments c JOIN sandbox_media m ON m.id = c.media_id "
                                   "JOIN sandbox_accounts a ON a.id = m.account_id "
                                   "WHERE a.username = 'maya.makes' AND c.pinned_at IS NOT NULL")
    assert pinned == 1  # pinned by the brand, unpinned by the creator, pinned again by the creator; nothing else
